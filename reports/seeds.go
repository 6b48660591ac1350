package reports

// SeedAggregate is one sweep point's test means across the seeds it ran
// under (the rows sharing its seed-free Point name).
type SeedAggregate struct {
	Point                    string
	Omega                    float64
	N                        int
	Objective, AvgJCT, MaxQT Stat
}

// SeedAggregates groups rows by point (first-appearance order) and
// averages each group over its seeds. It is nil when no point has more
// than one seed, so a sweep without a seed axis shows nothing extra.
func SeedAggregates(rows []SweepRow) []SeedAggregate {
	var order []string
	groups := map[string][]SweepRow{}
	multi := false
	for _, r := range rows {
		if _, ok := groups[r.Point]; !ok {
			order = append(order, r.Point)
		}
		groups[r.Point] = append(groups[r.Point], r)
		multi = multi || len(groups[r.Point]) > 1
	}
	if !multi {
		return nil
	}
	out := make([]SeedAggregate, len(order))
	for i, p := range order {
		g := groups[p]
		col := func(f func(SweepRow) float64) Stat {
			xs := make([]float64, len(g))
			for k, r := range g {
				xs[k] = f(r)
			}
			return MeanSD(xs)
		}
		out[i] = SeedAggregate{Point: p, Omega: g[0].Omega, N: len(g),
			Objective: col(func(r SweepRow) float64 { return r.Objective }),
			AvgJCT:    col(func(r SweepRow) float64 { return r.AvgJCT }),
			MaxQT:     col(func(r SweepRow) float64 { return r.MaxQT })}
	}
	return out
}

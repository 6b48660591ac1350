package reports

import "slices"

// foldIdentical sets SameAs of every scheduler whose rows equal, metric
// for metric and bit for bit, those of an earlier scheduler on the same
// (instance, seed) keys. Such rows say the same thing twice (srsf is
// tiresias, the normaliser, under another name), so the summary prints
// them as one and tests neither against the other. The schedulers named
// in keep (the best baseline, the reference) are kept in preference to
// the others, so that a fold never hides the row the others are compared
// with.
func foldIdentical(rows []ResultRow, scheds []string, out []SchedulerStats, keep ...string) {
	type key struct {
		instance string
		seed     int64
	}
	byKey := make([]map[key]ResultRow, len(scheds))
	for s, name := range scheds {
		byKey[s] = map[key]ResultRow{}
		for _, r := range rows {
			if r.Scheduler == name {
				byKey[s][key{r.Instance, r.Seed}] = r
			}
		}
	}
	same := func(a, b int) bool {
		if len(byKey[a]) != len(byKey[b]) {
			return false
		}
		for k, ra := range byKey[a] {
			rb, ok := byKey[b][k]
			if !ok {
				return false
			}
			ra.Scheduler = rb.Scheduler
			if ra != rb {
				return false
			}
		}
		return true
	}
	var order []int // keep first, then scheduler order
	for _, k := range keep {
		if i := slices.Index(scheds, k); i >= 0 && !slices.Contains(order, i) {
			order = append(order, i)
		}
	}
	for s := range scheds {
		if !slices.Contains(order, s) {
			order = append(order, s)
		}
	}
	for i, s := range order {
		for _, e := range order[:i] {
			if out[e].SameAs == "" && same(s, e) {
				out[s].SameAs = scheds[e]
				break
			}
		}
	}
}

// sameRow reports whether schedulers a and b are folded into one row.
func sameRow(st []SchedulerStats, a, b int) bool {
	root := func(i int) string {
		if st[i].SameAs != "" {
			return st[i].SameAs
		}
		return st[i].Scheduler
	}
	return root(a) == root(b)
}

// Fold is one folded row of a summary: Name's results equal Kept's on
// every instance.
type Fold struct {
	Name, Kept string
}

// Folds lists the folded rows of s in scheduler order.
func (s Summary) Folds() []Fold {
	var out []Fold
	for _, r := range s.Schedulers {
		if r.SameAs != "" {
			out = append(out, Fold{Name: r.Scheduler, Kept: r.SameAs})
		}
	}
	return out
}

// FoldWhy is the reason a reader is given for a fold: "srsf = tiresias,
// the normaliser", with what the two have in common.
func (s Summary) FoldWhy(f Fold) string {
	names := []string{f.Name, f.Kept}
	txt := f.Name + " = " + f.Kept
	switch {
	case slices.Contains(names, s.Reference) && f.Kept == s.Reference:
		txt += ", the normaliser"
	case f.Name == s.Reference:
		txt += " (" + f.Name + " is the normaliser)"
	case f.Kept == s.BestBaseline:
		txt += ", the best baseline"
	}
	return txt + ": identical results on every instance"
}

package reports

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/evogp/evogp/internal/bestbaseline"
	"gonum.org/v1/gonum/stat"
)

// DefaultReference is the scheduler objectives are normalised by: SRSF
// with MCT allocation and best-fit placement, the learner's baseline
// (SPEC §8).
const DefaultReference = "tiresias"

// Stat is the sample mean and standard deviation of N values. SD uses the
// unbiased n−1 denominator, sqrt(Σ(x−x̄)²/(N−1)), and is 0 when N = 1. Both
// are NaN when N = 0.
type Stat struct {
	Mean, SD float64
	N        int
}

func meanSD(xs []float64) Stat {
	switch len(xs) {
	case 0:
		return Stat{Mean: math.NaN(), SD: math.NaN()}
	case 1:
		return Stat{Mean: xs[0], N: 1}
	}
	m, sd := stat.MeanStdDev(xs, nil)
	return Stat{Mean: m, SD: sd, N: len(xs)}
}

// SchedulerStats summarises one scheduler over the instances of a results
// table. An "instance" is an (instance, seed) key of ResultRow.
type SchedulerStats struct {
	Scheduler string
	Instances int // rows of this scheduler

	CQAvg, CQMax, Util, Objective, AvgJCT, MaxQT, Makespan, TotalTardiness Stat
	DeadlineMisses                                                         Stat

	// Normalized is the mean over instances i of O_s,i / O_ref,i, over the
	// instances where the reference ran and O_ref,i > 0.
	Normalized Stat

	// Wins counts ranked instances where the scheduler has the lowest
	// objective; a k-way tie for first gives each tied scheduler 1/k.
	Wins float64
	// MeanRank is the mean mid-rank on the objective over ranked instances
	// (1 = best; tied schedulers share the mean of the ranks they span).
	MeanRank float64
	// RankCounts[k] is the number of ranked instances where the scheduler
	// placed (k+1)-th by competition ranking: tied schedulers all get the
	// best rank of their group ("1224"), as a reader of Fig. 4 expects.
	RankCounts []int

	// Test compares the objective with that of Summary.BestBaseline over
	// the instances both ran (x = this scheduler, y = best baseline, so
	// W+ > W− means this scheduler is worse). Method is "" for the best
	// baseline itself or when there is none.
	Test Wilcoxon
	// Paired is the better/tied/worse count and the effect size against
	// the best baseline over the same pairs as Test (zero value when Test
	// is).
	Paired Paired
	// SameAs names an earlier scheduler whose result row is identical to
	// this one's on every instance (every metric bit for bit, the same
	// instances): the two are one row of the summary, and neither is
	// tested against the other. "" when there is none.
	SameAs string
}

// Summary is the per-scheduler statistics of a results table.
type Summary struct {
	Reference string // normalising scheduler
	// BestBaseline is the best baseline (internal/bestbaseline: lowest
	// mean normalised objective; "" if no baseline ran), and Baselines the
	// named baselines it was chosen among (SummaryOptions.Baselines).
	BestBaseline string
	Baselines    []string
	// BestByObjective: the best baseline was chosen on the rows by mean
	// objective, not normalised, because the reference did not run on
	// them (a scale factor per instance, unknown).
	BestByObjective bool
	// BestBaselineBasis says on which data BestBaseline was chosen, e.g.
	// "on the validation set of runs/a" (SummaryOptions.BestBaselineBasis),
	// or BasisThisData when it was chosen on the rows summarised.
	BestBaselineBasis string
	Instances         int // distinct (instance, seed) keys
	Ranked            int // keys where every scheduler ran; ranks and wins use these
	Schedulers        []SchedulerStats
}

// SummaryOptions choose the reference and the baselines. A zero Reference
// means DefaultReference.
type SummaryOptions struct {
	Reference string
	// Baselines are the named baselines, policies.Baselines() (reports
	// may not import the registry, so the caller passes it; nil: none).
	Baselines []string
	// BestBaseline, if set, is the best baseline, chosen elsewhere (on
	// validation data, say) and named with BestBaselineBasis; it must be
	// one of the schedulers of the rows. Empty: the best baseline of the
	// rows themselves by internal/bestbaseline (BasisThisData).
	BestBaseline, BestBaselineBasis string
}

// BasisThisData is Summary.BestBaselineBasis when the best baseline was
// chosen on the very rows it is compared on.
const BasisThisData = "on the data summarised here, for want of other data"

// Summarize computes per-scheduler statistics. Schedulers appear in the
// order of their first row. Objectives are compared with exact float
// equality for ties (identical schedules give bit-identical objectives).
//
// The best baseline is the scheduler of opts.Baselines present in rows with
// the lowest mean normalised objective (internal/bestbaseline, the one
// definition; ties: earlier listed), or when the reference did not run on
// the rows the lowest mean objective.
func Summarize(rows []ResultRow, opts SummaryOptions) (Summary, error) {
	if len(rows) == 0 {
		return Summary{}, errors.New("summarize: no result rows")
	}
	if opts.Reference == "" {
		opts.Reference = DefaultReference
	}
	t, err := newObjectiveTable(rows)
	if err != nil {
		return Summary{}, fmt.Errorf("summarize: %w", err)
	}
	sum := Summary{Reference: opts.Reference, Baselines: opts.Baselines, Instances: len(t.keys)}
	rk := t.ranks()
	sum.Ranked = rk.ranked

	ref := slices.Index(t.scheds, opts.Reference)
	for s, name := range t.scheds {
		var mine []ResultRow
		for _, r := range rows {
			if r.Scheduler == name {
				mine = append(mine, r)
			}
		}
		col := func(f func(ResultRow) float64) Stat {
			xs := make([]float64, len(mine))
			for i, r := range mine {
				xs[i] = f(r)
			}
			return meanSD(xs)
		}
		st := SchedulerStats{
			Scheduler:      name,
			Instances:      len(mine),
			CQAvg:          col(func(r ResultRow) float64 { return r.CQAvg }),
			CQMax:          col(func(r ResultRow) float64 { return r.CQMax }),
			Util:           col(func(r ResultRow) float64 { return r.Util }),
			Objective:      col(func(r ResultRow) float64 { return r.Objective }),
			AvgJCT:         col(func(r ResultRow) float64 { return r.AvgJCT }),
			MaxQT:          col(func(r ResultRow) float64 { return r.MaxQT }),
			Makespan:       col(func(r ResultRow) float64 { return r.Makespan }),
			TotalTardiness: col(func(r ResultRow) float64 { return r.TotalTardiness }),
			DeadlineMisses: col(func(r ResultRow) float64 { return float64(r.DeadlineMisses) }),
			Wins:           rk.wins[s],
			MeanRank:       math.NaN(),
			RankCounts:     rk.counts[s],
		}
		if rk.ranked > 0 {
			st.MeanRank = rk.rankSum[s] / float64(rk.ranked)
		}
		var ratios []float64
		if ref >= 0 {
			for k := range t.keys {
				o, r := t.obj[k][s], t.obj[k][ref]
				if !math.IsNaN(o) && !math.IsNaN(r) && r > 0 {
					ratios = append(ratios, o/r)
				}
			}
		}
		st.Normalized = meanSD(ratios)
		sum.Schedulers = append(sum.Schedulers, st)
	}

	best := -1
	if opts.BestBaseline != "" {
		if best = slices.Index(t.scheds, opts.BestBaseline); best < 0 {
			return Summary{}, fmt.Errorf("summarize: best baseline %q (chosen %s) is not among the schedulers %v", opts.BestBaseline, opts.BestBaselineBasis, t.scheds)
		}
		sum.BestBaselineBasis = opts.BestBaselineBasis
	} else {
		var cand []int // the baselines present, in listed order
		for _, b := range opts.Baselines {
			if s := slices.Index(t.scheds, b); s >= 0 {
				cand = append(cand, s)
			}
		}
		scores := make([]float64, len(cand))
		for i, s := range cand {
			scores[i] = sum.Schedulers[s].Normalized.Mean
		}
		if slices.ContainsFunc(scores, math.IsNaN) {
			// Without the reference nothing is normalised: compare the
			// objectives themselves.
			sum.BestByObjective = true
			for i, s := range cand {
				scores[i] = sum.Schedulers[s].Objective.Mean
			}
		}
		if i, ok := bestbaseline.Index(scores); ok {
			best = cand[i]
		}
		sum.BestBaselineBasis = BasisThisData
	}
	if best < 0 {
		sum.BestBaselineBasis = ""
		foldIdentical(rows, t.scheds, sum.Schedulers, opts.Reference)
		return sum, nil
	}
	sum.BestBaseline = t.scheds[best]
	foldIdentical(rows, t.scheds, sum.Schedulers, sum.BestBaseline, opts.Reference)
	for s := range t.scheds {
		if s == best || sameRow(sum.Schedulers, s, best) {
			continue
		}
		var x, y []float64
		for k := range t.keys {
			o, b := t.obj[k][s], t.obj[k][best]
			if !math.IsNaN(o) && !math.IsNaN(b) {
				x, y = append(x, o), append(y, b)
			}
		}
		w, err := WilcoxonSignedRank(x, y)
		if err != nil {
			return Summary{}, fmt.Errorf("summarize: %s vs %s: %w", t.scheds[s], t.scheds[best], err)
		}
		sum.Schedulers[s].Test = w
		sum.Schedulers[s].Paired = pairedComparison(x, y)
	}
	return sum, nil
}

// objectiveTable is the objective of every scheduler on every (instance,
// seed) key; missing entries are NaN.
type objectiveTable struct {
	scheds []string
	keys   []resultKey // scheduler field unused
	obj    [][]float64 // [key][scheduler]
}

func newObjectiveTable(rows []ResultRow) (objectiveTable, error) {
	var t objectiveTable
	keyIdx := map[resultKey]int{}
	schedIdx := map[string]int{}
	type cell struct{ k, s int }
	seen := map[cell]bool{}
	for _, r := range rows {
		if err := r.check(); err != nil {
			return t, fmt.Errorf("instance %q scheduler %q: %w", r.Instance, r.Scheduler, err)
		}
		s, ok := schedIdx[r.Scheduler]
		if !ok {
			s = len(t.scheds)
			schedIdx[r.Scheduler] = s
			t.scheds = append(t.scheds, r.Scheduler)
		}
		key := resultKey{instance: r.Instance, seed: r.Seed}
		k, ok := keyIdx[key]
		if !ok {
			k = len(t.keys)
			keyIdx[key] = k
			t.keys = append(t.keys, key)
		}
		if seen[cell{k, s}] {
			return t, fmt.Errorf("duplicate row for instance %q seed %d scheduler %q", r.Instance, r.Seed, r.Scheduler)
		}
		seen[cell{k, s}] = true
	}
	t.obj = make([][]float64, len(t.keys))
	for k := range t.obj {
		t.obj[k] = make([]float64, len(t.scheds))
		for s := range t.obj[k] {
			t.obj[k][s] = math.NaN()
		}
	}
	for _, r := range rows {
		t.obj[keyIdx[resultKey{instance: r.Instance, seed: r.Seed}]][schedIdx[r.Scheduler]] = r.Objective
	}
	return t, nil
}

type rankStats struct {
	ranked  int
	wins    []float64
	rankSum []float64
	counts  [][]int // [scheduler][competition rank − 1]
}

// ranks ranks the schedulers on every complete key (all schedulers ran).
func (t objectiveTable) ranks() rankStats {
	n := len(t.scheds)
	rs := rankStats{wins: make([]float64, n), rankSum: make([]float64, n), counts: make([][]int, n)}
	for s := range rs.counts {
		rs.counts[s] = make([]int, n)
	}
	for _, o := range t.obj {
		if slices.ContainsFunc(o, math.IsNaN) {
			continue
		}
		rs.ranked++
		mid, _ := midRanks(o)
		best := slices.Min(o)
		nBest := 0
		for _, v := range o {
			if v == best {
				nBest++
			}
		}
		for s, v := range o {
			rs.rankSum[s] += mid[s]
			if v == best {
				rs.wins[s] += 1 / float64(nBest)
			}
			comp := 0 // schedulers strictly better
			for _, w := range o {
				if w < v {
					comp++
				}
			}
			rs.counts[s][comp]++
		}
	}
	return rs
}

// MeanSD is the Stat of xs (mean and n−1 standard deviation).
func MeanSD(xs []float64) Stat { return meanSD(xs) }

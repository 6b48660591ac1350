package hydra

import (
	"context"
	"slices"
)

// SearchOptions control Hydra's multi-round min-cost search.
type SearchOptions struct {
	Options
	// Increment compares candidate (job, GPU) pairs by the increase of the
	// GPU's cost, cost(seq_k ∪ {j}) − cost(seq_k), instead of by the
	// absolute cost (the default, as Hydra's public implementation does).
	Increment bool
}

// SearchStats count the work of one search.
type SearchStats struct {
	Rounds    int // pairs committed
	Orders    int // minimum-cost orders computed
	SPT       int // of which SPT was optimal
	BB        int // of which the branch and bound ran
	Exhausted int // of which the branch and bound ran out of budget
	Swap      int // of which the swap heuristic was used (budget 0 or cheaper)
	Expanded  int // node expansions in all
}

func (s *SearchStats) add(r Result) {
	s.Orders++
	switch r.Method {
	case MethodSPT:
		s.SPT++
	case MethodSwap:
		s.Swap++
	}
	if r.Stats.Expanded > 0 || r.Method == MethodBB || r.Method == MethodBBBest {
		s.BB++
	}
	if r.Stats.Exhausted {
		s.Exhausted++
	}
	s.Expanded += r.Stats.Expanded
}

// Search is Hydra's multi-round min-cost search (SPEC §13). Every GPU
// starts with an empty planned sequence after its offset. In each round,
// for every waiting job j and every GPU k whose type j can run on,
// mincost(j, k) is the cost of the minimum-cost order of seq_k ∪ {j}
// (MinCost with the durations of k's type); the pair with the smallest
// mincost (or, with Increment, the smallest mincost(j, k) − cost(seq_k)) is
// committed with its order, ties going to the smaller job id and then the
// lower GPU index. Rounds repeat until no job waits.
//
// Only GPU k*'s sequence changes in a round, so mincost(j, k) is cached and
// recomputed only for k* after each commit: one search computes
// |J|·|K| + Σ_rounds |J_waiting| orders.
func Search(ctx context.Context, p *Problem, o SearchOptions) (Schedule, SearchStats, error) {
	var st SearchStats
	if err := p.Validate(); err != nil {
		return Schedule{}, st, err
	}
	f := o.penalty()
	nj, nk := len(p.Jobs), len(p.GPUs)
	sched := Schedule{Queues: make([][]int, nk)}
	seq := make([][]Item, nk)    // committed order per GPU
	sorted := make([][]Item, nk) // the same items in SPT order
	seqCost := make([]Cost, nk)
	index := make(map[int64]int, nj) // job id → job index
	for i, j := range p.Jobs {
		index[j.ID] = i
	}
	waiting := p.byID()
	best := make([]Cost, nj*nk)
	feasible := func(j, k int) bool { return p.Jobs[j].Dur[p.GPUs[k].Type] > 0 }
	var solver Solver
	// mincost computes the minimum-cost order of seq_k ∪ {j}.
	mincost := func(j, k int) Result {
		it := p.itemOn(j, p.GPUs[k].Type)
		base := sorted[k]
		at, _ := slices.BinarySearchFunc(base, it, sptLess)
		solver.sorted = append(append(append(solver.sorted[:0], base[:at]...), it), base[at:]...)
		r := solver.minCostSorted(p.GPUs[k].Offset, o.Options)
		st.add(r)
		return r
	}
	refresh := func(k int) error {
		for _, j := range waiting {
			if feasible(j, k) {
				best[j*nk+k] = mincost(j, k).Cost
			} else {
				best[j*nk+k] = infCost
			}
		}
		return ctx.Err()
	}
	for k := range nk {
		if err := refresh(k); err != nil {
			return Schedule{}, st, err
		}
	}
	for len(waiting) > 0 {
		bj, bk, bw := -1, -1, -1
		var bkey Cost
		for w, j := range waiting { // ascending job id: the first minimum wins ties
			for k := range nk {
				c := best[j*nk+k]
				if c == infCost {
					continue
				}
				key := c
				if o.Increment {
					key = c.Sub(seqCost[k])
				}
				if bj < 0 || key.Less(bkey, f) {
					bj, bk, bw, bkey = j, k, w, key
				}
			}
		}
		r := mincost(bj, bk)
		seq[bk], seqCost[bk] = r.Order, r.Cost
		it := p.itemOn(bj, p.GPUs[bk].Type)
		at, _ := slices.BinarySearchFunc(sorted[bk], it, sptLess)
		sorted[bk] = slices.Insert(sorted[bk], at, it)
		waiting = slices.Delete(waiting, bw, bw+1)
		st.Rounds++
		if err := refresh(bk); err != nil {
			return Schedule{}, st, err
		}
	}
	for k, q := range seq {
		for _, it := range q {
			sched.Queues[k] = append(sched.Queues[k], index[it.ID])
		}
	}
	return sched, st, nil
}

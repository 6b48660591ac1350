package hydra

import (
	"context"
	"errors"
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
// The search is lazy but exact. Every pair enters its GPU's priority queue,
// ordered by (key, job id, GPU index), first with a cheap lower bound of its
// mincost — the SPT order's Σ C_n (the least total completion time of
// those jobs) with Σ_n max(0, offset + d_n − due_n) as tardiness (no job
// can finish before offset + d_n) — or with its exact mincost when SPT
// misses no deadline (then SPT is optimal). The round looks at the
// smallest of the queues' tops: a bound there is replaced
// by the exact mincost; an exact value at the top wins the round: every
// other pair's exact value is at least its entry's key, and an equal key
// belongs to a larger (job id, GPU) pair, which loses the tie. So the
// committed pairs are exactly those of the eager search, and the branch
// and bound runs only for pairs that come near the top. Only GPU k*'s
// sequence changes in a round: its column of entries is rebuilt, the
// others stay (entries of the committed job are dropped when they reach a
// column's top).
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
	index := make(map[int64]int, nj)
	for i, j := range p.Jobs {
		index[j.ID] = i
	}
	done := make([]bool, nj)
	var solver Solver
	// load puts seq_k ∪ {j} in SPT order into the solver.
	load := func(j, k int) {
		it := p.itemOn(j, p.GPUs[k].Type)
		base := sorted[k]
		at, _ := slices.BinarySearchFunc(base, it, sptLess)
		solver.sorted = append(append(append(solver.sorted[:0], base[:at]...), it), base[at:]...)
	}
	mincost := func(j, k int, wantOrder bool) Result {
		load(j, k)
		r := solver.minCostSorted(p.GPUs[k].Offset, o.Options, wantOrder)
		st.add(r)
		return r
	}
	// One heap of entries per GPU (its column of pairs), rebuilt whenever
	// the GPU's sequence changes, so no entry is ever stale but for jobs
	// already committed elsewhere, which are dropped when they surface.
	cols := make([]pairQueue, nk)
	for k := range cols {
		cols[k].f = f
	}
	keyOf := func(c Cost, k int) Cost {
		if o.Increment {
			return c.Sub(seqCost[k])
		}
		return c
	}
	// entry is pair (j, k) with its bound, or its exact cost when SPT is
	// optimal; ok is false when j cannot run on k's type.
	entry := func(j, k int) (pairEntry, bool) {
		if p.Jobs[j].Dur[p.GPUs[k].Type] <= 0 {
			return pairEntry{}, false
		}
		load(j, k)
		off := p.GPUs[k].Offset
		spt := SequenceCost(solver.sorted, off)
		e := pairEntry{id: p.Jobs[j].ID, j: int32(j), k: int32(k)}
		if spt.Tardiness == 0 {
			st.Orders++
			st.SPT++
			e.exact, e.key = true, keyOf(spt, k)
		} else {
			var lb int64
			for _, it := range solver.sorted {
				lb += tardiness(off+it.Dur, it.Due)
			}
			e.key = keyOf(Cost{Tardiness: lb, Completion: spt.Completion}, k)
		}
		return e, true
	}
	order := p.byID()
	fill := func(k int) {
		c := &cols[k]
		c.h = c.h[:0]
		for _, j := range order {
			if done[j] {
				continue
			}
			if e, ok := entry(j, k); ok {
				c.h = append(c.h, e)
			}
		}
		c.init()
	}
	for k := range nk {
		fill(k)
	}
	for left := nj; left > 0; {
		// The smallest column top; bounds are made exact until an exact
		// value is the smallest.
		bk := -1
		for k := range cols {
			c := &cols[k]
			for len(c.h) > 0 && done[c.h[0].j] {
				c.pop()
			}
			if len(c.h) > 0 && (bk < 0 || c.less(&c.h[0], &cols[bk].h[0])) {
				bk = k
			}
		}
		if bk < 0 {
			return Schedule{}, st, errors.New("hydra search: a waiting job has no GPU (a bug)")
		}
		c := &cols[bk]
		e := &c.h[0]
		j := int(e.j)
		if !e.exact {
			r := mincost(j, bk, false)
			e.exact, e.key = true, keyOf(r.Cost, bk)
			c.down(0)
			continue
		}
		r := mincost(j, bk, true)
		seq[bk], seqCost[bk] = r.Order, r.Cost
		it := p.itemOn(j, p.GPUs[bk].Type)
		at, _ := slices.BinarySearchFunc(sorted[bk], it, sptLess)
		sorted[bk] = slices.Insert(sorted[bk], at, it)
		done[j] = true
		left--
		st.Rounds++
		fill(bk)
		if err := ctx.Err(); err != nil {
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

// pairEntry is a (job, GPU) pair in the search's queue: its key (a lower
// bound, or the exact mincost when exact), and the job id and GPU index
// that break ties.
type pairEntry struct {
	key   Cost
	id    int64
	j, k  int32
	exact bool
}

// pairQueue is a binary min-heap of pairEntry by (key, id, k): one GPU's
// column of pairs.
type pairQueue struct {
	h []pairEntry
	f int64
}

func (q *pairQueue) less(a, b *pairEntry) bool {
	if c := a.key.Compare(b.key, q.f); c != 0 {
		return c < 0
	}
	if a.id != b.id {
		return a.id < b.id
	}
	return a.k < b.k
}

// init orders the heap (Floyd's bottom-up construction).
func (q *pairQueue) init() {
	for i := len(q.h)/2 - 1; i >= 0; i-- {
		q.down(i)
	}
}

// down restores the heap below position k.
func (q *pairQueue) down(k int) {
	h := q.h
	n := len(h)
	for {
		l, r, m := 2*k+1, 2*k+2, k
		if l < n && q.less(&h[l], &h[m]) {
			m = l
		}
		if r < n && q.less(&h[r], &h[m]) {
			m = r
		}
		if m == k {
			return
		}
		h[k], h[m] = h[m], h[k]
		k = m
	}
}

// pop removes the top.
func (q *pairQueue) pop() {
	last := len(q.h) - 1
	q.h[0] = q.h[last]
	q.h = q.h[:last]
	q.down(0)
}

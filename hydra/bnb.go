package hydra

import (
	"math/bits"
	"slices"
)

// Pruning is a set of branch-and-bound prunings (a bit mask).
type Pruning uint8

// The four prunings of Hydra's branch and bound (SPEC §13).
const (
	// PredictOptimum completes a prefix with the remaining jobs in SPT
	// order; the result is a candidate incumbent and, when that completion
	// misses no deadline, the optimum of the branch, which is then closed.
	PredictOptimum Pruning = 1 << iota
	// LowerBound prunes a prefix whose cost plus the SPT completion's
	// completion-time cost (no tardiness) is not below the incumbent.
	LowerBound
	// RelativePosition keeps the jobs without a deadline in SPT order among
	// themselves: only the first unplaced one may be placed next.
	RelativePosition
	// Constraint cuts a prefix whose own cost is not below the incumbent.
	Constraint
	// AllPrunings is every pruning.
	AllPrunings = PredictOptimum | LowerBound | RelativePosition | Constraint
)

// DefaultBudget is the default number of node expansions per order search
// (hydra.budget). It keeps one scheduling operation of a 400-job batch on
// 45 GPUs well under a second on one core (docs/PERFORMANCE.md).
const DefaultBudget = 1000

// Options control one order search.
type Options struct {
	// Penalty is f, the weight of tardiness (≥ 1; 0 means DefaultPenalty).
	Penalty int64
	// Budget is the number of node expansions the branch and bound may make
	// before falling back (0 = the swap heuristic alone, as Hydra's α = 0).
	Budget int
	// Disabled lists prunings to switch off (for tests; zero = all on).
	Disabled Pruning
}

func (o Options) penalty() int64 {
	if o.Penalty <= 0 {
		return DefaultPenalty
	}
	return o.Penalty
}

func (o Options) on(p Pruning) bool { return o.Disabled&p == 0 }

// Method says how an order was obtained.
type Method uint8

const (
	MethodEmpty  Method = iota // no items
	MethodSPT                  // SPT misses no deadline: optimal
	MethodBB                   // branch and bound finished: optimal
	MethodBBBest               // budget exhausted; the best complete order found was cheaper
	MethodSwap                 // the swap heuristic (budget 0, or cheaper on exhaustion)
)

func (m Method) String() string {
	return [...]string{"empty", "spt", "bb", "bb-best", "swap"}[m]
}

// Stats count the work of one order search.
type Stats struct {
	Expanded         int // nodes expanded (the budget counts these)
	Generated        int // child prefixes built
	PredictClosed    int // branches closed by predict-optimum
	LowerBoundPruned int // prefixes pruned by the lower bound
	ConstraintCut    int // prefixes cut by the constraint pruning
	RelativeSkipped  int // children skipped by the relative-position pruning
	Exhausted        bool
}

// Result is a minimum-cost order of one GPU's jobs.
type Result struct {
	Order  []Item
	Cost   Cost
	Method Method
	Stats  Stats
}

// Solver searches minimum-cost orders. It keeps scratch buffers between
// calls, so one Solver must not be used by two goroutines at once; the zero
// value is ready to use.
type Solver struct {
	sorted []Item
	nodes  []node
	heap   []heapEntry
	used   []bool
	best   []Item
	tmp    []Item
	f      int64
}

// heapEntry is a node in the best-first queue with its ordering key
// inline: smaller lower bound (f·T + C, 128-bit), then deeper, then older.
type heapEntry struct {
	hi, lo uint64
	depth  int32
	seq    int32
	node   int32
}

func (a *heapEntry) less(b *heapEntry) bool {
	if a.hi != b.hi {
		return a.hi < b.hi
	}
	if a.lo != b.lo {
		return a.lo < b.lo
	}
	if a.depth != b.depth {
		return a.depth > b.depth
	}
	return a.seq < b.seq
}

// node is a prefix of an order: its last item (an index into sorted), its
// parent prefix, its end time and cost, and its lower bound.
type node struct {
	parent int32
	item   int32
	depth  int32
	seq    int32
	t      int64
	cost   Cost
	lb     Cost
	keyHi  uint64 // f·lb.Tardiness + lb.Completion as a 128-bit number,
	keyLo  uint64 // the heap key (both fields of a bound are ≥ 0)
}

// key128 is f·c.Tardiness + c.Completion for non-negative fields.
func key128(c Cost, f int64) (hi, lo uint64) {
	hi, lo = bits.Mul64(uint64(f), uint64(c.Tardiness))
	var carry uint64
	lo, carry = bits.Add64(lo, uint64(c.Completion), 0)
	return hi + carry, lo
}

// MinCost returns a minimum-cost order of items on a GPU free offset
// seconds after the operation time (SPEC §13):
//
//  1. if SPT order misses no deadline it is optimal (Σ C_n is minimised by
//     SPT and no tardiness is possible below 0);
//  2. with Budget 0 the swap heuristic is used alone;
//  3. otherwise a best-first branch and bound over order prefixes (smallest
//     lower bound first, then deeper, then older) with the prunings of
//     Options; if it exhausts the budget, the cheaper of the best complete
//     order found and the swap heuristic's order is used (the heuristic on
//     a tie).
//
// The returned Order is a fresh slice.
func (s *Solver) MinCost(items []Item, offset int64, o Options) Result {
	s.sorted = append(s.sorted[:0], items...)
	slices.SortFunc(s.sorted, sptLess)
	return s.minCostSorted(offset, o, true)
}

// minCostSorted is MinCost on s.sorted, already in SPT order. Without
// wantOrder, Result.Order is left nil (the search then only needs costs,
// and allocates nothing).
func (s *Solver) minCostSorted(offset int64, o Options, wantOrder bool) Result {
	n := len(s.sorted)
	if n == 0 {
		return Result{Method: MethodEmpty}
	}
	s.f = o.penalty()
	spt := SequenceCost(s.sorted, offset)
	if spt.Tardiness == 0 {
		return Result{Order: s.orderOf(s.sorted, wantOrder), Cost: spt, Method: MethodSPT}
	}
	if o.Budget <= 0 {
		swap := s.swapScratch(offset)
		return Result{Order: s.orderOf(swap, wantOrder), Cost: SequenceCost(swap, offset), Method: MethodSwap}
	}
	res := s.branchAndBound(offset, o)
	if !res.Stats.Exhausted {
		res.Order = s.orderOf(res.Order, wantOrder)
		return res
	}
	swap := s.swapScratch(offset)
	if sc := SequenceCost(swap, offset); res.Order == nil || !res.Cost.Less(sc, s.f) {
		res.Order, res.Cost, res.Method = swap, sc, MethodSwap
	} else {
		res.Method = MethodBBBest
	}
	res.Order = s.orderOf(res.Order, wantOrder)
	return res
}

// swapScratch is the swap heuristic's order of s.sorted, in a scratch
// buffer valid until the next call.
func (s *Solver) swapScratch(offset int64) []Item {
	s.tmp = append(s.tmp[:0], s.sorted...)
	return swapSorted(s.tmp, offset, nil)
}

// orderOf returns a fresh copy of order when wanted, else nil.
func (s *Solver) orderOf(order []Item, want bool) []Item {
	if !want || order == nil {
		return nil
	}
	return append([]Item(nil), order...)
}

func (s *Solver) push(i int32) {
	nd := &s.nodes[i]
	s.heap = append(s.heap, heapEntry{hi: nd.keyHi, lo: nd.keyLo, depth: nd.depth, seq: nd.seq, node: i})
	h := s.heap
	k := len(h) - 1
	for k > 0 {
		p := (k - 1) / 2
		if !h[k].less(&h[p]) {
			break
		}
		h[k], h[p] = h[p], h[k]
		k = p
	}
}

func (s *Solver) pop() int32 {
	h := s.heap
	top := h[0].node
	last := len(h) - 1
	h[0] = h[last]
	h = h[:last]
	s.heap = h
	k := 0
	for {
		l, r, m := 2*k+1, 2*k+2, k
		if l < last && h[l].less(&h[m]) {
			m = l
		}
		if r < last && h[r].less(&h[m]) {
			m = r
		}
		if m == k {
			break
		}
		h[k], h[m] = h[m], h[k]
		k = m
	}
	return top
}

// markPrefix sets s.used for the items of prefix i (and clears the rest).
func (s *Solver) markPrefix(i int32) {
	clear(s.used)
	for ; i > 0; i = s.nodes[i].parent {
		s.used[s.nodes[i].item] = true
	}
}

// prefixInto writes prefix i's items into dst[:depth] in order.
func (s *Solver) prefixInto(dst []Item, i int32) {
	for ; i > 0; i = s.nodes[i].parent {
		dst[s.nodes[i].depth-1] = s.sorted[s.nodes[i].item]
	}
}

// branchAndBound is the best-first search of MinCost step 3. The root node
// (index 0) is the empty prefix.
func (s *Solver) branchAndBound(offset int64, o Options) Result {
	n := len(s.sorted)
	f := s.f
	var st Stats
	s.nodes = append(s.nodes[:0], node{parent: -1, item: -1, t: offset})
	s.heap = s.heap[:0]
	s.used = slices.Grow(s.used[:0], n)[:n]
	clear(s.used)
	s.best = slices.Grow(s.best[:0], n)[:n]
	incumbent, have := infCost, false
	// restOf computes the SPT completion of the unused items after time t:
	// its Σ C and Σ tardiness.
	restOf := func(t int64) Cost {
		var c Cost
		for k, it := range s.sorted {
			if s.used[k] {
				continue
			}
			t += it.Dur
			c.Completion += t
			c.Tardiness += tardiness(t, it.Due)
		}
		return c
	}
	// setIncumbent records prefix i followed by the unused items in SPT order.
	setIncumbent := func(i int32, c Cost) {
		incumbent, have = c, true
		d := s.nodes[i].depth
		s.prefixInto(s.best, i)
		for k, it := range s.sorted {
			if !s.used[k] {
				s.best[d] = it
				d++
			}
		}
	}
	// The root: its SPT completion is SPT order itself.
	root := restOf(offset)
	s.nodes[0].lb = Cost{Completion: root.Completion}
	s.nodes[0].keyHi, s.nodes[0].keyLo = key128(s.nodes[0].lb, f)
	if o.on(PredictOptimum) {
		setIncumbent(0, root)
	}
	s.push(0)
	var seq int32
	for len(s.heap) > 0 {
		i := s.pop()
		nd := s.nodes[i]
		if o.on(LowerBound) && have && !nd.lb.Less(incumbent, f) {
			st.LowerBoundPruned++
			continue
		}
		if o.on(Constraint) && have && i != 0 && !nd.cost.Less(incumbent, f) {
			st.ConstraintCut++
			continue
		}
		if st.Expanded >= o.Budget {
			st.Exhausted = true
			break
		}
		st.Expanded++
		s.markPrefix(i)
		firstFree := -1 // the first unused item without a deadline (SPT order)
		for k, it := range s.sorted {
			if !s.used[k] && !it.HasDue() {
				firstFree = k
				break
			}
		}
		for k, it := range s.sorted {
			if s.used[k] {
				continue
			}
			if o.on(RelativePosition) && !it.HasDue() && k != firstFree {
				st.RelativeSkipped++
				continue
			}
			st.Generated++
			t := nd.t + it.Dur
			c := nd.cost.Add(Cost{Tardiness: tardiness(t, it.Due), Completion: t})
			if o.on(Constraint) && have && !c.Less(incumbent, f) {
				st.ConstraintCut++
				continue
			}
			depth := nd.depth + 1
			s.nodes = append(s.nodes, node{parent: i, item: int32(k), depth: depth, t: t, cost: c})
			ci := int32(len(s.nodes) - 1)
			s.used[k] = true
			if int(depth) == n {
				if !have || c.Less(incumbent, f) {
					setIncumbent(ci, c)
				}
				s.used[k] = false
				continue
			}
			rest := restOf(t)
			if o.on(PredictOptimum) {
				ub := c.Add(rest)
				if !have || ub.Less(incumbent, f) {
					setIncumbent(ci, ub)
				}
				if rest.Tardiness == 0 {
					st.PredictClosed++
					s.used[k] = false
					continue
				}
			}
			s.used[k] = false
			lb := c.Add(Cost{Completion: rest.Completion})
			if o.on(LowerBound) && have && !lb.Less(incumbent, f) {
				st.LowerBoundPruned++
				continue
			}
			seq++
			s.nodes[ci].lb, s.nodes[ci].seq = lb, seq
			s.nodes[ci].keyHi, s.nodes[ci].keyLo = key128(lb, f)
			s.push(ci)
		}
	}
	res := Result{Stats: st, Method: MethodBB}
	if have {
		res.Order, res.Cost = s.best, incumbent // copied by minCostSorted
	}
	return res
}

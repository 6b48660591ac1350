package simcore

import (
	"slices"
	"sort"
)

// Ranking a queue only as far as the plan reads it.
//
// A plan that stops at the horizon (horizon.go) reads its queue in rank
// order only up to its stop, and the last plan is compared with the new
// ranking only over the jobs it placed. So a lazy planner first selects
// the M first jobs of the ranking key order, with M twice the last plan's
// placed count plus a margin, and sorts only those; the rest keep their
// last order and are sorted (pdqsort, close to one pass on a queue left
// nearly in order) only if the plan, a what-if or a comparison reads past
// M (rankTo). The selection is one pass with a bounded max-heap: on a
// queue left nearly in order most jobs are turned away by one comparison
// with the heap's top.
//
// p.jobs[:sortedN] are the first sortedN jobs of the ranking, in order,
// and p.sel.ranked[i] is p.jobs[i]'s packed key; p.jobs stays a permutation
// of the cluster's jobs throughout. The order is sortRanked's total order
// ((key bits, arrival position) has no ties), so every prefix is exactly
// the full sort's (TestRankToMatchesSort; the lazy-plan tests compare
// whole simulations).

// rankMargin is added to twice the last plan's placed count to choose how
// many jobs a lazy planner selects and sorts first.
const rankMargin = 64

// rankInit packs the cluster's keys and ranks the queue: fully for a
// planner that does not stop early or a short queue, otherwise its first
// M jobs (see the comment above).
func (p *planner) rankInit() {
	s := p.s
	n := len(p.jobs)
	m := 2*p.placed() + rankMargin // the last plan's placed count
	if !p.lz.lazy || 2*m >= n {
		s.sortRanked(p.jobs, &p.sel.ranked)
		p.sel.sortedN = n
		return
	}
	e := slices.Grow(p.sel.ranked[:0], n)
	h := p.sel.heap[:0] // max-heap of the m smallest entries so far
	inOrder := true
	for _, j := range p.jobs {
		x := rankEntry{k: KeyBits(s.key[j]), pos: s.pos[j], j: int32(j)}
		if k := len(e); k > 0 && cmpRankEntry(x, e[k-1]) < 0 {
			inOrder = false
		}
		e = append(e, x)
		switch {
		case len(h) < m:
			h = append(h, x)
			heapUp(h, len(h)-1)
		case cmpRankEntry(x, h[0]) < 0:
			h[0] = x
			heapDown(h)
		}
	}
	p.sel.heap = h
	if inOrder {
		p.sel.ranked, p.sel.sortedN = e, n
		return
	}
	slices.SortFunc(h, cmpRankEntry)
	if len(p.sel.chosen) < len(s.inst.Jobs) {
		p.sel.chosen = make([]uint32, len(s.inst.Jobs))
	}
	p.sel.chosenGen++
	if p.sel.chosenGen == 0 {
		clear(p.sel.chosen)
		p.sel.chosenGen = 1
	}
	for _, x := range h {
		p.sel.chosen[x.j] = p.sel.chosenGen
	}
	// jobs: the selected in order, then the rest in their last order
	// (compacted in e, behind which the selected then go in front).
	rest := e[:0]
	for _, x := range e {
		if p.sel.chosen[x.j] != p.sel.chosenGen {
			rest = append(rest, x)
		}
	}
	ranked := slices.Grow(rest, len(h))[:len(rest)+len(h)]
	copy(ranked[len(h):], ranked[:len(rest)])
	copy(ranked, h)
	for i, x := range ranked {
		p.jobs[i] = int(x.j)
	}
	p.sel.ranked, p.sel.sortedN = ranked, len(h)
}

// heapUp and heapDown keep h a max-heap in the ranking order.
func heapUp(h []rankEntry, i int) {
	for i > 0 {
		parent := (i - 1) / 2
		if cmpRankEntry(h[i], h[parent]) <= 0 {
			return
		}
		h[i], h[parent] = h[parent], h[i]
		i = parent
	}
}

func heapDown(h []rankEntry) {
	i, n := 0, len(h)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		big := l
		if r := l + 1; r < n && cmpRankEntry(h[r], h[l]) > 0 {
			big = r
		}
		if cmpRankEntry(h[big], h[i]) <= 0 {
			return
		}
		h[i], h[big] = h[big], h[i]
		i = big
	}
}

// rankTo orders p.jobs so that its first min(k, len) jobs are the
// ranking's first, in order: past the selected prefix it sorts the rest.
func (p *planner) rankTo(k int) {
	n := len(p.jobs)
	if min(k, n) <= p.sel.sortedN {
		return
	}
	rest := p.sel.ranked[p.sel.sortedN:]
	slices.SortFunc(rest, cmpRankEntry)
	for i, x := range rest {
		p.jobs[p.sel.sortedN+i] = int(x.j)
	}
	p.sel.sortedN = n
}

// rankOf is the number of the cluster's jobs that rank before job j (not
// one of them): j's position if it were added. It compares current keys
// (a plan kept by reuse holds the order but not the keys it was sorted
// on).
func (p *planner) rankOf(j int) int {
	s := p.s
	n := p.sel.sortedN
	if n == len(p.jobs) || (n > 0 && s.rankLess(j, p.jobs[n-1])) {
		return sort.Search(n, func(i int) bool { return s.rankLess(j, p.jobs[i]) })
	}
	k := n
	for _, o := range p.jobs[n:] {
		if s.rankLess(o, j) {
			k++
		}
	}
	return k
}

// rankSelection is the lazy ranking's state: the packed keys of a
// cluster's jobs in their current order, how many of them are sorted, and
// the selection's scratch.
type rankSelection struct {
	ranked    []rankEntry // packed keys of jobs, in its order
	sortedN   int         // jobs[:sortedN] are the first of the rank order, in order
	heap      []rankEntry // scratch of rankInit's selection
	chosen    []uint32    // chosen[j] == chosenGen: j is among the selected
	chosenGen uint32
}

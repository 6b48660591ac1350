package simcore

import (
	"slices"
	"sort"
)

// Ranking a queue only as far as the plan reads it.
//
// A plan that stops at the horizon (horizon.go) reads its queue in rank
// order only up to where it stops, and the last plan is compared with the
// new ranking only over the jobs it placed. So a lazy planner does not
// sort its whole queue: it orders it incrementally (incremental quicksort,
// Paredes and Navarro 2006). p.jobs[:sortedN] are the sortedN first jobs
// of the ranking key order, in that order; the rest are partitioned
// around pivots already in their final places (the positions on
// p.pivots, the smallest on top), so the next job in order is found by
// partitioning only the segment before the nearest pivot. Reading the
// first m of q jobs costs O(q + m log m) expected instead of O(q log q),
// and asking for a long prefix sorts its segment at once (pdqsort, fast on
// a queue left nearly in order by the last operation). p.jobs stays a
// permutation of the cluster's jobs throughout (each step rewrites the
// segment it reorders), and p.ranked[i] is p.jobs[i]'s packed key.
//
// The order is the same total order as sortRanked's ((key bits,
// arrival position) has no ties), so every prefix is exactly the full
// sort's (TestRankToMatchesSort; the lazy-plan tests compare whole
// simulations).

// rankInit packs the cluster's keys and, for a planner that does not stop
// early, sorts the queue; a lazy one only notes whether the queue is
// already in order.
func (p *planner) rankInit() {
	s := p.s
	if !p.lazy {
		s.sortRanked(p.jobs, &p.ranked)
		p.sortedN = len(p.jobs)
		return
	}
	e := slices.Grow(p.ranked[:0], len(p.jobs))
	inOrder := true
	for _, j := range p.jobs {
		x := rankEntry{k: keyBits(s.key[j]), pos: s.pos[j], j: int32(j)}
		if n := len(e); n > 0 && cmpRankEntry(x, e[n-1]) < 0 {
			inOrder = false
		}
		e = append(e, x)
	}
	p.ranked = e
	p.pivots = append(p.pivots[:0], int32(len(e)))
	p.sortedN = 0
	if inOrder {
		p.sortedN = len(e)
	}
}

// rankSortAll is the segment length from which rankTo sorts a whole
// segment rather than partitioning it.
const rankSortAll = 32

// rankTo orders p.jobs so that its first min(k, len) jobs are the
// ranking's first, in order.
func (p *planner) rankTo(k int) {
	n := len(p.jobs)
	k = min(k, n)
	e := p.ranked
	for p.sortedN < k {
		idx := p.sortedN
		top := int(p.pivots[len(p.pivots)-1])
		if top == idx { // a pivot in its final place
			p.pivots = p.pivots[:len(p.pivots)-1]
			p.sortedN++
			continue
		}
		seg := e[idx:top]
		if len(seg) <= rankSortAll || k >= top {
			slices.SortFunc(seg, cmpRankEntry)
			for i := idx; i < top; i++ {
				p.jobs[i] = int(e[i].j)
			}
			p.sortedN = top
			if top == n {
				p.pivots = p.pivots[:len(p.pivots)-1]
			}
			continue
		}
		at := idx + partitionRanked(seg)
		for i := idx; i < top; i++ {
			p.jobs[i] = int(e[i].j)
		}
		p.pivots = append(p.pivots, int32(at))
	}
}

// partitionRanked partitions seg (len ≥ 3, distinct entries) around the
// median of its first, middle and last entries and returns the pivot's
// final index: every entry before it is smaller, every one after larger.
func partitionRanked(seg []rankEntry) int {
	last := len(seg) - 1
	mid := last / 2
	// Median of three to seg[last].
	if cmpRankEntry(seg[mid], seg[0]) < 0 {
		seg[mid], seg[0] = seg[0], seg[mid]
	}
	if cmpRankEntry(seg[last], seg[0]) < 0 {
		seg[last], seg[0] = seg[0], seg[last]
	}
	if cmpRankEntry(seg[mid], seg[last]) < 0 {
		seg[mid], seg[last] = seg[last], seg[mid]
	}
	pivot := seg[last]
	i := 0
	for j := range last {
		if cmpRankEntry(seg[j], pivot) < 0 {
			seg[i], seg[j] = seg[j], seg[i]
			i++
		}
	}
	seg[i], seg[last] = seg[last], seg[i]
	return i
}

// rankOf is the number of the cluster's jobs that rank before job j (not
// one of them): j's position if it were added. It compares current keys
// (a plan kept by reuse holds the order but not the keys it was sorted
// on).
func (p *planner) rankOf(j int) int {
	s := p.s
	n := p.sortedN
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

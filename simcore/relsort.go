package simcore

import (
	"cmp"
	"math/bits"
	"slices"
)

// Sorting a batch of releases by time before it is merged into a release
// list (flushKept's kept occupations, finishIfAdded's plan prefix).
//
// The profiles of the overloaded MCT benchmarks show the comparison sort
// of these batches at 3 % (10k jobs) to 10 % (liquid, 20k jobs) of the
// time: a splice that keeps the tail of a long queue flushes hundreds of
// releases at once. sortReleases sorts large batches by an LSD radix sort
// on at − min(at) (11-bit digits, at most three passes), which is linear.
//
// Why exact: both sorts order the batch by at; they may differ only in the
// order of releases with equal at (pdqsort is not stable either). No reader
// of a release list depends on that order: every sweep (earliest,
// earliestShift, the start cache, the horizon's and splice's σ snapshots,
// advance, loadLevels) adds all releases of one time before it looks at
// the count or the per-node free capacity, and rewind matches releases by
// value (time, node, GPUs), taking any one of equal ones. So the same
// multiset of releases per time gives the same σ(·, τ) at every τ, hence
// the same starts and placements. The oracle: TestReleaseSortIsExact runs
// whole simulations with testHooks.refReleaseSort (the comparison sort
// everywhere) against the default, and TestSortReleasesOrdersByTime
// checks the sort itself on random batches.

// relRadixMin is the batch size from which the radix sort is used; below
// it the comparison sort is cheaper than the digit counts.
const relRadixMin = 96

// relDigit is the radix sort's digit width in bits.
const relDigit = 11

// sortReleases sorts rs by time, using *tmp as scratch, and reports
// whether it took the radix sort. ref selects the comparison sort (the
// reference the radix sort is tested against).
func sortReleases(rs []release, tmp *[]release, ref bool) bool {
	if ref || len(rs) < relRadixMin {
		slices.SortFunc(rs, func(a, b release) int { return cmp.Compare(a.at, b.at) })
		return false
	}
	lo, hi := rs[0].at, rs[0].at
	sorted := true
	for i := 1; i < len(rs); i++ {
		at := rs[i].at
		if at < rs[i-1].at {
			sorted = false
		}
		lo, hi = min(lo, at), max(hi, at)
	}
	if sorted {
		return true
	}
	span := uint64(hi - lo) // hi ≥ lo; simulation times are far from overflow
	width := bits.Len64(span)
	if width > 3*relDigit {
		slices.SortFunc(rs, func(a, b release) int { return cmp.Compare(a.at, b.at) })
		return false
	}
	*tmp = slices.Grow((*tmp)[:0], len(rs))[:len(rs)]
	src, dst := rs, *tmp
	var count [1 << relDigit]int
	for shift := 0; shift < width; shift += relDigit {
		clear(count[:])
		for _, r := range src {
			count[(uint64(r.at-lo)>>shift)&(1<<relDigit-1)]++
		}
		pos := 0
		for d, c := range count {
			count[d] = pos
			pos += c
		}
		for _, r := range src {
			d := (uint64(r.at-lo) >> shift) & (1<<relDigit - 1)
			dst[count[d]] = r
			count[d]++
		}
		src, dst = dst, src
	}
	if &src[0] != &rs[0] {
		copy(rs, src)
	}
	return true
}

// countRadix counts a radix sort of one of the simulation's own planners
// (EVO's what-if planners may run on several goroutines).
func (p *planner) countRadix(radix bool) {
	if st := p.s.hooks.stats; radix && st != nil && p.s.clusters[p.index] == p {
		st.RadixSorts++
	}
}

package simcore

import "math/bits"

// numpySmallSort bounds the partitions numpy's introsort still
// partitions: a range lo..hi is partitioned while hi − lo > 15 (more than
// 16 elements), else finished by insertion sort.
const numpySmallSort = 15

// NumpyQuicksortArgsort returns the permutation that numpy's
// argsort(kind="quicksort") returns for keys (numpy ≤ 1.24, 64-bit
// integer keys, no SIMD dispatch): an introsort that partitions around
// the median of the first, middle and last elements, finishes ranges
// of ≤ 16 elements by insertion sort, pushes the larger side on an
// explicit stack and goes on with the smaller, and switches to heapsort
// after 2·⌊log2 n⌋ partitioning levels. It is not stable: equal keys come
// out in the order those swaps leave them, which is what a peer that
// sorts with it sees. Checked against hand-traced cases in the tests and,
// end to end, against the Helios simulator's per-VC figures on the Philly
// window (TestHeliosStrictFIFOPhillyWindow).
func NumpyQuicksortArgsort(keys []int64) []int {
	n := len(keys)
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	if n < 2 {
		return idx
	}
	less := func(a, b int) bool { return keys[a] < keys[b] }
	type span struct{ lo, hi, depth int }
	var stack []span
	lo, hi := 0, n-1
	depth := 2 * (bits.Len(uint(n)) - 1)
	for {
		if depth < 0 {
			numpyHeapsort(idx[lo:hi+1], less)
		} else {
			for hi-lo > numpySmallSort {
				mid := lo + (hi-lo)>>1
				if less(idx[mid], idx[lo]) {
					idx[mid], idx[lo] = idx[lo], idx[mid]
				}
				if less(idx[hi], idx[mid]) {
					idx[hi], idx[mid] = idx[mid], idx[hi]
				}
				if less(idx[mid], idx[lo]) {
					idx[mid], idx[lo] = idx[lo], idx[mid]
				}
				pivot := keys[idx[mid]]
				i, j := lo, hi-1
				idx[mid], idx[j] = idx[j], idx[mid]
				for {
					i++
					for keys[idx[i]] < pivot {
						i++
					}
					j--
					for pivot < keys[idx[j]] {
						j--
					}
					if i >= j {
						break
					}
					idx[i], idx[j] = idx[j], idx[i]
				}
				idx[i], idx[hi-1] = idx[hi-1], idx[i]
				depth--
				if i-lo < hi-i { // the larger side waits on the stack
					stack = append(stack, span{i + 1, hi, depth})
					hi = i - 1
				} else {
					stack = append(stack, span{lo, i - 1, depth})
					lo = i + 1
				}
			}
			for i := lo + 1; i <= hi; i++ {
				v := idx[i]
				j := i
				for j > lo && keys[v] < keys[idx[j-1]] {
					idx[j] = idx[j-1]
					j--
				}
				idx[j] = v
			}
		}
		if len(stack) == 0 {
			return idx
		}
		top := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		lo, hi, depth = top.lo, top.hi, top.depth
	}
}

// numpyHeapsort is numpy's heapsort of a (1-based sift-down, max-heap).
func numpyHeapsort(a []int, less func(a, b int) bool) {
	n := len(a)
	at := func(i int) *int { return &a[i-1] }
	sift := func(l, n int) {
		tmp := *at(l)
		i, j := l, l<<1
		for j <= n {
			if j < n && less(*at(j), *at(j + 1)) {
				j++
			}
			if less(tmp, *at(j)) {
				*at(i) = *at(j)
				i = j
				j += j
			} else {
				break
			}
		}
		*at(i) = tmp
	}
	for l := n >> 1; l > 0; l-- {
		sift(l, n)
	}
	for n > 1 {
		tmp := *at(n)
		*at(n) = *at(1)
		n--
		// sift tmp down from the root
		i, j := 1, 2
		for j <= n {
			if j < n && less(*at(j), *at(j + 1)) {
				j++
			}
			if less(tmp, *at(j)) {
				*at(i) = *at(j)
				i = j
				j += j
			} else {
				break
			}
		}
		*at(i) = tmp
	}
}

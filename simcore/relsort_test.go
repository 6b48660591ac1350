package simcore

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortReleasesOrdersByTime: on random batches (sizes around the radix
// threshold and above, time spans of one to three digits and beyond, many
// ties, already sorted input) sortReleases leaves a permutation of its
// input sorted by time, and the radix path is taken where it should be.
func TestSortReleasesOrdersByTime(t *testing.T) {
	rng := rand.New(rand.NewPCG(28, 3))
	var tmp []release
	radix := 0
	for trial := range 3000 {
		n := rng.IntN(4 * relRadixMin)
		span := int64(1) << rng.IntN(40) // up to 2^39: some batches fall back
		base := rng.Int64N(1 << 40)
		rs := make([]release, n)
		for i := range rs {
			rs[i] = release{at: base + rng.Int64N(span), node: int32(rng.IntN(100)), gpus: int32(1 + rng.IntN(8))}
		}
		if trial%10 == 0 {
			slices.SortFunc(rs, func(a, b release) int { return cmpInt64(a.at, b.at) })
		}
		want := slices.Clone(rs)
		byValue := func(a, b release) int {
			if c := cmpInt64(a.at, b.at); c != 0 {
				return c
			}
			if a.node != b.node {
				return int(a.node - b.node)
			}
			return int(a.gpus - b.gpus)
		}
		slices.SortFunc(want, byValue)
		if sortReleases(rs, &tmp, false) {
			radix++
		}
		if !slices.IsSortedFunc(rs, func(a, b release) int { return cmpInt64(a.at, b.at) }) {
			t.Fatalf("trial %d (n=%d, span=%d): not sorted by time", trial, n, span)
		}
		got := slices.Clone(rs)
		slices.SortFunc(got, byValue)
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d (n=%d, span=%d): not a permutation of the input", trial, n, span)
		}
	}
	if radix == 0 {
		t.Fatal("the radix sort was never taken")
	}
}

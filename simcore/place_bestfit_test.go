package simcore

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// bestFitOneByOne is BestFit's definition: each worker in turn goes to the
// node of least free capacity that still holds it (ties → lowest index).
func bestFitOneByOne(free []int, w, r int, place []int) {
	for range r {
		best := -1
		for n, f := range free {
			if f >= w && (best < 0 || f < free[best]) {
				best = n
			}
		}
		if best < 0 {
			return
		}
		free[best] -= w
		place[best]++
	}
}

// TestBestFitMatchesDefinition: Place (one scan per distinct free value,
// one scan in all for a single worker) equals placing worker by worker, on
// random free vectors, worker sizes and counts, negative free values
// (over-reserved nodes under Eq. 13) included.
func TestBestFitMatchesDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 9))
	for range 20000 {
		n := 1 + rng.IntN(12)
		free := make([]int, n)
		for i := range free {
			free[i] = rng.IntN(11) - 2
		}
		w := []int{1, 2, 3, 4, 8}[rng.IntN(5)]
		r := 1 + rng.IntN(4)
		got, want := slices.Clone(free), slices.Clone(free)
		gp, wp := make([]int, n), make([]int, n)
		BestFit{}.Place(got, w, r, gp)
		bestFitOneByOne(want, w, r, wp)
		if !slices.Equal(gp, wp) || !slices.Equal(got, want) {
			t.Fatalf("free %v w=%d r=%d: placed %v, want %v", free, w, r, gp, wp)
		}
	}
}

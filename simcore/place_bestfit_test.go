package simcore

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func TestBestFitByHand(t *testing.T) {
	for _, c := range []struct {
		free      []int
		w, r      int
		wantPlace []int
		wantFree  []int
	}{
		// The tightest node that holds a worker first, then the next.
		{[]int{8, 3, 1, 2}, 2, 2, []int{0, 1, 0, 1}, []int{8, 1, 1, 0}},
		// Ties go to the lowest index; a node is filled before the next.
		{[]int{4, 4, 4}, 1, 5, []int{4, 1, 0}, []int{0, 3, 4}},
		// Exactly w free is the best possible node.
		{[]int{8, 1, 5, 1}, 1, 1, []int{0, 1, 0, 0}, []int{8, 0, 5, 1}},
		// Whole-node workers skip every partly used node.
		{[]int{7, 8, 8}, 8, 2, []int{0, 1, 1}, []int{7, 0, 0}},
		// Not enough room: place what fits.
		{[]int{3, 2}, 2, 3, []int{1, 1}, []int{1, 0}},
	} {
		free := slices.Clone(c.free)
		place := make([]int, len(free))
		BestFit{}.Place(free, c.w, c.r, place)
		if !slices.Equal(place, c.wantPlace) || !slices.Equal(free, c.wantFree) {
			t.Errorf("free %v, %d × %d GPUs: place %v free %v, want %v %v", c.free, c.r, c.w, place, free, c.wantPlace, c.wantFree)
		}
	}
}

// TestBestFitMatchesOneByOne: the node-at-a-time placement equals the
// worker-at-a-time definition (bestFitReference, simulate_test.go) on
// random capacities, negative (over-reserved) values and worker sizes that
// are not powers of two included.
func TestBestFitMatchesOneByOne(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	for i := range 20000 {
		nodes := 1 + rng.IntN(20)
		g := []int{1, 2, 4, 8, 16}[rng.IntN(5)]
		w := 1 << rng.IntN(5)
		if rng.IntN(4) == 0 {
			w = 1 + rng.IntN(g) // not a power of two
		}
		free := make([]int, nodes)
		for n := range free {
			free[n] = rng.IntN(g+1) - rng.IntN(2) // a few negative (overbooked) values
		}
		r := 1 + rng.IntN(nodes*g/max(w, 1)+1)
		a, b := slices.Clone(free), slices.Clone(free)
		pa, pb := make([]int, nodes), make([]int, nodes)
		BestFit{}.Place(a, w, r, pa)
		bestFitReference(b, w, r, pb)
		if !slices.Equal(pa, pb) || !slices.Equal(a, b) {
			t.Fatalf("case %d: free %v, %d × %d GPUs: place %v free %v, one by one %v %v", i, free, r, w, pa, a, pb, b)
		}
	}
}

// PickOne chooses the node of Place with one worker, for both placers, and
// leaves free as it was, on random free vectors (some nodes overcommitted,
// some with no room).
func TestPlaceOneMatchesPlace(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for _, pl := range []Placer{BestFit{}, RoundRobin{}} {
		one := pl.(OnePlacer)
		for range 5000 {
			n := 1 + rng.IntN(12)
			free := make([]int, n)
			for i := range free {
				free[i] = rng.IntN(11) - 2
			}
			w := []int{1, 2, 3, 4, 8}[rng.IntN(5)]
			a := slices.Clone(free)
			place := make([]int, n)
			pl.Place(a, w, 1, place)
			b := slices.Clone(free)
			got := one.PickOne(b, w)
			want := slices.IndexFunc(place, func(k int) bool { return k > 0 })
			if got != want || !slices.Equal(b, free) {
				t.Fatalf("%T free %v w %d: PickOne %d (free now %v), Place %d", pl, free, w, got, b, want)
			}
		}
	}
}

package pareto

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestDominates(t *testing.T) {
	for _, c := range []struct {
		a, b []float64
		want bool
	}{
		{[]float64{1, 2}, []float64{2, 2}, true},
		{[]float64{1, 2}, []float64{1, 2}, false}, // equal: neither
		{[]float64{1, 3}, []float64{2, 2}, false},
		{[]float64{1, 2, 3}, []float64{1, 2, 4}, true},
		{[]float64{1, 2}, []float64{1, math.NaN()}, true}, // NaN is worst
		{[]float64{math.NaN(), 2}, []float64{1, 2}, false},
	} {
		if got := Dominates(c.a, c.b); got != c.want {
			t.Errorf("Dominates(%v, %v) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

// A hand case with a duplicate (E = B) and a chain of fronts.
func TestRanksAndCrowdingByHand(t *testing.T) {
	pts := [][]float64{
		{1, 5}, // A
		{2, 3}, // B
		{4, 1}, // C
		{3, 4}, // D: dominated by B
		{2, 3}, // E: B's duplicate
		{5, 5}, // F: dominated by A, B, C, D, E
	}
	if got, want := Ranks(pts), []int{0, 0, 0, 1, 0, 2}; !slices.Equal(got, want) {
		t.Fatalf("Ranks = %v, want %v", got, want)
	}
	if got, want := NonDominated(pts), []int{0, 1, 2, 4}; !slices.Equal(got, want) {
		t.Fatalf("NonDominated = %v, want %v", got, want)
	}
	// Front A, B, C, E. Objective 1 sorted A1 B2 E2 C4 (range 3): B gets
	// (2−1)/3, E (4−2)/3. Objective 2 sorted C1 B3 E3 A5 (range 4): B gets
	// (3−1)/4, E (5−3)/4. A and C are extremes.
	got := Crowding(pts, []int{0, 1, 2, 4})
	want := []float64{math.Inf(1), 1.0/3 + 0.5, math.Inf(1), 2.0/3 + 0.5}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-12 && got[i] != want[i] {
			t.Errorf("crowding[%d] = %v, want %v", i, got[i], want[i])
		}
	}
	// A front equal on one objective: that objective adds nothing.
	flat := [][]float64{{1, 1}, {1, 2}, {1, 3}}
	if got := Crowding(flat, []int{0, 1, 2}); !(math.IsInf(got[0], 1) && got[1] == 1 && math.IsInf(got[2], 1)) {
		t.Errorf("crowding of a front flat in objective 1 = %v, want [+Inf 1 +Inf]", got)
	}
	// All duplicates: no extremes anywhere, every distance 0.
	dup := [][]float64{{2, 2}, {2, 2}, {2, 2}}
	if got := Crowding(dup, []int{0, 1, 2}); !slices.Equal(got, []float64{0, 0, 0}) {
		t.Errorf("crowding of duplicates = %v, want zeros", got)
	}
	// Survival of 4: rank 0 has four members (A, B, C, E) and fits.
	if got := Survivors(pts, make([]uint64, len(pts)), 4); !sameSet(got, []int{0, 1, 2, 4}) {
		t.Errorf("Survivors(4) = %v, want the first front", got)
	}
	// Survival of 3: the first front is cut by crowding: A, C (+Inf), then E (7/6 > 5/6).
	if got := Survivors(pts, make([]uint64, len(pts)), 3); !slices.Equal(got, []int{0, 2, 4}) {
		t.Errorf("Survivors(3) = %v, want [0 2 4]", got)
	}
	// Survival of 5 adds D (rank 1).
	if got := Survivors(pts, make([]uint64, len(pts)), 5); got[4] != 3 {
		t.Errorf("Survivors(5) = %v, want D (3) last", got)
	}
}

func sameSet(a, b []int) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// Ranks against the definition on random points with many ties: a member
// of rank r is dominated by some member of rank r−1 and by none of rank ≥ r.
func TestRanksInvariant(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 200 {
		m := 2 + trial%2
		pts := make([][]float64, 1+rng.IntN(40))
		for i := range pts {
			pts[i] = make([]float64, m)
			for k := range pts[i] {
				pts[i][k] = float64(rng.IntN(5))
			}
		}
		rank := Ranks(pts)
		for i := range pts {
			hasPrev := rank[i] == 0
			for j := range pts {
				if Dominates(pts[j], pts[i]) {
					if rank[j] >= rank[i] {
						t.Fatalf("trial %d: %v (rank %d) is dominated by %v (rank %d)", trial, pts[i], rank[i], pts[j], rank[j])
					}
					if rank[j] == rank[i]-1 {
						hasPrev = true
					}
				}
			}
			if !hasPrev {
				t.Fatalf("trial %d: %v has rank %d but no dominator of rank %d", trial, pts[i], rank[i], rank[i]-1)
			}
		}
	}
}

func TestHypervolumeByHand(t *testing.T) {
	for _, c := range []struct {
		name string
		pts  [][]float64
		ref  []float64
		want float64
	}{
		{"staircase", [][]float64{{1, 3}, {2, 2}, {3, 1}}, []float64{4, 4}, 6},
		// A dominated point, a duplicate, a point outside and one on the
		// reference boundary change nothing.
		{"staircase+noise", [][]float64{{3, 3}, {1, 3}, {2, 2}, {2, 2}, {3, 1}, {5, 0}, {1, 4}}, []float64{4, 4}, 6},
		{"one point", [][]float64{{0.5, 0.25}}, []float64{1, 1}, 0.375},
		{"empty", nil, []float64{1, 1}, 0},
		{"box", [][]float64{{0, 0, 0}}, []float64{1, 2, 3}, 6},
		// Boxes 2·2·1 and 1·1·2 overlapping in [1,2]³.
		{"two boxes", [][]float64{{0, 0, 1}, {1, 1, 0}}, []float64{2, 2, 2}, 5},
		{"3d staircase", [][]float64{{0, 1, 1}, {1, 0, 1}, {1, 1, 0}}, []float64{2, 2, 2}, 4},
	} {
		got, err := Hypervolume(c.pts, c.ref)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%s: hypervolume = %v, want %v", c.name, got, c.want)
		}
	}
	if _, err := Hypervolume([][]float64{{1, 2, 3, 4}}, []float64{5, 5, 5, 5}); err == nil {
		t.Error("4 objectives: no error")
	}
	if _, err := Hypervolume([][]float64{{math.NaN(), 1}}, []float64{5, 5}); err == nil {
		t.Error("a NaN point: no error")
	}
}

// On integer points the hypervolume is the number of unit cells whose
// lower corner some point weakly dominates: a brute-force count.
func TestHypervolumeAgainstCellCount(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const side = 6
	for trial := range 300 {
		m := 2 + trial%2
		pts := make([][]float64, rng.IntN(12))
		for i := range pts {
			pts[i] = make([]float64, m)
			for k := range pts[i] {
				pts[i][k] = float64(rng.IntN(side + 1))
			}
		}
		ref := make([]float64, m)
		for k := range ref {
			ref[k] = side
		}
		cells := 0
		cell := make([]float64, m)
		var walk func(k int)
		walk = func(k int) {
			if k == m {
				for _, p := range pts {
					if weaklyBelow(p, cell) {
						cells++
						return
					}
				}
				return
			}
			for v := range side {
				cell[k] = float64(v)
				walk(k + 1)
			}
		}
		walk(0)
		got, err := Hypervolume(pts, ref)
		if err != nil {
			t.Fatal(err)
		}
		if got != float64(cells) {
			t.Fatalf("trial %d (%d objectives): hypervolume = %v, cell count %d; points %v", trial, m, got, cells, pts)
		}
	}
}

func weaklyBelow(p, c []float64) bool {
	for k := range p {
		if p[k] > c[k] {
			return false
		}
	}
	return true
}

// OmegaIntervals against a brute-force scan of ω: at every ω away from a
// breakpoint, the interval's member attains the minimum weighted sum.
func TestOmegaIntervalsMatchScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := range 200 {
		pts := make([][]float64, 1+rng.IntN(10))
		for i := range pts {
			pts[i] = []float64{rng.Float64() * 10, float64(rng.IntN(5))}
		}
		iv := OmegaIntervals(pts)
		if iv[0].Lo != 0 || iv[len(iv)-1].Hi != 1 {
			t.Fatalf("trial %d: intervals %v do not cover [0, 1]", trial, iv)
		}
		for k := 1; k < len(iv); k++ {
			if iv[k].Lo != iv[k-1].Hi || iv[k].Member == iv[k-1].Member {
				t.Fatalf("trial %d: intervals %v are not contiguous and maximal", trial, iv)
			}
		}
		sum := func(i int, w float64) float64 { return w*pts[i][0] + (1-w)*pts[i][1] }
		for s := 0; s <= 1000; s++ {
			w := float64(s) / 1000
			var in *Interval
			for k := range iv {
				if iv[k].Lo+1e-9 < w && w < iv[k].Hi-1e-9 {
					in = &iv[k]
				}
			}
			if in == nil {
				continue // at a breakpoint
			}
			best := math.Inf(1)
			for i := range pts {
				best = min(best, sum(i, w))
			}
			if got := sum(in.Member, w); got > best+1e-9 {
				t.Fatalf("trial %d: at ω=%v member %d scores %v, the scan finds %v", trial, w, in.Member, got, best)
			}
			if p := PickOmega(pts, w); sum(p, w) > best+1e-12 {
				t.Fatalf("trial %d: PickOmega(%v) = %d is not a minimum", trial, w, p)
			}
		}
	}
}

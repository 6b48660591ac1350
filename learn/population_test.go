package learn

import (
	mrand "math/rand"
	"math/rand/v2"
	"testing"

	"github.com/evogp/evogp/expr"
)

func testPop(t *testing.T, n int) []scored {
	t.Helper()
	rng := rand.New(rand.NewPCG(3, 4))
	var pop []scored
	for i, tr := range expr.RampedHalfAndHalf(rng, n, expr.GenSettings{MinDepth: 2, MaxDepth: 6}) {
		pop = append(pop, scored{tree: tr, hash: tr.Hash(), fitness: float64(i % 5)})
	}
	return pop
}

func TestBreed(t *testing.T) {
	pop := testPop(t, 20)
	before := make([]string, len(pop))
	for i, c := range pop {
		before[i] = c.tree.String()
	}
	v := variation{tournament: 7, crossover: 0.9, mutation: 0.5, vary: expr.VarSettings{MaxDepth: 7, InternalProb: 0.9}}
	breedOnce := func() []scored {
		off, err := breed(pop, 13, v, rand.New(rand.NewPCG(5, 6)), mrand.New(mrand.NewSource(7)))
		if err != nil {
			t.Fatal(err)
		}
		return off
	}
	a, b := breedOnce(), breedOnce()
	if len(a) != 13 {
		t.Fatalf("%d offspring, want 13", len(a))
	}
	changed := 0
	for i := range a {
		if !a[i].tree.Equal(b[i].tree) {
			t.Fatalf("offspring %d differs between two runs with the same seeds", i)
		}
		if d := a[i].tree.Depth(); d > 7 {
			t.Errorf("offspring %s has depth %d > 7", a[i].tree, d)
		}
		if a[i].hash != a[i].tree.Hash() {
			t.Errorf("offspring %d carries a stale hash", i)
		}
		fresh := true
		for _, p := range pop {
			if p.tree.Equal(a[i].tree) {
				fresh = false
			}
		}
		if fresh {
			changed++
		}
	}
	if changed == 0 {
		t.Error("no offspring differs from every parent: variation did nothing")
	}
	for i, c := range pop {
		if c.tree.String() != before[i] {
			t.Fatalf("parent %d was modified", i)
		}
	}
	// Population 2: the tournament is capped at k = 1 and still works.
	if _, err := breed(pop[:2], 2, v, rand.New(rand.NewPCG(1, 1)), mrand.New(mrand.NewSource(1))); err != nil {
		t.Fatal(err)
	}
}

// TestTournamentPressure: with k = n − 1 the best member wins almost every
// first pick, so the selector really compares fitness (lower is better).
func TestTournamentPressure(t *testing.T) {
	pop := testPop(t, 10)
	for i := range pop {
		pop[i].fitness = float64(10 - i) // member 9 is the best
	}
	v := variation{tournament: 9, vary: expr.VarSettings{MaxDepth: 7}}
	off, err := breed(pop, 200, v, rand.New(rand.NewPCG(1, 2)), mrand.New(mrand.NewSource(3)))
	if err != nil {
		t.Fatal(err)
	}
	best := 0
	for i := 0; i < len(off); i += 2 {
		if off[i].tree.Equal(pop[9].tree) {
			best++
		}
	}
	if best < 60 { // 9 of 10 contestants: P(best in the tournament) = 0.9
		t.Errorf("the best member won %d of 100 first picks", best)
	}
}

func TestSurviveIsStableAndDeterministic(t *testing.T) {
	d, q := expr.MustParse("d"), expr.MustParse("q")
	all := []scored{
		{tree: q, hash: q.Hash(), fitness: 2},
		{tree: d, hash: d.Hash(), fitness: 1},
		{tree: expr.MustParse("d*1"), hash: d.Hash(), fitness: 1}, // same function as d
		{tree: q, hash: q.Hash(), fitness: 1},
	}
	got := survivors(MuPlusLambda{}, all, 3)
	lo, hi := d, q
	if q.Hash() < d.Hash() {
		lo, hi = q, d
	}
	if !got[0].tree.Equal(lo) || got[2].fitness != 1 {
		t.Fatalf("order %v %v %v", got[0].tree, got[1].tree, got[2].tree)
	}
	if lo.Equal(d) {
		if !got[1].tree.Equal(expr.MustParse("d*1")) {
			t.Errorf("equal keys must keep insertion order, got %v second", got[1].tree)
		}
	} else if !got[1].tree.Equal(hi) {
		t.Errorf("got %v second", got[1].tree)
	}
}

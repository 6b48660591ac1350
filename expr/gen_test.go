package expr

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestFullHasEveryLeafAtDepth(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for depth := 1; depth <= 7; depth++ {
		for range 20 {
			tr := Full(rng, depth, GenSettings{})
			if tr.Depth() != depth || tr.Size() != 1<<depth-1 {
				t.Fatalf("Full(%d) = %v: depth %d size %d", depth, tr, tr.Depth(), tr.Size())
			}
			at, _ := nodeDepths(tr.nodes)
			for i, n := range tr.nodes {
				if n.op.IsLeaf() != (at[i] == depth) {
					t.Fatalf("Full(%d): node %d (%v) at depth %d", depth, i, n.op, at[i])
				}
				if n.op == OpConst {
					t.Fatalf("Full without constants produced constant %v", n.val)
				}
			}
		}
	}
}

func TestGrowDepthBounds(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	if tr := Grow(rng, 1, GenSettings{}); tr.Size() != 1 {
		t.Errorf("Grow(1) = %v, want a leaf", tr)
	}
	for depth := 2; depth <= 7; depth++ {
		seen := map[int]int{}
		for range 500 {
			tr := Grow(rng, depth, GenSettings{})
			d := tr.Depth()
			if d < 2 || d > depth || !tr.Root().IsBinary() {
				t.Fatalf("Grow(%d) = %v has depth %d, root %v", depth, tr, d, tr.Root())
			}
			seen[d]++
		}
		// Grow is not Full: both the limit and shallower trees occur.
		if seen[depth] == 0 || (depth > 2 && seen[depth] == 500) {
			t.Errorf("Grow(%d) depth histogram %v", depth, seen)
		}
	}
}

func TestRampedHalfAndHalf(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	pop := RampedHalfAndHalf(rng, 100, GenSettings{})
	if len(pop) != 100 {
		t.Fatalf("%d trees, want 100", len(pop))
	}
	for i, tr := range pop {
		depth := 2 + (i/2)%5 // default ramp 2..6
		if i%2 == 0 {
			if tr.Depth() != depth || tr.Size() != 1<<depth-1 {
				t.Errorf("tree %d should be Full(%d): %v", i, depth, tr)
			}
		} else if tr.Depth() < 2 || tr.Depth() > depth {
			t.Errorf("tree %d should be Grow(%d): depth %d", i, depth, tr.Depth())
		}
	}
	// Custom range, and determinism for a fixed seed.
	s := GenSettings{MinDepth: 3, MaxDepth: 4}
	a := RampedHalfAndHalf(rand.New(rand.NewPCG(9, 9)), 10, s)
	b := RampedHalfAndHalf(rand.New(rand.NewPCG(9, 9)), 10, s)
	for i := range a {
		if !a[i].Equal(b[i]) {
			t.Fatalf("same seed, tree %d differs: %v vs %v", i, a[i], b[i])
		}
		if d := a[i].Depth(); d < 2 || d > 4 || (i%2 == 0 && d != 3+(i/2)%2) {
			t.Errorf("MinDepth 3 MaxDepth 4: tree %d depth %d", i, d)
		}
	}
}

func TestGenerationConstants(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	consts := 0
	for range 200 {
		tr := Full(rng, 5, GenSettings{Constants: true, ConstMin: -5, ConstMax: 5, ConstDigits: 1})
		for _, n := range tr.nodes {
			if n.op != OpConst {
				continue
			}
			consts++
			if n.val < -5 || n.val > 5 || math.Abs(n.val*10-math.Round(n.val*10)) > 1e-9 || math.Signbit(n.val) && n.val == 0 {
				t.Fatalf("constant %v outside [-5, 5] or not rounded to one decimal", n.val)
			}
		}
	}
	// 200 trees × 16 leaves, 1/5 constants: expect about 640.
	if consts < 500 || consts > 800 {
		t.Errorf("%d constants among 3200 leaves, want about 640", consts)
	}
}

func TestGenSettingsValidate(t *testing.T) {
	for _, s := range []GenSettings{
		{MinDepth: 5, MaxDepth: 3},
		{MinDepth: -1},
		{ConstMin: 2, ConstMax: 1},
		{ConstMin: math.Inf(-1), ConstMax: 1},
	} {
		if s.Validate() == nil {
			t.Errorf("%+v accepted", s)
		}
	}
	if err := (GenSettings{}).Validate(); err != nil {
		t.Errorf("zero settings rejected: %v", err)
	}
	defer func() {
		if recover() == nil {
			t.Error("RampedHalfAndHalf accepted MinDepth > MaxDepth")
		}
	}()
	RampedHalfAndHalf(rand.New(rand.NewPCG(1, 1)), 4, GenSettings{MinDepth: 5, MaxDepth: 3})
}

package expr

import (
	"math/rand/v2"
	"testing"
)

// parents returns a population mixing ramped trees with full depth-7 trees,
// the worst case for the depth limit.
func parents(rng *rand.Rand, n int, constants bool) []*Tree {
	pop := RampedHalfAndHalf(rng, n, GenSettings{Constants: constants})
	for i := 0; i < n; i += 4 {
		pop[i] = Full(rng, 7, GenSettings{Constants: constants})
	}
	return pop
}

// isSpliceOf reports whether child is a with one subtree replaced by some
// subtree of b.
func isSpliceOf(child, a, b *Tree) bool {
	for i := range a.nodes {
		ie := subtreeEnd(a.nodes, i)
		for j := range b.nodes {
			je := subtreeEnd(b.nodes, j)
			if (&Tree{nodes: splice(a.nodes, i, ie, b.nodes[j:je])}).Equal(child) {
				return true
			}
		}
	}
	return false
}

func TestOperatorsRespectDepthAndKeepParents(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for _, constants := range []bool{false, true} {
		s := VarSettings{Constants: constants}
		pop := parents(rng, 64, constants)
		before := make([]*Tree, len(pop))
		for i, p := range pop {
			before[i] = p.Clone()
		}
		changed := 0
		for k := range 3000 {
			a, b := pop[rng.IntN(len(pop))], pop[rng.IntN(len(pop))]
			var child *Tree
			switch k % 3 {
			case 0:
				child = Crossover(rng, a, b, s)
				if k%60 == 0 && !isSpliceOf(child, a, b) {
					t.Fatalf("crossover child %v is not a splice of %v and %v", child, a, b)
				}
			case 1:
				child = SubtreeMutation(rng, a, s)
			case 2:
				child = PointMutation(rng, a, s)
				if child.Equal(a) {
					t.Fatalf("point mutation of %v changed nothing", a)
				}
			}
			if child.Depth() > DefaultDepthLimit {
				t.Fatalf("operator %d: child depth %d > %d: %v", k%3, child.Depth(), DefaultDepthLimit, child)
			}
			if !child.Equal(a) {
				changed++
			}
			// The child must not share storage with a parent.
			if len(child.nodes) > 0 && len(a.nodes) > 0 && &child.nodes[0] == &a.nodes[0] {
				t.Fatal("child shares storage with its parent")
			}
		}
		for i := range pop {
			if !pop[i].Equal(before[i]) {
				t.Fatalf("parent %d modified: %v, was %v", i, pop[i], before[i])
			}
		}
		if changed < 2500 {
			t.Errorf("only %d of 3000 offspring differ from their parent", changed)
		}
	}
}

func TestPointMutationKeepsShape(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	for range 1000 {
		a := Grow(rng, 6, GenSettings{})
		c := PointMutation(rng, a, VarSettings{})
		diff := 0
		for i := range a.nodes {
			if a.nodes[i].op.IsBinary() != c.nodes[i].op.IsBinary() {
				t.Fatalf("arity changed at %d: %v -> %v", i, a, c)
			}
			if a.nodes[i] != c.nodes[i] {
				diff++
			}
		}
		if diff != 1 || len(a.nodes) != len(c.nodes) {
			t.Fatalf("%d nodes changed: %v -> %v", diff, a, c)
		}
	}
}

func TestSubtreeMutationDepth(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	// A leaf mutated with MutationDepth 3 grows at most to depth 3.
	for range 500 {
		c := SubtreeMutation(rng, Terminal(OpD), VarSettings{MutationDepth: 3})
		if c.Depth() > 3 {
			t.Fatalf("mutating a leaf with MutationDepth 3 gave depth %d", c.Depth())
		}
	}
	// A tight MaxDepth caps the grown subtree.
	for range 500 {
		a := Full(rng, 4, GenSettings{})
		if c := SubtreeMutation(rng, a, VarSettings{MaxDepth: 4, MutationDepth: 6}); c.Depth() > 4 {
			t.Fatalf("MaxDepth 4: child depth %d", c.Depth())
		}
	}
}

func TestCrossoverInternalPointRate(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	tr := Full(rng, 5, GenSettings{}) // 15 operators, 16 leaves
	all := func(int) bool { return true }
	for _, p := range []float64{0.9, 0.5, 1} {
		internal := 0
		const n = 20000
		for range n {
			if tr.nodes[pickPoint(rng, tr.nodes, p, all)].op.IsBinary() {
				internal++
			}
		}
		if got := float64(internal) / n; got < p-0.02 || got > p+0.02 {
			t.Errorf("InternalProb %v: internal points chosen %.3f of the time", p, got)
		}
	}
	// A leaf-only tree still yields a point.
	if i := pickPoint(rng, Terminal(OpQ).nodes, 0.9, all); i != 0 {
		t.Errorf("pickPoint on a leaf = %d", i)
	}
}

// Parents deeper than the limit: the operator returns a tree within the
// limit or a copy of the parent, never something deeper than the parent.
func TestOverDeepParent(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	deep := Full(rng, 9, GenSettings{})
	for range 300 {
		for _, c := range []*Tree{
			Crossover(rng, deep, Terminal(OpD), VarSettings{}),
			SubtreeMutation(rng, deep, VarSettings{}),
		} {
			if c.Depth() > DefaultDepthLimit && !c.Equal(deep) {
				t.Fatalf("over-deep parent gave a new over-deep child of depth %d", c.Depth())
			}
		}
	}
	// A parent with a single over-deep branch can be repaired by crossover.
	lopsided := Binary(OpAdd, Terminal(OpD), Full(rng, 8, GenSettings{}))
	repaired := false
	for range 200 {
		if c := Crossover(rng, lopsided, Terminal(OpG), VarSettings{}); c.Depth() <= DefaultDepthLimit {
			repaired = true
		}
	}
	if !repaired {
		t.Error("crossover never cut the over-deep branch")
	}
}

func TestVarSettingsValidate(t *testing.T) {
	for _, s := range []VarSettings{{MaxDepth: -1}, {MutationDepth: -2}, {InternalProb: -0.5}} {
		if s.Validate() == nil {
			t.Errorf("%+v accepted", s)
		}
	}
}

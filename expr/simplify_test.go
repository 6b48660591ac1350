package expr

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestSimplifyTable(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"d * 1", "d"},
		{"1 * d", "d"},
		{"d % 1", "d"},
		{"d / 1", "d"},
		{"d % 0", "d"},
		{"d % -0", "d"},
		{"d % (1 - 1)", "d"},
		{"d + -0", "d"},
		{"-0 + d", "d"},
		{"d - 0", "d"},
		{"d - (0 - 0)", "d"},
		{"d - -0", "d + 0"}, // x − (−0) = x + 0, which is not x at x = −0
		{"d + 0", "d + 0"},
		{"d + (0 - 0)", "d + 0"},
		{"d - d", "d - d"},   // Inf − Inf = NaN
		{"d % d", "d % d"},   // 0 % 0 = 0, Inf % Inf = NaN
		{"0 % d", "0 % d"},   // NaN when d is NaN, −0 when d < 0
		{"d * 0", "0 * d"},   // NaN at Inf, −0 at d < 0
		{"d * -1", "-1 * d"}, // −x is not 0 − x at 0
		{"g * d", "d * g"},
		{"(g + q) % q", "(q + g) % q"},
		{"d + d", "2 * d"},
		{"q * (d + d)", "q * (2 * d)"},
		{"(d*g) + (g*d)", "2 * (d * g)"},
		{"d + -3", "d - 3"},
		{"-3 + d", "d - 3"},
		{"d - -3", "d + 3"},
		{"3 + d", "d + 3"},
		{"d * 3", "3 * d"},
		{"2 * 3 + d", "d + 6"},
		{"0.1 + 0.2", "0.30000000000000004"},
		{"3 % 0", "3"},
		{"(1 + 2) * (q + (5 - 5))", "3 * (q + 0)"},
		{"g + (q + d)", "g + (d + q)"},
		{"(d + q) + g", "g + (d + q)"},  // commuted, not re-associated
		{"d + (q + g)", "d + (q + g)"},  // no re-association
		{"2 * (3 * d)", "2 * (3 * d)"},  // no re-association of constants
		{"1e308 * 10", "10 * 1e+308"},   // folding would give Inf: kept
		{"1e308 + 1e308", "2 * 1e+308"}, // x + x, x a constant that cannot fold
		{"u - (d * 1 + g % 1)", "u - (d + g)"},
		{eq17, "((q + g) % q - u) * (d % (q + (d + g - u) % (q * q)))"},
	} {
		in := MustParse(tc.in)
		got := Simplify(in)
		if got.String() != tc.want {
			t.Errorf("Simplify(%s) = %s, want %s", tc.in, got, tc.want)
		}
		if !in.Equal(MustParse(tc.in)) {
			t.Errorf("Simplify(%s) modified its argument", tc.in)
		}
	}
}

// TestSimplifyPreservesValues is the exactness property: on random trees
// rich in signed zeros, units, huge constants and repeated subtrees, at
// inputs including ±0, ±Inf, NaN, equal values and large magnitudes, the
// simplified tree returns the identical float64.
func TestSimplifyPreservesValues(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	inputs := make([][4]float64, 60)
	for i := range inputs {
		inputs[i] = randInputs(rng)
	}
	inputs[0] = [4]float64{0, 0, 0, 0}
	inputs[1] = [4]float64{math.Copysign(0, -1), math.Copysign(0, -1), math.Copysign(0, -1), math.Copysign(0, -1)}
	inputs[2] = [4]float64{math.Inf(1), math.Inf(1), math.Inf(-1), math.NaN()}
	inputs[3] = [4]float64{1e308, 1e308, -1e308, 1e308}
	for n := range 4000 {
		tr := randTree(rng, 2+rng.IntN(6))
		orig := tr.Clone()
		s := Simplify(tr)
		if !tr.Equal(orig) {
			t.Fatalf("Simplify modified its argument")
		}
		if s.Size() > tr.Size() || s.Depth() > tr.Depth() {
			t.Fatalf("Simplify(%v) = %v grew the tree", tr, s)
		}
		for _, in := range inputs {
			want := tr.Eval(in[0], in[1], in[2], in[3])
			if got := s.Eval(in[0], in[1], in[2], in[3]); !sameFloat(got, want) {
				t.Fatalf("tree %d: %v simplified to %v: at %v got %v, want %v", n, tr, s, in, got, want)
			}
		}
		if ss := Simplify(s); !ss.Equal(s) {
			t.Fatalf("not idempotent: %v -> %v -> %v", tr, s, ss)
		}
		if tr.Hash() != s.Hash() || s.Hash() != s.rawHash() {
			t.Fatalf("hash of %v changes under simplification", tr)
		}
	}
}

func TestHashEqualForEquivalentTrees(t *testing.T) {
	same := [][2]string{
		{"g*d + q", "q + d*g"},
		{"d * 1 % 1", "d"},
		{"d + d", "2 * d"},
		{"(d - -3) * u", "u * (3 + d)"},
		{"1 + 2", "3"},
	}
	for _, p := range same {
		if MustParse(p[0]).Hash() != MustParse(p[1]).Hash() {
			t.Errorf("Hash(%s) != Hash(%s)", p[0], p[1])
		}
	}
	differ := [][2]string{
		{"d - q", "q - d"},
		{"d % q", "q % d"},
		{"d + 0", "d"},
		{"(d + q) + g", "d + (q + g)"},
		{"0", "-0"},
		{"d", "q"},
	}
	for _, p := range differ {
		if MustParse(p[0]).Hash() == MustParse(p[1]).Hash() {
			t.Errorf("Hash(%s) == Hash(%s)", p[0], p[1])
		}
	}
}

// Distinct simplified trees should essentially never collide.
func TestHashSpreads(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	byHash := map[uint64]*Tree{}
	for range 5000 {
		s := Simplify(randTree(rng, 6))
		h := s.Hash()
		if o, ok := byHash[h]; ok && !o.Equal(s) {
			t.Fatalf("collision: %v and %v", o, s)
		}
		byHash[h] = s
	}
	if len(byHash) < 1000 {
		t.Errorf("only %d distinct hashes", len(byHash))
	}
}

// FuzzSimplify: for any formula that parses and any inputs, the simplified
// tree returns the identical float64, and simplifying again changes nothing.
func FuzzSimplify(f *testing.F) {
	f.Add(eq17, 2.5, 1.0, 1.0, 8.0)
	f.Add("d - d + q % q", math.Inf(1), 0.0, 0.0, 0.0)
	f.Add("0 % d * (g + -0)", math.NaN(), -1.0, 2.0, math.Copysign(0, -1))
	f.Add("d + d + 1e308 * 10 - -3", 1e308, 1.0, 1.0, 1.0)
	f.Fuzz(func(t *testing.T, s string, d, q, u, g float64) {
		tr, err := Parse(s)
		if err != nil {
			return
		}
		simp := Simplify(tr)
		if want, got := tr.Eval(d, q, u, g), simp.Eval(d, q, u, g); !sameFloat(got, want) {
			t.Fatalf("%s simplified to %s: at (%v, %v, %v, %v) got %v, want %v", tr, simp, d, q, u, g, got, want)
		}
		if !Simplify(simp).Equal(simp) {
			t.Fatalf("Simplify not idempotent on %s", simp)
		}
	})
}

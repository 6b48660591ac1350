package expr

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// learnedBloat is a formula the learner produced: on the simulator's inputs
// it is (q + u + u·(u − g)) · (q % d).
const learnedBloat = "(q + u + u * (u - g)) * (q % d * (g % g) % (q - q) * (d * u % (d * u) % (q - q)))"

func TestSimplifyOnTable(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{learnedBloat, "(q + u + u * (u - g)) * (q % d)"},
		{"q - q", "0"},
		{"(d * u) - (d * u)", "0"},
		{"g % g", "1"},
		{"d % d", "1"},                             // d ≥ 1/3600
		{"d * d % (d * d)", "1"},                   // d² ≥ 7.7e−8 > 0
		{"(q + g) % (q + g)", "1"},                 // q + g ≥ 1
		{"q % q", "q % q"},                         // q = 0 gives 0 % 0 = 0
		{"(u - g) % (u - g)", "(u - g) % (u - g)"}, // u = g gives 0
		{"(d - q) % (d - q)", "(d - q) % (d - q)"}, // sign unknown
		{"0 % q", "0"},
		{"(q - q) % (u - g)", "0"},
		{"q * 0", "0"},
		{"-0 * q", "0"},
		{"q * (u - u)", "0"},
		{"q + 0", "q"},
		{"0 + q", "q"},
		{"q + (g - g)", "q"},
		{"q - (g - g)", "q"},
		{"d % (q - q)", "d"},
		{"(q + u) * 1 % 1", "q + u"},
		{"u - u + d", "d"},
		{"q % (u - u) - q", "0"},
		{"(q - q + d) + d", "2 * d"}, // a domain rule exposes x + x
		{"g * d", "d * g"},           // Simplify's canonical order still applies
		{"d + -3", "d - 3"},
		{"1e308 * 10", "10 * 1e+308"}, // overflowing constants still do not fold
		{"d - q", "d - q"},
		{eq17, "((q + g) % q - u) * (d % (q + (d + g - u) % (q * q)))"},
	} {
		in := MustParse(tc.in)
		got := SimplifyOn(in, DefaultDomain())
		if got.String() != tc.want {
			t.Errorf("SimplifyOn(%s) = %s, want %s", tc.in, got, tc.want)
		}
		if !in.Equal(MustParse(tc.in)) {
			t.Errorf("SimplifyOn(%s) modified its argument", tc.in)
		}
	}
}

// The learned formula's readable form: no division by q − q, no g % g, and
// the same values as (q + u + u·(u − g))·(q / d) on the simulator's inputs.
func TestSimplifyOnLearnedExample(t *testing.T) {
	s := SimplifyOn(MustParse(learnedBloat), DefaultDomain())
	t.Logf("%s\n  -> %s", learnedBloat, s)
	for _, bad := range []string{"q - q", "g % g", "d * u % (d * u)"} {
		if strings.Contains(s.String(), bad) {
			t.Errorf("%s still contains %s", s, bad)
		}
	}
	for _, in := range [][4]float64{{1.0 / 3600, 0, 1, 1}, {2.5, 1, 3, 8}, {0.25, 7.5, 2, 2}, {100, 1e4, 1, 256}} {
		d, q, u, g := in[0], in[1], in[2], in[3]
		want := (q + u + float64(u*(u-g))) * (q / d) // float64(): no fused multiply-add
		if got := s.Eval(d, q, u, g); !sameUpToZero(got, want) {
			t.Errorf("at %v: %v, want %v", in, got, want)
		}
	}
}

func TestSimplifyOnOtherDomains(t *testing.T) {
	inf := math.Inf(1)
	dom := DefaultDomain()
	dom.Q = Bound{Lo: 0, Hi: inf, LoStrict: true} // q > 0
	dom.U = Bound{Lo: 2, Hi: 2}                   // u pinned
	for _, tc := range []struct{ in, want string }{
		{"q % q", "1"},
		{"u * d", "2 * d"},
		{"(u - 2) % (u - 2)", "0"},
		{"g % (u - 2)", "g"},
		{"(g - u) % (g - u)", "(g - 2) % (g - 2)"}, // g = 2 is allowed
	} {
		if got := SimplifyOn(MustParse(tc.in), dom).String(); got != tc.want {
			t.Errorf("SimplifyOn(%s) = %s, want %s", tc.in, got, tc.want)
		}
	}
	// A domain allowing d = 0 (or tiny d, whose square underflows to 0)
	// must not cancel d % d or d·d % d·d.
	pos := DefaultDomain()
	pos.D = Bound{Lo: 0, Hi: inf, LoStrict: true}
	for _, tc := range []struct{ in, want string }{
		{"d % d", "1"},
		{"d * d % (d * d)", "d * d % (d * d)"},
	} {
		if got := SimplifyOn(MustParse(tc.in), pos).String(); got != tc.want {
			t.Errorf("d > 0: SimplifyOn(%s) = %s, want %s", tc.in, got, tc.want)
		}
	}
	d := math.SmallestNonzeroFloat64
	if v := MustParse("d * d % (d * d)").Eval(d, 0, 1, 1); v != 0 {
		t.Fatalf("d·d %% d·d at d = 5e−324 is %v, the test's premise is wrong", v)
	}
}

func TestDomainValidate(t *testing.T) {
	if err := DefaultDomain().Validate(); err != nil {
		t.Fatal(err)
	}
	for _, b := range []Bound{
		{Lo: 2, Hi: 1},
		{Lo: 1, Hi: 1, LoStrict: true},
		{Lo: math.NaN(), Hi: 1},
		{Lo: math.Inf(1), Hi: math.Inf(1)},
		{Lo: math.Inf(-1), Hi: math.Inf(-1)},
	} {
		dom := DefaultDomain()
		dom.G = b
		err := dom.Validate()
		if err == nil || !strings.Contains(err.Error(), "domain of g") {
			t.Errorf("%+v: %v", b, err)
		}
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("SimplifyOn accepted the domain %+v", dom)
				}
			}()
			SimplifyOn(MustParse("g"), dom)
		}()
	}
	if SimplifyOn(&Tree{}, DefaultDomain()).Size() != 0 {
		t.Error("empty tree")
	}
}

// sameUpToZero is equality of float64 values where every NaN equals every
// NaN and +0 equals −0.
func sameUpToZero(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return a == b
}

// overflows reports whether some node of t is ±Inf or NaN at the inputs:
// then the input violates SimplifyOn's assumption.
func overflows(t *Tree, in [4]float64) bool {
	bad := false
	var walk func(i int) (float64, int)
	walk = func(i int) (float64, int) {
		n := t.nodes[i]
		var v float64
		next := i + 1
		switch {
		case n.op.IsTerminal():
			v = in[n.op]
		case n.op == OpConst:
			v = n.val
		default:
			a, j := walk(i + 1)
			b, k := walk(j)
			v, next = apply(n.op, a, b), k
		}
		if math.IsInf(v, 0) || math.IsNaN(v) {
			bad = true
		}
		return v, next
	}
	walk(0)
	return bad
}

// domainInput draws a point of DefaultDomain: boundary values (d = 1 s in
// hours, q = 0, u = 1, g = 1), large values (q = 1e4 h, g = 256), whole
// seconds in hours as the simulator passes them, and often equal values
// across terminals.
func domainInput(rng *rand.Rand) [4]float64 {
	hours := func() float64 { return float64(1+rng.IntN(2_000_000)) / 3600 }
	ds := []float64{1.0 / 3600, 0.5, 1, 2, 3, 1e4, hours()}
	qs := []float64{0, 0, 1.0 / 3600, 0.5, 1, 2, 3, 1e4, hours()}
	us := []float64{1, 1, 2, 3, 10, float64(1 + rng.IntN(100))}
	gs := []float64{1, 1, 2, 3, 8, 256, float64(1 + rng.IntN(512))}
	in := [4]float64{ds[rng.IntN(len(ds))], qs[rng.IntN(len(qs))], us[rng.IntN(len(us))], gs[rng.IntN(len(gs))]}
	if rng.IntN(4) == 0 { // d = q = u = g
		v := []float64{1, 2, 3, 256}[rng.IntN(4)]
		in = [4]float64{v, v, v, v}
	}
	return in
}

// TestSimplifyOnPreservesValuesOnDomain is the exactness property of
// SimplifyOn: on random trees of depth ≤ 7 — from the generators, with and
// without constants, and trees rich in repeated subtrees, signed zeros and
// huge constants — at random inputs of DefaultDomain at which no node of the
// original tree overflows, the simplified tree returns the same value up to
// the sign of zero. It also checks idempotence, that the printed result
// parses back to it, and that it is no larger than Simplify's.
func TestSimplifyOnPreservesValuesOnDomain(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	dom := DefaultDomain()
	inputs := [][4]float64{
		{1.0 / 3600, 0, 1, 1}, {1, 1, 1, 1}, {1.0 / 3600, 1.0 / 3600, 1, 1},
		{2, 2, 2, 2}, {1e4, 1e4, 1, 256}, {0.5, 1e4, 3, 256},
	}
	for len(inputs) < 40 {
		inputs = append(inputs, domainInput(rng))
	}
	var compared, skipped, smaller int
	for n := range 6000 {
		var tr *Tree
		switch n % 3 {
		case 0:
			tr = Grow(rng, 2+rng.IntN(6), GenSettings{})
		case 1:
			tr = Full(rng, 2+rng.IntN(6), GenSettings{Constants: true, ConstMin: -3, ConstMax: 3, ConstDigits: 1})
		default:
			tr = randTree(rng, 2+rng.IntN(6))
		}
		orig := tr.Clone()
		s := SimplifyOn(tr, dom)
		if !tr.Equal(orig) {
			t.Fatalf("SimplifyOn modified its argument")
		}
		exact := Simplify(tr)
		if s.Size() > exact.Size() || s.Depth() > exact.Depth() {
			t.Fatalf("SimplifyOn(%v) = %v is larger than Simplify's %v", tr, s, exact)
		}
		if s.Size() < exact.Size() {
			smaller++
		}
		if ss := SimplifyOn(s, dom); !ss.Equal(s) {
			t.Fatalf("not idempotent: %v -> %v -> %v", tr, s, ss)
		}
		if p, err := Parse(s.String()); err != nil || !p.Equal(s) {
			t.Fatalf("%v does not round-trip through Parse: %v, %v", s, p, err)
		}
		for _, in := range inputs {
			if overflows(tr, in) {
				skipped++
				continue
			}
			compared++
			want := tr.Eval(in[0], in[1], in[2], in[3])
			if got := s.Eval(in[0], in[1], in[2], in[3]); !sameUpToZero(got, want) {
				t.Fatalf("tree %d: %v simplified on the domain to %v: at (d, q, u, g) = %v got %v, want %v", n, tr, s, in, got, want)
			}
		}
	}
	t.Logf("%d samples compared, %d skipped (overflow), %d of 6000 trees smaller than Simplify's", compared, skipped, smaller)
	if compared < 150_000 || smaller < 1000 {
		t.Fatalf("the property test is too weak: %d samples compared, %d trees simplified further", compared, smaller)
	}
}

// SimplifyOn is opt-in: outside its domain, or when an intermediate
// overflows, it changes values.
func TestSimplifyOnNotExactOffDomain(t *testing.T) {
	dom := DefaultDomain()
	inf := math.Inf(1)
	for _, tc := range []struct {
		in          string
		d, q, u, g  float64
		inDomain    bool
		simplified  string
		orig, after float64
	}{
		// q = Inf: q − q is NaN, so d % (q − q) is NaN, not d.
		{"d % (q - q)", 2, inf, 1, 1, false, "d", math.NaN(), 2},
		// g = 0: 0 % 0 = 0, not 1.
		{"g % g", 1, 0, 1, 0, false, "1", 0, 1},
		// q + 1 is provably ≠ 0 only because q ≥ 0; at q = −1 it is 0.
		{"(q + 1) % (q + 1)", 1, -1, 1, 1, false, "1", 0, 1},
		// In the domain, but the original overflows: Inf − Inf = NaN.
		{"g * 1e300 * 1e300 - g * 1e300 * 1e300", 1, 0, 1, 1, true, "0", math.NaN(), 0},
	} {
		tr := MustParse(tc.in)
		s := SimplifyOn(tr, dom)
		if s.String() != tc.simplified {
			t.Errorf("SimplifyOn(%s) = %s, want %s", tc.in, s, tc.simplified)
			continue
		}
		in := [4]float64{tc.d, tc.q, tc.u, tc.g}
		// Off the domain, or in it with an overflowing intermediate.
		if inDom(dom, in) != tc.inDomain || (tc.inDomain && !overflows(tr, in)) {
			t.Errorf("%s at %v: in domain %v, overflows %v", tc.in, in, inDom(dom, in), overflows(tr, in))
		}
		orig, after := tr.Eval(tc.d, tc.q, tc.u, tc.g), s.Eval(tc.d, tc.q, tc.u, tc.g)
		if !sameUpToZero(orig, tc.orig) || !sameUpToZero(after, tc.after) || sameUpToZero(orig, after) {
			t.Errorf("%s at %v: original %v, simplified %v; want %v and %v", tc.in, in, orig, after, tc.orig, tc.after)
		}
		// The exact simplifier keeps the value.
		if v := Simplify(tr).Eval(tc.d, tc.q, tc.u, tc.g); !sameFloat(v, orig) {
			t.Errorf("Simplify(%s) at %v = %v, want %v", tc.in, in, v, orig)
		}
	}
}

// inDom reports whether the inputs lie in dom.
func inDom(dom Domain, in [4]float64) bool {
	for i, b := range [4]Bound{dom.D, dom.Q, dom.U, dom.G} {
		r, _ := b.interval()
		if math.IsInf(in[i], 0) || math.IsNaN(in[i]) || in[i] < r.lo || in[i] > r.hi {
			return false
		}
	}
	return true
}

// FuzzSimplifyOn: for any formula and any point of DefaultDomain at which no
// node of the formula overflows, SimplifyOn keeps the value up to the sign
// of zero and is idempotent.
func FuzzSimplifyOn(f *testing.F) {
	f.Add(learnedBloat, 2.5, 1.0, 1.0, 8.0)
	f.Add("q % q + (u - g) % (u - g)", 1.0, 0.0, 3.0, 3.0)
	f.Add("d * d % (d * d) - 0 * q", 1.0/3600, 0.0, 1.0, 1.0)
	f.Fuzz(func(t *testing.T, s string, d, q, u, g float64) {
		tr, err := Parse(s)
		dom := DefaultDomain()
		in := [4]float64{d, q, u, g}
		if err != nil || !inDom(dom, in) || overflows(tr, in) {
			return
		}
		simp := SimplifyOn(tr, dom)
		if want, got := tr.Eval(d, q, u, g), simp.Eval(d, q, u, g); !sameUpToZero(got, want) {
			t.Fatalf("%s simplified on the domain to %s: at %v got %v, want %v", tr, simp, in, got, want)
		}
		if !SimplifyOn(simp, dom).Equal(simp) {
			t.Fatalf("SimplifyOn not idempotent on %s", simp)
		}
	})
}

package expr

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// On the simulator's domain a divisor like g (≥ 1) or q + 1 is never 0:
// LaTeX shows \frac and SymPy a plain /; d − d can be 0 (it is 0), and
// q can be 0, so those keep the protection.
func TestFormatOnDomain(t *testing.T) {
	dom := DefaultDomain()
	for _, c := range []struct {
		in, latex, sympy string
		protected        int
	}{
		{"d / g", `\frac{d}{g}`, "priority = d/g", 0},
		{"(d / g) / (q + 1)", `\frac{\frac{d}{g}}{q + 1}`, "priority = (d/g)/(q + 1)", 0},
		{"d / q", `\operatorname{pdiv}\left(d, q\right)`, "priority = pdiv(d, q)", 1},
		{"q / (d / q)", `\frac{q}{\operatorname{pdiv}\left(d, q\right)}`, "priority = q/pdiv(d, q)", 1},
	} {
		tr := MustParse(c.in)
		got, err := FormatOn(tr, "latex", dom)
		if err != nil || got != c.latex {
			t.Errorf("%s latex: %q (%v), want %q", c.in, got, err, c.latex)
		}
		got, err = FormatOn(tr, "sympy", dom)
		if got = lastLine(got); err != nil || got != c.sympy {
			t.Errorf("%s sympy: %q (%v), want %q", c.in, got, err, c.sympy)
		}
		if prog, _ := FormatOn(tr, "sympy", dom); strings.Contains(prog, "pdiv =") != (c.protected > 0) {
			t.Errorf("%s sympy: the pdiv helper is defined iff a protected division remains:\n%s", c.in, prog)
		}
		if n := ProtectedDivisions(tr, dom); n != c.protected {
			t.Errorf("%s: %d protected divisions, want %d", c.in, n, c.protected)
		}
	}
	// Infix is Readable: true division where safe, and it parses back.
	if got, _ := FormatOn(MustParse("d % g + q % (q - d)"), "infix", dom); got != "d / g + q % (q - d)" {
		t.Errorf("infix: %q", got)
	}
}

// Property: every division FormatOn prints as true division has a
// divisor that is non-zero at random inputs of the domain.
func TestFormatOnSafeDivisorsNonZero(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 31))
	dom := DefaultDomain()
	for range 2000 {
		tr := Grow(rng, 1+rng.IntN(5), GenSettings{Constants: true})
		p, _ := toPtr(tr.nodes, 0)
		safe := safeDivisions(p, dom, tr.Catalogue())
		for q := range safe {
			sub := &Tree{nodes: flatten(q.r, nil)}
			for range 20 {
				d, qv, u, g := 1.0/3600+rng.Float64()*50, float64(rng.IntN(3))*rng.Float64()*50, float64(1+rng.IntN(4)), float64(1+rng.IntN(8))
				if v := sub.Eval(d, qv, u, g); v == 0 && !math.IsNaN(v) {
					t.Fatalf("%s: divisor %s is 0 at d=%v q=%v u=%v g=%v", tr, sub, d, qv, u, g)
				}
			}
		}
		if s, _ := FormatOn(tr, "latex", dom); strings.Count(s, `\frac`) != len(safe) {
			t.Fatalf("%s: %d \\frac for %d safe divisions", tr, strings.Count(s, `\frac`), len(safe))
		}
	}
}

// The domain exports of the golden trees are pinned (go test ./expr -run
// GoldenDomain -update rewrites them): LaTeX with \frac where the divisor
// is provably non-zero, SymPy with plain / there, and the simplification
// a reader sees (SimplifyForPrint on the domain).
func TestGoldenDomainPrinters(t *testing.T) {
	dom := DefaultDomain()
	for _, gt := range append(goldenTrees, struct{ name, src string }{"safediv", "(d / g) / (q + 1) - q / d * (u / q)"}) {
		tr := MustParse(gt.src)
		for _, f := range []string{"latex", "sympy"} {
			out, err := FormatOn(tr, f, dom)
			if err != nil {
				t.Fatal(err)
			}
			golden(t, gt.name+".domain."+f+".golden", out+"\n")
		}
		golden(t, gt.name+".domain.simplified.golden", SimplifyForPrint(tr, func(t *Tree) *Tree { return SimplifyOn(t, dom) }).String()+"\n")
	}
}

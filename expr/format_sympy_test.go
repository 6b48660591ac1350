package expr

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// lastLine is the last non-empty line of s: the formula's assignment in a
// SymPy program.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return lines[len(lines)-1]
}

// Hand-written programs: the imports and symbols are exactly what the
// formula needs, pdiv is defined once however many divisions nest, and a
// routing tree's N and C are declared symbols (not SymPy's N function or
// C namespace).
func TestSympyProgramByHand(t *testing.T) {
	const helper = "# protected division (SPEC §5.2): pdiv(a, b) = a if b = 0, else a/b\n" +
		"_a, _b = symbols(\"_a _b\")\n" +
		"pdiv = Lambda((_a, _b), Piecewise((_a, Eq(_b, 0)), (_a/_b, True)))\n"
	for _, c := range []struct {
		tree *Tree
		want string
	}{
		{MustParse("g * d"), "from sympy import symbols\n\nd, g = symbols(\"d g\")\npriority = g * d\n"},
		{MustParse("q"), "from sympy import symbols\n\nq = symbols(\"q\")\npriority = q\n"},
		{MustParse("2.5 - 1"), "priority = 2.5 - 1\n"},
		{MustParse("(d % (q % u)) % g"), "from sympy import Eq, Lambda, Piecewise, symbols\n\nd, q, u, g = symbols(\"d q u g\")\n" +
			helper + "priority = pdiv(pdiv(d, pdiv(q, u)), g)\n"},
		{MustParse("1 % 0"), "from sympy import Eq, Lambda, Piecewise, symbols\n\n" + helper + "priority = pdiv(1, 0)\n"},
		{Routing.MustParse("W + N % C"), "from sympy import Eq, Lambda, Piecewise, symbols\n\nN, C, W = symbols(\"N C W\")\n" +
			helper + "routing = W + pdiv(N, C)\n"},
	} {
		got, err := Format(c.tree, "sympy")
		if err != nil || got != c.want {
			t.Errorf("%s:\n got %q (%v)\nwant %q", c.tree, got, err, c.want)
		}
	}
	// Two formulas share one header: the union of their symbols, one pdiv.
	got, err := SympyProgram([]SympyFormula{
		{Name: "routing_R", Comment: "routing", Tree: Routing.MustParse("W % n")},
		{Name: "ranking_f", Tree: MustParse("d % q + g")},
	}, nil)
	want := "from sympy import Eq, Lambda, Piecewise, symbols\n\nn, W, d, q, g = symbols(\"n W d q g\")\n" + helper +
		"# routing\nrouting_R = pdiv(W, n)\nranking_f = pdiv(d, q) + g\n"
	if err != nil || got != want {
		t.Errorf("two formulas:\n got %q (%v)\nwant %q", got, err, want)
	}
	if _, err := SympyProgram([]SympyFormula{{Name: "x", Tree: &Tree{}}}, nil); err == nil {
		t.Error("an empty tree printed")
	}
}

// Issue 31: nested protected divisions nest no Piecewise. On random trees
// (deep ones included) the program has one Piecewise at most, in the pdiv
// helper, defined iff the formula has a protected division; with the
// domain, a pdiv call remains for exactly the divisions it cannot prove
// safe.
func TestSympyNoNestedPiecewise(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 26))
	dom := DefaultDomain()
	for range 2000 {
		var tr *Tree
		if rng.IntN(2) == 0 {
			tr = Grow(rng, 1+rng.IntN(10), GenSettings{Constants: true})
		} else {
			tr = Grow(rng, 1+rng.IntN(10), GenSettings{Terminals: Routing.All()})
		}
		divs := 0
		for _, n := range tr.nodes {
			if n.op == OpDiv {
				divs++
			}
		}
		for _, withDom := range []bool{false, true} {
			var s string
			var err error
			protected := divs
			if withDom {
				s, err = FormatOn(tr, "sympy", dom)
				protected = ProtectedDivisions(tr, dom)
			} else {
				s, err = Format(tr, "sympy")
			}
			if err != nil {
				t.Fatal(err)
			}
			if n := strings.Count(s, "Piecewise("); n > 1 || (n == 1) != (protected > 0) {
				t.Fatalf("%s (domain %v): %d Piecewise for %d protected divisions:\n%s", tr, withDom, n, protected, s)
			}
			if n := strings.Count(lastLine(s), "pdiv("); n != protected {
				t.Fatalf("%s (domain %v): %d pdiv calls for %d protected divisions:\n%s", tr, withDom, n, protected, s)
			}
		}
	}
}

// samplePoint draws values of every terminal of c inside dom: dyadic
// values (exact in float64 and in SymPy's rationals), each variable at
// its lower bound a third of the time, so that divisors are often 0 where
// the domain allows it.
func samplePoint(rng *rand.Rand, c Catalogue, dom Domain) Vars {
	var v Vars
	for op := range Op(c.Len()) {
		b := dom.BoundIn(c, op)
		lo, hi := b.Lo, b.Hi
		if math.IsInf(lo, -1) {
			lo = -4
		}
		if math.IsInf(hi, 1) {
			hi = lo + 8
		}
		x := lo + math.Floor(rng.Float64()*(hi-lo)*4)/4
		if rng.IntN(3) == 0 && !b.LoStrict {
			x = lo
		}
		if (b.LoStrict && x <= b.Lo) || x < b.Lo {
			x = math.Min(hi, b.Lo+0.25)
		}
		v[op] = x
	}
	return v
}

// TestSympyAgrees runs the SymPy programs with SymPy itself (skipped when
// python3 with sympy is not installed) and compares each formula's value
// with EvalVars at inputs that exercise both branches of protected
// division: ranking and routing trees, with and without the domain (the
// domain program at points of the domain). SymPy's arithmetic is not
// float64, so the comparison allows a relative error of 1e-9.
func TestSympyAgrees(t *testing.T) {
	if testing.Short() {
		t.Skip("starts python3")
	}
	py, err := exec.LookPath("python3")
	if err != nil || exec.Command(py, "-c", "import sympy").Run() != nil {
		t.Skip("python3 with sympy not available")
	}
	trees := []*Tree{MustParse(eq17), MustParse("d % (q - q) + g % u * 0.5"), MustParse("(d - -0.75) * q % (g - 8)"),
		MustParse("(d % (q % (u % (g - 1)))) % q"), Routing.MustParse("W + N % C - f % n"), Routing.MustParse("m % (x - h) * o")}
	rng := rand.New(rand.NewPCG(51, 52))
	for range 10 {
		trees = append(trees, Grow(rng, 5, GenSettings{Constants: true}))
		trees = append(trees, Grow(rng, 5, GenSettings{Terminals: Routing.All(), Constants: true, ConstMin: -2, ConstMax: 2, ConstDigits: 1}))
	}
	dom := DefaultDomain()
	type check struct {
		tree *Tree
		at   Vars
	}
	var checks []check
	var script strings.Builder
	script.WriteString("import sympy\n")
	for _, tr := range trees {
		for _, withDom := range []bool{false, true} {
			var prog string
			if withDom {
				prog, err = FormatOn(tr, "sympy", dom)
			} else {
				prog, err = Format(tr, "sympy")
			}
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&script, "ns = {}\nexec(%q, ns)\ne = sympy.sympify(ns[%q])\n", prog, sympyName(tr))
			for range 6 {
				var at Vars
				if withDom {
					at = samplePoint(rng, tr.Catalogue(), dom)
				} else { // anywhere, 0 included
					for op := range Op(tr.Catalogue().Len()) {
						at[op] = float64(rng.IntN(9)-2) / 2
					}
				}
				var subs []string
				for _, op := range tr.Terminals().Ops() {
					subs = append(subs, fmt.Sprintf("sympy.Symbol(%q): sympy.Rational(%q)", tr.Catalogue().Name(op), number(at[op])))
				}
				fmt.Fprintf(&script, "print(repr(float(e.subs({%s}))))\n", strings.Join(subs, ", "))
				checks = append(checks, check{tr, at})
			}
		}
	}
	out, err := exec.Command(py, "-c", script.String()).CombinedOutput()
	if err != nil {
		t.Fatalf("python3: %v\n%s", err, out)
	}
	lines := strings.Fields(string(out))
	if len(lines) != len(checks) {
		t.Fatalf("python printed %d values, want %d:\n%s", len(lines), len(checks), out)
	}
	for k, c := range checks {
		got, err := strconv.ParseFloat(lines[k], 64)
		if err != nil {
			t.Fatalf("sympy value %q: %v", lines[k], err)
		}
		want := c.tree.EvalVars(&c.at)
		if math.IsNaN(want) || math.IsInf(want, 0) {
			continue // float64 overflow; SymPy's exact value is finite
		}
		if math.Abs(got-want) > 1e-9*math.Max(1, math.Abs(want)) {
			t.Errorf("sympy of %v at %v = %v, EvalVars = %v", c.tree, c.at, got, want)
		}
	}
}

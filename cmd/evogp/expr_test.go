package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// runExpr runs `evogp expr args...` and returns its output.
func runExpr(t *testing.T, args ...string) (string, error) {
	t.Helper()
	out, _, err := runApp(t, append([]string{"expr"}, args...)...)
	return out, err
}

func TestExprSimplify(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"simplify", "((q+g)%q - u) * (d % (q + (d+g-u)%(q*q)))"}, "d % (q + (d + g - u) % (q * q)) * ((q + g) % q - u)\n"},
		{[]string{"simplify", "g*d*1 + 2*3"}, "d * g + 6\n"},
		{[]string{"simplify", "g", "*", "d"}, "d * g\n"}, // unquoted, split by the shell
		{[]string{"simplify", "--format", "prefix", "d/q - d % 1"}, "(- (% d q) d)\n"},
		{[]string{"simplify", "-f", "latex", "d % q"}, `\operatorname{pdiv}\left(d, q\right)` + "\n"},
		{[]string{"simplify", "--format", "sympy", "d % q"}, "from sympy import Eq, Lambda, Piecewise, symbols\n\nd, q = symbols(\"d q\")\n# protected division (SPEC §5.2): pdiv(a, b) = a if b = 0, else a/b\n_a, _b = symbols(\"_a _b\")\npdiv = Lambda((_a, _b), Piecewise((_a, Eq(_b, 0)), (_a/_b, True)))\npriority = pdiv(d, q)\n"},
		{[]string{"simplify", "--format", "json", "d + d"}, `["*",2,"d"]` + "\n"},
	} {
		got, err := runExpr(t, tc.args...)
		if err != nil {
			t.Errorf("%v: %v", tc.args, err)
			continue
		}
		if got != tc.want {
			t.Errorf("%v printed %q, want %q", tc.args, got, tc.want)
		}
	}
	out, err := runExpr(t, "simplify", "--format", "go", "g*d")
	if err != nil || !strings.Contains(out, "func priority(d, _, _, g float64) float64") || !strings.Contains(out, "return d * g") {
		t.Errorf("--format go: %v\n%s", err, out)
	}
	out, err = runExpr(t, "simplify", "--format", "dot", "g*d")
	if err != nil || !strings.HasPrefix(out, "digraph expr {") {
		t.Errorf("--format dot: %v\n%s", err, out)
	}
	out, _ = runExpr(t, "simplify", "--format", "json", "(q+g)%q")
	if !json.Valid([]byte(out)) {
		t.Errorf("--format json printed invalid JSON %q", out)
	}
}

// --domain simplifies for the simulator's inputs; without it the bloat that
// only matters at 0, Inf or NaN stays.
func TestExprSimplifyDomain(t *testing.T) {
	const bloat = "(q + u + u * (u - g)) * (q % d * (g % g) % (q - q) * (d * u % (d * u) % (q - q)))"
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"simplify", "--domain", bloat}, "q % d * (q + u + u * (u - g))\n"},
		{[]string{"simplify", "--domain", "q % d * (g % g) % (q - q)"}, "q % d\n"},
		{[]string{"simplify", "--domain", "q % q + 0 * d"}, "q % q\n"}, // q = 0 is an input
		{[]string{"simplify", "--domain", "g*d*1 + 2*3"}, "d * g + 6\n"},
		{[]string{"simplify", "--domain", "--format", "prefix", "d % d * (q % d) + (g - g)"}, "(% q d)\n"},
		{[]string{"simplify", "--domain", "-f", "json", "u - u"}, "0\n"},
		{[]string{"simplify", "g % g * d"}, "g % g * d\n"},
	} {
		got, err := runExpr(t, tc.args...)
		if err != nil {
			t.Errorf("%v: %v", tc.args, err)
			continue
		}
		if got != tc.want {
			t.Errorf("%v printed %q, want %q", tc.args, got, tc.want)
		}
	}
	help, err := runExpr(t, "simplify", "--help")
	if err != nil || !strings.Contains(help, "--domain") || !strings.Contains(help, "no intermediate value overflows") {
		t.Errorf("help: %v\n%s", err, help)
	}
}

func TestExprEval(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"eval", "g*d", "d=2.5", "q=0", "u=1", "g=8"}, "20\n"},
		{[]string{"eval", "g*d", "g=8", "d=2.5"}, "20\n"}, // unused q, u may be omitted
		{[]string{"eval", "d % q", "d=3", "q=0"}, "3\n"},  // protected division
		{[]string{"eval", "d / q", "d=3", "q=4"}, "0.75\n"},
		{[]string{"eval", "(d - q) * u", "d=1", "q=1.5", "u=4"}, "-2\n"},
		{[]string{"eval", "a * w - s", "a=2", "w=4", "s=0.5"}, "7.5\n"}, // extra terminals by name
		{[]string{"eval", "2.5"}, "2.5\n"},
	} {
		got, err := runExpr(t, tc.args...)
		if err != nil {
			t.Errorf("%v: %v", tc.args, err)
			continue
		}
		if got != tc.want {
			t.Errorf("%v printed %q, want %q", tc.args, got, tc.want)
		}
	}
}

func TestExprErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"simplify", "(d + )"}, `column 6: expected operand, found ")"`},
		{[]string{"simplify", "d ^ q"}, "column 3: unexpected character '^'"},
		{[]string{"simplify", "--format", "yaml", "d"}, `unknown format "yaml"`},
		{[]string{"simplify"}, "missing FORMULA"},
		{[]string{"eval", "d +", "d=1"}, "column 4: expected operand"},
		{[]string{"eval", "g*d", "d=2.5"}, "formula uses g but no value was given"},
		{[]string{"eval", "g*d", "d=1", "g=x"}, `argument "g=x": value`},
		{[]string{"eval", "g*d", "d=1", "g=2", "x=3"}, `unknown variable "x"`},
		{[]string{"eval", "a*d", "d=1"}, "formula uses a but no value was given"},
		{[]string{"eval", "g*d", "d=1", "g=2", "d=3"}, "d given twice"},
		{[]string{"eval", "g*d", "d1"}, "want NAME=VALUE"},
		{[]string{"eval"}, "missing FORMULA"},
	} {
		out, err := runExpr(t, tc.args...)
		if err == nil {
			t.Errorf("%v succeeded with %q", tc.args, out)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %q, want it to contain %q", tc.args, err, tc.want)
		}
		if out != "" {
			t.Errorf("%v: printed %q despite the error", tc.args, out)
		}
	}
}

// Flags may follow the formula, as with the other commands, with the same
// result as before it; an unknown flag after it is an error, never formula
// text, that says how to give a formula starting with '-' (after --).
func TestExprTrailingFlag(t *testing.T) {
	for _, c := range []struct{ after, before []string }{
		{[]string{"simplify", "q - q", "--domain"}, []string{"simplify", "--domain", "q - q"}},
		{[]string{"simplify", "g*d", "--format", "latex"}, []string{"simplify", "--format", "latex", "g*d"}},
		{[]string{"simplify", "g*d - 0*q", "--domain", "--format=json"}, []string{"simplify", "--domain", "--format=json", "g*d - 0*q"}},
	} {
		after, err := runExpr(t, c.after...)
		if err != nil {
			t.Fatalf("%v: %v", c.after, err)
		}
		before, err := runExpr(t, c.before...)
		if err != nil || after != before {
			t.Errorf("%v printed %q, %v printed %q (%v)", c.after, after, c.before, before, err)
		}
	}
	if out, _ := runExpr(t, "simplify", "q - q", "--domain"); strings.TrimSpace(out) != "0" {
		t.Errorf("--domain after the formula was not applied: %q", out)
	}
	for _, args := range [][]string{{"simplify", "g*d", "-q"}, {"simplify", "g*d", "--bogus"}} {
		out, err := runExpr(t, args...)
		if err == nil || !strings.Contains(err.Error(), "unknown flag") || !strings.Contains(err.Error(), "goes after --") {
			t.Errorf("%v: out %q, err = %v", args, out, err)
		}
	}
	out, err := runExpr(t, "simplify", "--", "-g*d")
	if err != nil || strings.TrimSpace(out) != "(0 - g) * d" {
		t.Errorf("formula after --: %q, %v", out, err)
	}
	// Minus signs inside an unquoted formula are formula text.
	out, err = runExpr(t, "simplify", "g", "*", "d", "-", "2")
	if err != nil || strings.TrimSpace(out) != "d * g - 2" {
		t.Errorf("unquoted formula: %q, %v", out, err)
	}
	help, _, _ := runApp(t, "expr", "simplify", "--help")
	if !strings.Contains(help, "follow --") && !strings.Contains(help, "follows --") {
		t.Errorf("help does not say that a formula starting with '-' follows --:\n%s", help)
	}
}

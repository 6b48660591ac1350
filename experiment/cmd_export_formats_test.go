package experiment_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evogp/evogp/experiment"
	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/internal/latex"
	"github.com/evogp/evogp/learn"
)

// export runs Export (evogp export) and returns what it printed.
func export(t *testing.T, o experiment.ExportOptions) (string, error) {
	t.Helper()
	var w bytes.Buffer
	err := experiment.Export(context.Background(), o, &w)
	return w.String(), err
}

// Export prints a run's formula in every format (a complete displayed
// LaTeX block), from the run directory or its best.json; Simplify
// prints the simplified tree; Out writes a file. (Moved from cmd/evogp.)
func TestExportEveryFormatAsExpr(t *testing.T) {
	const infix = "(g + 0*q) * d % u"
	run := writeRun(t, `{"infix": "`+infix+`", "size": 9}`)
	tree := expr.MustParse(infix)
	for _, format := range expr.Formats() {
		want, err := expr.Format(tree, format)
		if err != nil {
			t.Fatal(err)
		}
		if format == "latex" { // a complete displayed block (issue 44)
			want = latex.Display(latex.Line{LHS: learn.TeXSignature(tree), RHS: want})
		}
		for _, src := range []string{run, filepath.Join(run, "best.json")} {
			out, err := export(t, experiment.ExportOptions{Args: []string{src}, Format: format})
			if err != nil {
				t.Fatalf("%s %s: %v", src, format, err)
			}
			if strings.TrimSuffix(out, "\n") != strings.TrimSuffix(want, "\n") {
				t.Fatalf("%s: got %q, want %q", format, out, want)
			}
		}
	}
	// --simplify prints the simplified tree; --out writes a file.
	want, _ := expr.Format(expr.Simplify(tree), "latex")
	want = latex.Display(latex.Line{LHS: learn.TeXSignature(expr.Simplify(tree)), RHS: want})
	path := filepath.Join(t.TempDir(), "f.tex")
	if _, err := export(t, experiment.ExportOptions{Args: []string{run}, Format: "latex", Simplify: true, Out: path}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.TrimSuffix(string(b), "\n") != strings.TrimSuffix(want, "\n") {
		t.Fatalf("simplified latex %q, want %q", b, want)
	}
}

// --domain prints the formula simplified for the simulator's inputs, in any
// format, and wins over --simplify.
func TestExportDomain(t *testing.T) {
	const infix = "(q + u + u * (u - g)) * (q % d * (g % g) % (q - q) * (d * u % (d * u) % (q - q)))"
	run := writeRun(t, `{"infix": "`+infix+`"}`)
	for _, args := range []experiment.ExportOptions{{Domain: true}, {Domain: true, Simplify: true}} {
		args.Args, args.Format = []string{run}, "infix"
		out, err := export(t, args)
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		if out != "(q + u + u * (u - g)) * (q / d)\n" { // d is never 0: true division
			t.Errorf("%v printed %q", args, out)
		}
	}
	// d ≥ 1/3600 is never 0, so q % d shows as \frac{q}{d}.
	want, _ := expr.FormatOn(expr.SimplifyOn(expr.MustParse(infix), expr.DefaultDomain()), "latex", expr.DefaultDomain())
	if !strings.Contains(want, `\frac{q}{d}`) {
		t.Fatalf("want %q", want)
	}
	want = latex.Display(latex.Line{LHS: "f(d, q, u, g)", RHS: want})
	out, err := export(t, experiment.ExportOptions{Args: []string{run}, Format: "latex", Domain: true})
	if err != nil || strings.TrimSuffix(out, "\n") != strings.TrimSuffix(want, "\n") {
		t.Errorf("latex: %v: %q, want %q", err, out, want)
	}
	// --simplify alone keeps the bloat: it is exact for every input.
	out, _ = export(t, experiment.ExportOptions{Args: []string{run}, Format: "infix", Simplify: true})
	if !strings.Contains(out, "q - q") {
		t.Errorf("--simplify printed %q", out)
	}
}

// A two-tree run exports both trees in every format, labelled routing
// R(j, p) and ranking f(j) (golden files in testdata/export-pair; the
// formats are those of expr). A best.json missing its routing tree is one
// clear error.
func TestExportPairGolden(t *testing.T) {
	run := writeRun(t, `{"infix": "g * d + q", "learn": ["routing", "ranking"], "routing_infix": "W + 0.5 * o - f % n",
		"routing_terminals": ["W", "o", "f", "n"], "scope": "all", "candidate": "rule+formula+bestfit"}`)
	for _, format := range expr.Formats() {
		out, err := export(t, experiment.ExportOptions{Args: []string{run}, Format: format})
		if err != nil {
			t.Fatalf("%s: %v", format, err)
		}
		golden := filepath.Join("testdata", "export-pair", format+".txt")
		if os.Getenv("EVOGP_UPDATE_GOLDEN") != "" {
			if err := os.WriteFile(golden, []byte(out), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		if out != string(want) {
			t.Errorf("%s:\n%s\nwant\n%s", format, out, want)
		}
		if !strings.Contains(out, "routing") && !strings.Contains(out, "R(j, p)") {
			t.Errorf("%s: the routing tree is not labelled:\n%s", format, out)
		}
	}
	bad := writeRun(t, `{"infix": "g * d", "learn": ["routing", "ranking"], "scope": "all", "candidate": "rule+formula+bestfit"}`)
	if _, err := export(t, experiment.ExportOptions{Args: []string{bad}, Format: "infix"}); err == nil || !strings.Contains(err.Error(), "the routing tree R is missing") {
		t.Errorf("a best.json without its routing tree: %v", err)
	}
}

// Issue 40: a best.json with a reduced pair exports the reduced trees by
// default in every format, in the simulator-domain notation (true
// division where the divisor is never 0 there, a protected one where it
// can be, -x for 0 - x; golden files in testdata/export-reduced), and the
// evolved ones with --evolved (as a best.json without a reduction).
func TestExportReducedGolden(t *testing.T) {
	const pair = `"learn": ["routing", "ranking"], "routing_terminals": ["d", "g", "f", "W", "n", "x", "h", "m"], "scope": "arrivals", "candidate": "rule+formula+bestfit"`
	run := writeRun(t, `{"infix": "0 - a - (0 - (0 - a) % (d + q + q * g)) - w % (q * u * w)",
		"routing_infix": "m % ((m - m) % (m * (m * m) % ((m - m) % (m - m)) - m))", `+pair+`,
		"reduced": {"infix": "0 - a - a % (d + q + q * g) - w % (q * u)", "routing_infix": "m", "exact": true, "checked_on": {"instances": 36}}}`)
	evolved := writeRun(t, `{"infix": "0 - a - (0 - (0 - a) % (d + q + q * g)) - w % (q * u * w)",
		"routing_infix": "m % ((m - m) % (m * (m * m) % ((m - m) % (m - m)) - m))", `+pair+`}`)
	for _, format := range expr.Formats() {
		out, err := export(t, experiment.ExportOptions{Args: []string{run}, Format: format})
		if err != nil {
			t.Fatalf("%s: %v", format, err)
		}
		golden := filepath.Join("testdata", "export-reduced", format+".txt")
		if os.Getenv("EVOGP_UPDATE_GOLDEN") != "" {
			if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(golden, []byte(out), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		if out != string(want) {
			t.Errorf("%s:\n%s\nwant\n%s", format, out, want)
		}
		ev, err := export(t, experiment.ExportOptions{Args: []string{run}, Format: format, Evolved: true})
		if err != nil {
			t.Fatal(err)
		}
		plain, err := export(t, experiment.ExportOptions{Args: []string{evolved}, Format: format})
		if err != nil {
			t.Fatal(err)
		}
		if ev != plain || ev == out {
			t.Errorf("%s: --evolved printed\n%s\nwant the evolved trees\n%s", format, ev, plain)
		}
	}
}

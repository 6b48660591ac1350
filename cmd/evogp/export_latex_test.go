package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evogp/evogp/internal/latex"
)

// compiles checks doc with latex.Check and compiles it with pdflatex;
// without texlive the compile step is skipped, except under CI=true,
// where .ci/run installs it.
func compiles(t *testing.T, doc string) {
	t.Helper()
	if err := latex.Check(doc); err != nil {
		t.Fatalf("%v\n%s", err, doc)
	}
	ok, err := latex.Compile(context.Background(), doc)
	if !ok && os.Getenv("CI") == "true" {
		t.Fatal("CI=true: pdflatex is not installed")
	}
	if err != nil {
		t.Fatalf("%v\n%s", err, doc)
	}
}

// export --format latex prints a complete block without comment lines;
// --standalone a document that compiles, for one tree and for two; and
// --standalone with another format is refused.
func TestExportLaTeXBlocksCompile(t *testing.T) {
	one := writeBest(t, `{"infix": "g * d % q + 0 - a"}`)
	pair := writeBest(t, `{"infix": "g * d + q", "learn": ["routing", "ranking"], "routing_infix": "W + 0.5 * o - f % n",
		"routing_terminals": ["W", "o", "f", "n"], "scope": "all", "candidate": "rule+formula+bestfit"}`)
	for _, run := range []string{one, pair} {
		out, _, err := runApp(t, "export", run, "--format", "latex")
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(out, "\\begin{") || !strings.HasSuffix(out, "\\end{align}\n") {
			t.Errorf("not a displayed block:\n%s", out)
		}
		if err := latex.Check(out); err != nil {
			t.Errorf("%v\n%s", err, out)
		}
		doc, _, err := runApp(t, "export", run, "--format", "latex", "--standalone")
		if err != nil {
			t.Fatal(err)
		}
		if doc != latex.Standalone(out) {
			t.Errorf("--standalone is not the block in a document:\n%s", doc)
		}
		compiles(t, doc)
	}
	if _, _, err := runApp(t, "export", one, "--format", "go", "--standalone"); err == nil || !strings.Contains(err.Error(), "--standalone is for --format latex") {
		t.Errorf("--standalone with go: %v", err)
	}
}

// The LaTeX export of a sweep is one booktabs table with a row per point
// and no "# point" comment lines, and compiles standalone.
func TestExportSweepLaTeXTable(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sweep")
	if _, _, err := runApp(t, "learn", "-m", "--config", "smoke", "gp.generations=1", "objective.kind=single", "objective.omega=0,1", "seed=1,2",
		"--quiet", "--out", dir, "--jobs", "1"); err != nil {
		t.Fatal(err)
	}
	out, _, err := runApp(t, "export", dir, "--format", "latex")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "#") || strings.HasPrefix(l, "%") {
			t.Errorf("comment line %q in\n%s", l, out)
		}
	}
	for _, w := range []string{"\\begin{tabular}{ll}", "\\toprule", "point & ranking $f(j)$ \\\\", "objective.omega=0 seed=1 & $", "objective.omega=1 seed=2 & $", "\\bottomrule"} {
		if !strings.Contains(out, w) {
			t.Errorf("sweep table lacks %q:\n%s", w, out)
		}
	}
	if n := strings.Count(out, "seed="); n != 4 {
		t.Errorf("%d rows, want 4:\n%s", n, out)
	}
	doc, _, err := runApp(t, "export", dir, "--format", "latex", "--standalone")
	if err != nil {
		t.Fatal(err)
	}
	compiles(t, doc)
	// Other formats keep one formula per point under its name.
	infix, _, err := runApp(t, "export", dir)
	if err != nil || strings.Count(infix, "# ") != 4 {
		t.Errorf("infix export of the sweep: %v\n%s", err, infix)
	}
}

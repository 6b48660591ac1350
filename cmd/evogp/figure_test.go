package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evogp/evogp/internal/latex"
)

// From learn to figure: an ω sweep over two seeds, then evogp figure
// tradeoff writes the figure and a table with a row per ω and seed and
// one per baseline; --standalone compiles; a directory that is not a
// sweep, or two sweeps scored on different test sets, are refused.
func TestFigureTradeoffFromSweep(t *testing.T) {
	work := t.TempDir()
	sweep := func(dir string, extra ...string) string {
		t.Helper()
		out := filepath.Join(work, dir)
		args := append([]string{"learn", "-m", "--config", "smoke", "gp.generations=1", "objective.kind=single", "objective.omega=0,1", "--quiet", "--out", out, "--jobs", "1"}, extra...)
		if _, _, err := runApp(t, args...); err != nil {
			t.Fatal(err)
		}
		return out
	}
	a := sweep("a", "seed=1,2")
	figs := filepath.Join(work, "fig")
	stdout, _, err := runApp(t, "figure", "tradeoff", a, "--out", figs, "--format", "png,svg")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout, "tradeoff_sweep.png, tradeoff_sweep.svg, tradeoff_sweep.tex (2 ω values, 4 runs, 5 baselines)") {
		t.Errorf("stdout %q", stdout)
	}
	for _, f := range []string{"tradeoff_sweep.png", "tradeoff_sweep.svg"} {
		if st, err := os.Stat(filepath.Join(figs, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	tab, err := os.ReadFile(filepath.Join(figs, "tradeoff_sweep.tex"))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"\n  0 & 1 & $", "\n  0 & 2 & $", "\n  1 & 1 & $", "\n  1 & 2 & $", "\n  liquid & ", "\n  tiresias & ", "\n  wait-first & ", "\\toprule", "\\bottomrule"} {
		if !strings.Contains(string(tab), w) {
			t.Errorf("table lacks %q:\n%s", w, tab)
		}
	}
	if err := latex.Check(string(tab)); err != nil {
		t.Error(err)
	}
	if _, _, err := runApp(t, "figure", "tradeoff", a, "--out", figs, "--format", "svg", "--standalone"); err != nil {
		t.Fatal(err)
	}
	doc, _ := os.ReadFile(filepath.Join(figs, "tradeoff_sweep.tex"))
	compiles(t, string(doc))

	// A sweep on other instances under the same names (other data)
	// is not pooled with a.
	b := sweep("b", "seed=1", "generator.jobs=30")
	if _, _, err := runApp(t, "figure", "tradeoff", a, b, "--out", filepath.Join(work, "ab")); err == nil || !strings.Contains(err.Error(), "different test sets") {
		t.Errorf("two sweeps on different test sets: %v", err)
	}
	if _, err := os.Stat(filepath.Join(work, "ab")); !os.IsNotExist(err) {
		t.Errorf("a refused figure wrote its output directory: %v", err)
	}
	c := sweep("c", "seed=1")
	// c repeats seed 1 of a exactly (same data, same baselines): pooled.
	if out, _, err := runApp(t, "figure", "tradeoff", a, c, "--out", filepath.Join(work, "ac"), "--format", "svg"); err != nil || !strings.Contains(out, "6 runs") {
		t.Errorf("a and c: %v %q", err, out)
	}
	if _, _, err := runApp(t, "figure", "tradeoff", work); err == nil || !strings.Contains(err.Error(), "neither a collected sweep") {
		t.Errorf("not a sweep: %v", err)
	}
}

// --omegas takes weights in [0, 1] and refuses anything else.
func TestParseOmegas(t *testing.T) {
	got, err := parseOmegas("0, 0.5,1")
	if err != nil || len(got) != 3 || got[1] != 0.5 {
		t.Fatalf("%v %v", got, err)
	}
	for _, bad := range []string{"", "0,1.5", "x", "-0.1"} {
		if _, err := parseOmegas(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

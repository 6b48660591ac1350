package experiment

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/evogp/evogp/reports"
	"github.com/evogp/evogp/runfile"
)

var bestTipRE = regexp.MustCompile(`generation (\d+): best ([0-9.e+-]+)`)

// bestByGeneration reads the plotted best value per generation from a
// convergence figure's tooltips.
func bestByGeneration(t *testing.T, f *reports.Figure) map[int]float64 {
	t.Helper()
	out := map[int]float64{}
	for _, tip := range f.Tips {
		m := bestTipRE.FindStringSubmatch(tip.Text)
		if m == nil {
			continue
		}
		g, _ := strconv.Atoi(m[1])
		v, err := strconv.ParseFloat(m[2], 64)
		if err != nil {
			t.Fatal(err)
		}
		out[g] = v
	}
	return out
}

// A learn run directory redrawn by evogp report, and a sweep of that one
// point, plot the same quantity as learn: the per-instance mean fitness ÷
// α (α = gp.subset from config.yaml), with best.json's validation curve
// and best baseline; before, the redraw and the sweep plotted the subset
// sum.
func TestConvergenceSweepOfOnePointIsTheSingleRun(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "run")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	rows := []reports.GenerationRow{
		{Generation: 0, Best: 2.0, Median: 3.0, Worst: 4, BestFormula: "d"},
		{Generation: 1, Best: 1.5, Median: 2.5, Worst: 4, BestFormula: "q"},
		{Generation: 2, Best: 1.0, Median: 2.0, Worst: 4, BestFormula: "q - a"},
	}
	if err := reports.WriteGenerations(filepath.Join(dir, "generations.parquet"), rows); err != nil {
		t.Fatal(err)
	}
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(runfile.ConfigFile, "gp:\n  subset: 4\n")
	write(runfile.BestFile, `{"validation_curve": [{"generation": 0, "score": 0.6}, {"generation": 2, "score": 0.3}],
		"validation_baselines": [{"name": "spark", "score": 0.4}, {"name": "lyra", "score": 0.31}], "best_baseline": "lyra"}`)

	tab, err := ReadTables(dir)
	if err != nil {
		t.Fatal(err)
	}
	ref := tab.Convergence
	if ref.Subset != 4 || len(ref.Validation) != 2 || ref.Baseline != "lyra" || ref.Level != 0.31 {
		t.Fatalf("convergence reference %+v", ref)
	}
	single, err := reports.ConvergencePlot(tab.Generations, ref)
	if err != nil {
		t.Fatal(err)
	}
	sweep, err := reports.ConvergenceOverlayPlot([]reports.RunGenerations{{Label: "omega=0.5", Rows: tab.Generations, Subset: ref.Subset}})
	if err != nil {
		t.Fatal(err)
	}
	want := map[int]float64{0: 0.5, 1: 0.375, 2: 0.25} // Best ÷ 4
	for _, f := range []*reports.Figure{single, sweep} {
		got := bestByGeneration(t, f)
		if len(got) != len(want) {
			t.Fatalf("%s: best values %v, want %v", f.Name, got, want)
		}
		for g, w := range want {
			if got[g] != w {
				t.Errorf("%s: generation %d best %v, want %v", f.Name, g, got[g], w)
			}
		}
		if y := f.Panels[0][0].Y.Label.Text; y != "per-instance mean of objective ÷ SRSF objective" && y != "best: per-instance mean of objective ÷ SRSF objective" {
			t.Errorf("%s: y label %q does not say per-instance mean", f.Name, y)
		}
	}
	// Runs of known and unknown α are not drawn on one axis.
	if _, err := reports.ConvergenceOverlayPlot([]reports.RunGenerations{{Label: "a", Rows: rows, Subset: 4}, {Label: "b", Rows: rows}}); err == nil {
		t.Error("a run of unknown α drawn beside per-instance means")
	}
}

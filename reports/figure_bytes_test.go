package reports

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// figureBytesFile pins the SHA-256 of every figure's SVG and PNG bytes on
// the fixed tables of this package's tests: it proves that moving figure
// code between files (or any refactor) leaves every output identical.
const figureBytesFile = "testdata/figure_bytes.sha256"

// pinnedFigures is every figure kind of the package on fixed data, with
// the variants that take other code paths (log scales, deadlines, rugs,
// densities, nobody queued, coinciding curves, sweep overlay).
func pinnedFigures(t *testing.T) []*Figure {
	t.Helper()
	figs := figures(t)
	figs = append(figs, crowdedFigures(t)...)
	add := func(name string, f *Figure, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		f.Name = name
		figs = append(figs, f)
	}
	f, err := QueueDensityPlot(manyJobs(), "")
	add("pinned_queue_density_kde", f, err)
	f, err = QueueDensityPlot([]JobRow{
		{Instance: "i", Scheduler: "a", Job: 0, Priority: 1, GPUs: 1, Duration: 5, Finish: 5},
		{Instance: "i", Scheduler: "a", Job: 1, Priority: 2, GPUs: 1, Arrival: 3, Duration: 5, Start: 3, Finish: 8},
	}, "i")
	add("pinned_queue_density_none", f, err)
	jobs := plotJobs()
	for _, j := range plotJobs() {
		if j.Scheduler == "gp" {
			j.Scheduler = "gp-copy"
			jobs = append(jobs, j)
		}
	}
	f, err = JCTCDFPlot(jobs)
	add("pinned_jct_cdf_coincide", f, err)
	f, err = BreakdownPlot(crowdedResults(), "b")
	add("pinned_breakdown_crowded_b", f, err)
	f, err = BreakdownPlotAgainst(pairedRows(), "", "", "liquid")
	add("pinned_breakdown_paired", f, err)
	gen := func(best ...float64) []GenerationRow {
		rows := make([]GenerationRow, len(best))
		for i, b := range best {
			rows[i] = GenerationRow{Generation: int64(i), Best: b, Median: b + 1, Worst: b + 2, BestFormula: "g*d", Size: 3, Depth: 2, Unique: 4}
		}
		return rows
	}
	f, err = ConvergenceOverlayPlot([]RunGenerations{{Label: "omega=0", Rows: gen(3, 2.5, 2)}, {Label: "omega=1", Rows: gen(3, 2.9, 2.8)}})
	add("pinned_convergence_sweep", f, err)
	f, err = TradeoffPlot(plotSweep(), nil)
	add("pinned_tradeoff_nobaseline", f, err)
	return figs
}

// Every figure's SVG and PNG bytes hash to the pinned values (run with
// -update only after an intended change of a figure).
func TestFigureBytesPinned(t *testing.T) {
	var b strings.Builder
	for _, f := range pinnedFigures(t) {
		for _, format := range []string{"svg", "png"} {
			data, err := f.Render(format)
			if err != nil {
				t.Fatal(err)
			}
			sum := sha256.Sum256(data)
			fmt.Fprintf(&b, "%s  %s.%s\n", hex.EncodeToString(sum[:]), f.Name, format)
		}
	}
	got := b.String()
	if *update {
		if err := os.WriteFile(filepath.FromSlash(figureBytesFile), []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(filepath.FromSlash(figureBytesFile))
	if err != nil {
		t.Fatalf("%v (run go test ./reports -run FigureBytesPinned -update)", err)
	}
	if got != string(want) {
		t.Fatalf("figure bytes differ from %s:\ngot:\n%s\nwant:\n%s", figureBytesFile, got, want)
	}
}

package experiment

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/evogp/evogp/reports"
	"github.com/evogp/evogp/runfile"
)

// A sweep whose points were scored on different test sets (seed=1,2
// varies the data) gets one trade-off series per test set, read from each
// point's best.json; points without a best.json have none.
func TestSweepTestSetsFromPoints(t *testing.T) {
	dir := t.TempDir()
	rows := []reports.SweepRow{
		{Point: "objective.omega=0", Omega: 0, Seed: 1, AvgJCT: 2, MaxQT: 3, Objective: 3, Overrides: "objective.omega=0 seed=1"},
		{Point: "objective.omega=0", Omega: 0, Seed: 2, AvgJCT: 2, MaxQT: 3, Objective: 3, Overrides: "objective.omega=0 seed=2"},
		{Point: "objective.omega=1", Omega: 1, Seed: 1, AvgJCT: 2, MaxQT: 3, Objective: 2, Overrides: "objective.omega=1 seed=1"},
	}
	if err := reports.WriteSweep(filepath.Join(dir, "sweep.parquet"), rows); err != nil {
		t.Fatal(err)
	}
	for i, split := range []string{`3 instances generated from seed 1 (split "test")`, `3 instances generated from seed 2 (split "test")`} {
		p := pointDirOf(dir, rows[i])
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(p, runfile.BestFile), []byte(`{"test": {"split": `+strconv.Quote(split)+`}}`), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tab, err := ReadTables(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`3 instances generated from seed 1 (split "test")`, `3 instances generated from seed 2 (split "test")`, ""}
	if !slices.Equal(tab.TestSets, want) {
		t.Fatalf("test sets %q, want %q", tab.TestSets, want)
	}
	files, err := tab.Render(FigureOptions{Formats: []string{"svg"}})
	if err != nil {
		t.Fatal(err)
	}
	var svg string
	for _, f := range files {
		if f.Name == "tradeoff.svg" {
			svg = string(f.Data)
		}
	}
	if svg == "" {
		t.Fatalf("no tradeoff.svg among %v", files.Names())
	}
	for _, s := range []string{"test set 1: 3 instances generated from seed 1", "test set 2: 3 instances generated from seed 2"} {
		if !strings.Contains(svg, s) {
			t.Errorf("tradeoff.svg lacks %q", s)
		}
	}
	// No point names a test set: one series, as before.
	if sets, err := sweepTestSets(t.TempDir(), rows); err != nil || sets != nil {
		t.Fatalf("sweep without best.json: %q, %v", sets, err)
	}
}

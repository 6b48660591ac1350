package experiment_test

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evogp/evogp/experiment"
	"github.com/evogp/evogp/reports"
)

// Redraw rewrites an eval directory's summary from its tables, prints one
// line per directory, and checks its arguments before reading anything.
func TestRedraw(t *testing.T) {
	dir := smallEval(t)
	summary := filepath.Join(dir, "summary.md")
	before, err := os.ReadFile(summary)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(summary); err != nil {
		t.Fatal(err)
	}
	var w bytes.Buffer
	if err := experiment.Redraw(context.Background(), experiment.RedrawOptions{Dirs: []string{dir}, Formats: "svg", Reference: "tiresias"}, &w); err != nil {
		t.Fatal(err)
	}
	if after, err := os.ReadFile(summary); err != nil || !bytes.Equal(after, before) {
		t.Errorf("summary.md redrawn differs from eval's (%v)", err)
	}
	if line := w.String(); !strings.HasPrefix(line, dir+": ") || !strings.Contains(line, "summary.md") || strings.Count(line, "\n") != 1 {
		t.Errorf("printed %q", line)
	}
	for _, tc := range []struct {
		o    experiment.RedrawOptions
		want string
	}{
		{experiment.RedrawOptions{Formats: "svg"}, "report: give at least one directory (see evogp report --help)"},
		{experiment.RedrawOptions{Dirs: []string{dir}, Formats: "gif"}, `format "gif"`},
		{experiment.RedrawOptions{Dirs: []string{dir}, Formats: "svg", Reference: "nobody", ReferenceGiven: true}, "nobody"},
	} {
		w.Reset()
		err := experiment.Redraw(context.Background(), tc.o, &w)
		if err == nil || !strings.Contains(err.Error(), tc.want) || w.Len() > 0 {
			t.Errorf("%+v: error %v, printed %q; want an error containing %q", tc.o, err, w.String(), tc.want)
		}
	}
}

// Learner, sweep and pressure tables give the convergence, trade-off and
// pressure figures.
func TestRedrawOtherTables(t *testing.T) {
	dir := t.TempDir()
	gens := []reports.GenerationRow{{Generation: 0, Best: 3, Median: 3.5, Worst: 5}, {Generation: 1, Best: 2.8, Median: 3.1, Worst: 4}}
	sweep := []reports.SweepRow{{Point: "omega=0.2", Omega: 0.2, Seed: 1, AvgJCT: 3, MaxQT: 9}, {Point: "omega=0.8", Omega: 0.8, Seed: 1, AvgJCT: 2, MaxQT: 12}}
	press := []reports.PressureRow{{Interval: 60, Scheduler: "gp", Seed: 1, Objective: 3}, {Interval: 120, Scheduler: "gp", Seed: 1, Objective: 2}}
	if err := reports.WriteGenerations(filepath.Join(dir, "generations.parquet"), gens); err != nil {
		t.Fatal(err)
	}
	if err := reports.WriteSweep(filepath.Join(dir, "sweep.parquet"), sweep); err != nil {
		t.Fatal(err)
	}
	if err := reports.WritePressure(filepath.Join(dir, "pressure.parquet"), press); err != nil {
		t.Fatal(err)
	}
	base := []reports.ResultRow{{Instance: "t0", Scheduler: "tiresias", Jobs: 3, AvgJCT: 1.5, MaxQT: 20, Objective: 10}}
	if err := reports.WriteResults(filepath.Join(dir, "baselines.parquet"), base); err != nil {
		t.Fatal(err)
	}
	if err := experiment.Redraw(context.Background(), experiment.RedrawOptions{Dirs: []string{dir}, Formats: "png,svg"}, io.Discard); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"convergence.png", "convergence.svg", "tradeoff.svg", "pressure.png"} {
		if _, err := os.Stat(filepath.Join(dir, n)); err != nil {
			t.Fatal(err)
		}
	}
	// The sweep's baselines are the trade-off's reference lines.
	svg, _ := os.ReadFile(filepath.Join(dir, "tradeoff.svg"))
	if !strings.Contains(string(svg), ">tiresias<") {
		t.Fatal("tradeoff.svg lacks the tiresias baseline")
	}
	if _, err := os.Stat(filepath.Join(dir, "summary.md")); !os.IsNotExist(err) {
		t.Fatal("summary written without a results table")
	}
}

// Redraw refuses an empty, an absent and a corrupt directory, and a
// failure in one directory writes nothing into any (evogp report).
func TestRedrawRefusesBadDirectories(t *testing.T) {
	redraw := func(dirs ...string) error {
		return experiment.Redraw(context.Background(), experiment.RedrawOptions{Dirs: dirs, Formats: "png,svg"}, io.Discard)
	}
	empty := t.TempDir()
	if err := redraw(empty); err == nil || !strings.Contains(err.Error(), "no result table") {
		t.Fatalf("empty dir: %v", err)
	}
	if err := redraw(filepath.Join(empty, "absent")); err == nil {
		t.Fatal("absent directory accepted")
	}
	// A good directory and a corrupt one: nothing is written to either.
	good := t.TempDir()
	if err := reports.WriteGenerations(filepath.Join(good, "generations.parquet"), []reports.GenerationRow{{Best: 1, Median: 2, Worst: 3}}); err != nil {
		t.Fatal(err)
	}
	bad := t.TempDir()
	os.WriteFile(filepath.Join(bad, "results.parquet"), []byte("PAR1 broken"), 0o644)
	err := redraw(good, bad)
	if err == nil || !strings.Contains(err.Error(), "results.parquet") {
		t.Fatalf("corrupt table: %v", err)
	}
	for _, d := range []string{good, bad} {
		entries, _ := os.ReadDir(d)
		if len(entries) != 1 {
			t.Fatalf("%s holds %d files after a failed report", d, len(entries))
		}
	}
}

// Redraw on a dataset directory says it is one and how to evaluate it
// (not "missing column scheduler"), and writes nothing there.
func TestRedrawOnDatasetDirectory(t *testing.T) {
	ds := simulateDataset(t)
	before, _ := os.ReadDir(ds)
	err := experiment.Redraw(context.Background(), experiment.RedrawOptions{Dirs: []string{ds}, Formats: "png,svg"}, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "a dataset directory") || !strings.Contains(err.Error(), "evogp eval --dataset "+ds) {
		t.Fatalf("got %v", err)
	}
	if after, _ := os.ReadDir(ds); len(after) != len(before) {
		t.Errorf("report wrote into the dataset: %d → %d entries", len(before), len(after))
	}
}

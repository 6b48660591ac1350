package experiment

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/evogp/evogp/internal/progress"
	"github.com/evogp/evogp/reports"
)

func TestParseSweepArgsAndPoints(t *testing.T) {
	fixed, axes, err := ParseSweepArgs([]string{"objective.omega=0,0.5,1", "seed=1,2", "gp.population=16", "objective.weights=[1,0,1]"})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(fixed, []string{"gp.population=16", "objective.weights=1,0,1"}) {
		t.Errorf("fixed = %v", fixed)
	}
	pts := SweepPoints(axes)
	want := [][]string{
		{"objective.omega=0", "seed=1"}, {"objective.omega=0", "seed=2"},
		{"objective.omega=0.5", "seed=1"}, {"objective.omega=0.5", "seed=2"},
		{"objective.omega=1", "seed=1"}, {"objective.omega=1", "seed=2"},
	}
	if !reflect.DeepEqual(pts, want) {
		t.Errorf("points = %v", pts)
	}
	if got := PointName(want[2]); got != "objective.omega=0.5,seed=1" {
		t.Errorf("pointName = %q", got)
	}
	for _, bad := range [][]string{{"noequals"}, {"seed=1,,2"}, {"seed=1", "seed=2,3"}} {
		if _, _, err := ParseSweepArgs(bad); err == nil {
			t.Errorf("%v: want error", bad)
		}
	}
}

func TestSweepRunsResumesAndSkips(t *testing.T) {
	if testing.Short() {
		t.Skip("runs two small learning runs")
	}
	dir := filepath.Join(t.TempDir(), "sweep")
	spec := SweepSpec{Config: "smoke", Fixed: []string{"objective.kind=single", "gp.generations=1"},
		Axes: []SweepAxis{{Key: "objective.omega", Values: []string{"0", "1"}}}}
	quiet := progress.Options{Quiet: true}
	rows, err := Sweep(context.Background(), SweepSettings{Spec: spec, Dir: dir, Jobs: 2, Progress: quiet})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[0].Omega != 0 || rows[1].Omega != 1 || rows[0].Point != "objective.omega=0" {
		t.Fatalf("rows = %+v", rows)
	}
	for _, r := range rows {
		if !(r.AvgJCT > 0) || !(r.MaxQT >= 0) {
			t.Errorf("point %s: avg_jct %v max_qt %v", r.Point, r.AvgJCT, r.MaxQT)
		}
	}
	// ω = 1 is avg_jct alone, ω = 0 max_qt alone (Eq. 16).
	if rows[1].Objective != rows[1].AvgJCT || rows[0].Objective != rows[0].MaxQT {
		t.Errorf("objective does not follow Eq. 16: %+v", rows)
	}
	merged, err := reports.ReadSweep(filepath.Join(dir, "sweep.parquet"))
	if err != nil || len(merged) != 2 {
		t.Fatalf("sweep.parquet: %v, %d rows", err, len(merged))
	}
	base, err := reports.ReadResults(filepath.Join(dir, "baselines.parquet"))
	if err != nil || len(base) == 0 {
		t.Fatalf("baselines.parquet: %v, %d rows", err, len(base))
	}

	// Re-running skips finished points: a marker in a point's directory
	// survives, and the merged rows are identical.
	marker := filepath.Join(dir, "points", "objective.omega-0", "marker")
	os.WriteFile(marker, []byte("x"), 0o644)
	again, err := Sweep(context.Background(), SweepSettings{Spec: spec, Dir: dir, Jobs: 1, Progress: quiet})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(again, rows) {
		t.Errorf("re-run changed the rows: %+v vs %+v", again, rows)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Error("re-run replaced a finished point")
	}

	// An interrupted point resumes to the same result: remove a finished
	// point's outputs but keep its checkpoint, as Ctrl-C would leave it.
	p1 := filepath.Join(dir, "points", "objective.omega-1")
	entries, _ := os.ReadDir(p1)
	for _, e := range entries {
		if e.Name() != "checkpoint" && e.Name() != "config.yaml" {
			os.RemoveAll(filepath.Join(p1, e.Name()))
		}
	}
	resumed, err := Sweep(context.Background(), SweepSettings{Spec: spec, Dir: dir, Jobs: 1, Progress: quiet})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(resumed, rows) {
		t.Errorf("resumed point differs: %+v vs %+v", resumed, rows)
	}

	// The sweep's tables alone give the trade-off and the overlaid
	// convergence curves (what evogp report draws).
	tabs, err := ReadTables(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(tabs.Points) != 2 {
		t.Fatalf("convergence curves of %d points, want 2", len(tabs.Points))
	}
	files, err := tabs.Render(FigureOptions{Formats: []string{"svg"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"tradeoff.svg", "convergence_sweep.svg"} {
		if !slices.Contains(files.Names(), f) {
			t.Errorf("render did not draw %s: %v", f, files.Names())
		}
	}

	// A different command in the same directory is refused.
	other := spec
	other.Axes = []SweepAxis{{Key: "objective.omega", Values: []string{"0", "0.5"}}}
	if _, err := Sweep(context.Background(), SweepSettings{Spec: other, Dir: dir, Jobs: 1, Progress: quiet}); err == nil || !strings.Contains(err.Error(), "different sweep") {
		t.Errorf("want a different-command error, got %v", err)
	}
}

package experiment

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/evogp/evogp/internal/progress"
)

// A sweep of gp.selection: nsga2 runs through the task launcher (one task
// per point, as a Slurm array element runs it) collects to the bytes the
// local launcher writes, front outputs included, and every point learned
// a front.
func TestFrontSweepTasksMatchLocal(t *testing.T) {
	if testing.Short() {
		t.Skip("runs four small learning runs")
	}
	dir := filepath.Join(t.TempDir(), "sweep")
	spec := SweepSpec{Config: "smoke", Fixed: []string{"gp.generations=2", "objective.kind=single",
		"gp.selection=nsga2", "gp.objectives=[avg_jct,max_qt]"}, Axes: []SweepAxis{{Key: "seed", Values: []string{"1", "2"}}}}
	n, err := PrepareSweep(dir, spec, Provenance{})
	if err != nil || n != 2 {
		t.Fatalf("prepare: %d tasks, %v", n, err)
	}
	ctx := context.Background()
	for i := range n {
		if skipped, err := RunTask(ctx, dir, i, quietTask); err != nil || skipped {
			t.Fatalf("task %d: skipped %v, %v", i, skipped, err)
		}
	}
	if _, err := Collect(ctx, dir, Provenance{}); err != nil {
		t.Fatal(err)
	}
	local := filepath.Join(t.TempDir(), "local")
	if _, err := Sweep(ctx, SweepSettings{Spec: spec, Dir: local, Jobs: 2, Progress: progress.Options{Quiet: true}}); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"sweep.parquet", "baselines.parquet", "points/seed-1/best.json", "points/seed-2/best.json",
		"points/seed-1/front.parquet", "points/seed-2/front.svg", "points/seed-2/test.parquet"} {
		a, _ := os.ReadFile(filepath.Join(dir, f))
		b, _ := os.ReadFile(filepath.Join(local, f))
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf("%s differs between the tasks and the local launcher (or is missing)", f)
		}
	}
	for _, p := range []string{"seed-1", "seed-2"} {
		raw, _ := os.ReadFile(filepath.Join(dir, "points", p, "best.json"))
		var b struct {
			Front *struct {
				Members []json.RawMessage `json:"members"`
			} `json:"front"`
		}
		if err := json.Unmarshal(raw, &b); err != nil || b.Front == nil || len(b.Front.Members) == 0 {
			t.Errorf("point %s learned no front (%v)", p, err)
		}
	}
}

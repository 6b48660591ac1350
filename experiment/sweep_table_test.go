package experiment

import (
	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/evogp/evogp/internal/progress"
	"github.com/evogp/evogp/reports"
)

// A sweep over ω and seeds: its table names every point's formula and
// warnings, sweep.csv is sweep.parquet's twin, and the table averages each
// ω over its two seeds.
func TestSweepTableFormulasWarningsAndSeeds(t *testing.T) {
	if testing.Short() {
		t.Skip("runs four small learning runs")
	}
	dir := filepath.Join(t.TempDir(), "sweep")
	spec := SweepSpec{Config: "smoke", Fixed: []string{"objective.kind=single", "gp.generations=1"},
		Axes: []SweepAxis{{Key: "objective.omega", Values: []string{"0", "1"}}, {Key: "seed", Values: []string{"1", "2"}}}}
	rows, err := Sweep(context.Background(), SweepSettings{Spec: spec, Dir: dir, Jobs: 2, Progress: progress.Options{Quiet: true}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 4 {
		t.Fatalf("%d rows", len(rows))
	}
	twin, err := reports.ReadSweep(filepath.Join(dir, SweepCSV))
	if err != nil || !reflect.DeepEqual(twin, rows) {
		t.Fatalf("sweep.csv: %v\n%+v\nvs\n%+v", err, twin, rows)
	}
	lines, err := SweepLines(dir, rows)
	if err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(dir, SweepTableFile))
	if err != nil {
		t.Fatal(err)
	}
	var term bytes.Buffer
	if err := WriteSweepTable(&term, lines); err != nil {
		t.Fatal(err)
	}
	for _, l := range lines {
		if l.Formula == "" {
			t.Fatalf("point %s has no formula", l.Row.Overrides)
		}
		for name, out := range map[string]string{"sweep.md": string(md), "terminal": term.String()} {
			if !strings.Contains(out, l.Formula) {
				t.Errorf("%s lacks formula %q", name, l.Formula)
			}
			for _, w := range l.Warnings {
				if !strings.Contains(out, w) {
					t.Errorf("%s lacks warning %q", name, w)
				}
			}
		}
	}
	if !strings.Contains(string(md), "## Across seeds") || !strings.Contains(term.String(), "across seeds") {
		t.Errorf("no across-seeds table:\n%s\n%s", md, term.String())
	}
	agg := reports.SeedAggregates(rows)
	if len(agg) != 2 || agg[0].N != 2 || agg[1].N != 2 {
		t.Fatalf("aggregates %+v", agg)
	}
	for _, a := range agg {
		var sum float64
		for _, r := range rows {
			if r.Point == a.Point {
				sum += r.Objective
			}
		}
		if math.Abs(a.Objective.Mean-sum/2) > 1e-12 {
			t.Errorf("%s: mean %v, want %v", a.Point, a.Objective.Mean, sum/2)
		}
	}
	// Every point's best.json, for evogp export SWEEP_DIR.
	bests, ok, err := SweepBests(dir)
	if err != nil || !ok || len(bests) != 4 {
		t.Fatalf("SweepBests: %v %v %+v", ok, err, bests)
	}
	for i, b := range bests {
		if b.Point != rows[i].Overrides || !strings.HasPrefix(b.Best, filepath.Join(dir, "points")) {
			t.Errorf("point %d: %+v", i, b)
		}
	}
	if _, ok, _ := SweepBests(t.TempDir()); ok {
		t.Error("an empty directory is a sweep")
	}
	// The report links each seed's point to its own section.
	html, err := os.ReadFile(filepath.Join(dir, ReportFile))
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, part := range strings.Split(string(html), `<details id="`)[1:] {
		id, _, _ := strings.Cut(part, `"`)
		if ids[id] {
			t.Errorf("two point sections share the id %q", id)
		}
		ids[id] = true
	}
	if len(ids) < 4 {
		t.Errorf("%d point sections, want 4", len(ids))
	}
	if !strings.Contains(string(html), "Across seeds") {
		t.Error("report.html lacks the across-seeds table")
	}
}

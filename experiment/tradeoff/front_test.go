package tradeoff

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evogp/evogp/experiment"
	"github.com/evogp/evogp/internal/figure"
	"github.com/evogp/evogp/internal/latex"
	"github.com/evogp/evogp/reports"
)

func ptr(v float64) *float64 { return &v }

// frontEval writes an eval directory of two fronts (two learn runs, one
// with its objectives in the other order) and three baselines, on two
// instances, and returns it.
func frontEval(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	fronts := []reports.FrontSet{
		{Label: "s1", Run: filepath.Join(dir, "no-run-1"), Objectives: []string{"avg_jct", "max_qt"}, Members: []reports.FrontSetMember{
			{Label: "s1-1", Formula: "d", Size: 1, OmegaLo: ptr(0), OmegaHi: ptr(0.4)},
			{Label: "s1-2", Formula: "g * d", Size: 3, OmegaLo: ptr(0.4), OmegaHi: ptr(1)},
			{Label: "s1-3", Formula: "q", Size: 1}, // wins no ω
		}},
		// (max_qt, avg_jct): its interval is of 1 − ω.
		{Label: "s2", Run: filepath.Join(dir, "no-run-2"), Objectives: []string{"max_qt", "avg_jct"}, Members: []reports.FrontSetMember{
			{Label: "s2-1", Formula: "R = m ; f = d + a", Size: 5, OmegaLo: ptr(0), OmegaHi: ptr(0.5)},
			{Label: "s2-2", Formula: "R = m ; f = q", Size: 3, OmegaLo: ptr(0.5), OmegaHi: ptr(1)},
		}},
	}
	man, err := json.Marshal(map[string]any{"command": "eval", "objective_record": map[string]any{"kind": "multi", "weights": []float64{1, 1, 1}}, "fronts": fronts})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, experiment.MarkerFile), man, 0o644); err != nil {
		t.Fatal(err)
	}
	var rows []reports.ResultRow
	add := func(sched string, jct, qt float64) {
		for i, inst := range []string{"i1", "i2"} {
			k := 1 + 0.5*float64(i) // i2 is 1.5× i1; means are 1.25×
			rows = append(rows, reports.ResultRow{Instance: inst, Scheduler: sched, Seed: 1, Jobs: 10, Util: 0.5, Objective: jct * k, AvgJCT: jct * k, MaxQT: qt * k, Makespan: 10})
		}
	}
	add("s1-1", 2, 8) // low AvgJCT: won at high ω
	add("s1-2", 4, 4)
	add("s1-3", 6, 6)
	add("s2-1", 2.2, 7.5)
	add("s2-2", 4.4, 3.6)
	add("liquid", 4, 4.2)   // beside s1-2
	add("tiresias", 2.1, 8) // on s1-1
	add("srsf", 2.1, 8)
	if err := reports.WriteResults(filepath.Join(dir, "results.parquet"), rows); err != nil {
		t.Fatal(err)
	}
	return dir
}

// A front eval gives, per ω of the grid, each front's member picked on
// validation (the one whose ω interval holds ω; a front of (max_qt,
// avg_jct) by 1 − ω) at its test means; the other schedulers are labelled
// baselines; no label overlaps a label or a point (tiresias = srsf sit on
// s1-1's ω points, liquid beside s1-2's); and the booktabs table says how
// the members were picked, passes latex.Check and compiles.
func TestFigureTradeoffFromFront(t *testing.T) {
	dir := frontEval(t)
	pts, base, err := readFronts(dir, DefaultOmegas)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, p := range pts {
		got[strings.Join([]string{p.row.Point[:2], strings.TrimSuffix(strings.TrimSuffix(jsonNum(p.row.Omega), ".0"), "")}, "@")] = p.row.Point
	}
	want := map[string]string{
		// s1: [0, 0.4] → s1-1, [0.4, 1] → s1-2 (ω = 0.4 would tie; none here).
		"s1@0": "s1-1", "s1@0.25": "s1-1", "s1@0.5": "s1-2", "s1@0.75": "s1-2", "s1@1": "s1-2",
		// s2 flipped: 1 − ω in [0, 0.5] → s2-1, i.e. ω ≥ 0.5; ω = 0.5 ties, first kept.
		"s2@0": "s2-2", "s2@0.25": "s2-2", "s2@0.5": "s2-1", "s2@0.75": "s2-1", "s2@1": "s2-1",
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: picked %q, want %q", k, got[k], v)
		}
	}
	for _, p := range pts {
		if p.row.Point == "s1-2" && (p.row.AvgJCT != 5 || p.row.MaxQT != 5) {
			t.Errorf("s1-2 test means %v, %v; want 5, 5 (4 and 4 × 1.25)", p.row.AvgJCT, p.row.MaxQT)
		}
		if p.row.Point[:2] == "s2" && p.routing != "m" {
			t.Errorf("%s: routing %q, want m", p.row.Point, p.routing)
		}
	}
	if len(base) != 6 {
		t.Errorf("%d baseline rows, want 6 (liquid, tiresias, srsf on 2 instances)", len(base))
	}

	out := t.TempDir()
	var layout figure.LabelLayout
	var w strings.Builder
	o := Options{Dirs: []string{dir}, Out: out, Formats: []string{"svg", "png"}, layout: &layout}
	if err := Run(context.Background(), o, &w); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(w.String(), "(5 ω values, 10 runs, 3 baselines)") {
		t.Errorf("stdout %q", w.String())
	}
	// 5 ω labels and 3 baseline labels, none over another or a point.
	if len(layout.Labels) != 8 {
		t.Fatalf("%d labels, want 8", len(layout.Labels))
	}
	for i, a := range layout.Labels {
		if !a.Inside(layout.Area) {
			t.Errorf("label %d outside the data area", i)
		}
		for j, b := range layout.Labels[i+1:] {
			if a.Overlaps(b) {
				t.Errorf("labels %d and %d overlap", i, i+1+j)
			}
		}
		for j, p := range layout.Points {
			if a.Overlaps(p) {
				t.Errorf("label %d overlaps point %d", i, j)
			}
		}
	}
	if d := os.Getenv("EVOGP_KEEP_FIGURE"); d != "" {
		png, _ := os.ReadFile(filepath.Join(out, reports.TradeoffFrontName+".png"))
		_ = os.WriteFile(d, png, 0o644)
	}
	svg, _ := os.ReadFile(filepath.Join(out, reports.TradeoffFrontName+".svg"))
	for _, s := range []string{"its member picked on validation for ω", "liquid", "tiresias", "ω = 0.5"} {
		if !strings.Contains(string(svg), s) {
			t.Errorf("figure lacks %q", s)
		}
	}
	tab, _ := os.ReadFile(filepath.Join(out, TableFile))
	for _, s := range []string{"member picked on the validation set", "\\toprule", "\n  liquid & ", "routing $R(j, p)$"} {
		if !strings.Contains(string(tab), s) {
			t.Errorf("table lacks %q:\n%s", s, tab)
		}
	}
	if err := latex.Check(latex.Standalone(string(tab))); err != nil {
		t.Fatal(err)
	}
	if ok, err := latex.Compile(context.Background(), latex.Standalone(string(tab))); ok && err != nil {
		t.Fatal(err)
	}
}

// A front of other objectives is refused with the reason, and a directory
// that is neither a sweep nor a front eval says what it expected.
func TestFigureTradeoffFrontRefusals(t *testing.T) {
	dir := frontEval(t)
	man := `{"command":"eval","objective_record":{"kind":"multi","weights":[1,1,1]},"fronts":[{"label":"s1","run":"x","objectives":["cq_avg","cq_max"],"members":[{"label":"s1-1","formula":"d","size":1,"omega_lo":0,"omega_hi":1}]}]}`
	if err := os.WriteFile(filepath.Join(dir, experiment.MarkerFile), []byte(man), 0o644); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	err := Run(context.Background(), Options{Dirs: []string{dir}, Out: out, Formats: []string{"svg"}}, &strings.Builder{})
	if err == nil || !strings.Contains(err.Error(), "needs a front of exactly avg_jct and max_qt") {
		t.Fatalf("err %v", err)
	}
	if entries, _ := os.ReadDir(out); len(entries) != 0 {
		t.Errorf("partial output %v", entries)
	}
	err = Run(context.Background(), Options{Dirs: []string{t.TempDir()}, Out: out, Formats: []string{"svg"}}, &strings.Builder{})
	if err == nil || !strings.Contains(err.Error(), "nor an eval of fronts") {
		t.Fatalf("err %v", err)
	}
}

func jsonNum(v float64) string {
	b, _ := json.Marshal(v)
	return string(b)
}

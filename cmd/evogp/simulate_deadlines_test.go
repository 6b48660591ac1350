package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// deadlineCases is a Hydra-style case file on one A100: a (100 s, no
// deadline), b (200 s, due at 150: late whatever runs first) and c (50 s,
// due at 1000). EDF runs b 0–200 (50 s late), c 200–250, a 250–350;
// Tiresias (shortest first) runs c, a, then b 150–350 (200 s late).
const deadlineCases = ",job_name,norm_job_submit_time,ddl,A100\n0,a,0,inf,100\n1,b,0,150,200\n2,c,0,1000,50\n"

// TestSimulateDeadlineMetrics: simulate prints total_tardiness (hours) and
// deadline_misses in the table and in --json on an instance with
// deadlines; --json always has them, the table only with deadlines.
func TestSimulateDeadlineMetrics(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "cases.csv")
	if err := os.WriteFile(in, []byte(deadlineCases), 0o644); err != nil {
		t.Fatal(err)
	}
	ds := filepath.Join(dir, "ds")
	if _, _, err := runApp(t, "data", "import", "hydra", "--in", in, "--out", ds, "--gpus", "A100=1"); err != nil {
		t.Fatal(err)
	}
	for sched, lateSeconds := range map[string]float64{"edf": 50, "tiresias": 200} {
		out, _, err := runApp(t, "simulate", "--dataset", ds, "--scheduler", sched, "--quiet", "--json")
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(out), &m); err != nil {
			t.Fatalf("%s: %v: %q", sched, err, out)
		}
		if got, want := m["total_tardiness"].(float64), lateSeconds/3600; math.Abs(got-want) > 1e-12 {
			t.Errorf("%s: total_tardiness %v h, want %v", sched, got, want)
		}
		if got := m["deadline_misses"].(float64); got != 1 {
			t.Errorf("%s: deadline_misses %v, want 1", sched, got)
		}
		table, _, err := runApp(t, "simulate", "--dataset", ds, "--scheduler", sched, "--quiet")
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(table), "\n")
		head, row := strings.Fields(lines[1]), strings.Fields(lines[2])
		if len(lines) != 3 || head[len(head)-3] != "total_tardiness" || head[len(head)-1] != "deadline_misses" {
			t.Fatalf("%s: table header %q", sched, lines[1])
		}
		if want := []string{"cases", "3"}; row[0] != want[0] || row[1] != want[1] ||
			row[len(row)-2] != map[string]string{"edf": "0.0139", "tiresias": "0.0556"}[sched] || row[len(row)-1] != "1" {
			t.Errorf("%s: table row %q", sched, lines[2])
		}
	}

	// Hydra itself, on three GPU types: the table and JSON agree with
	// --summary-out, which always had the deadline metrics.
	multi := filepath.Join(dir, "multi")
	if err := os.WriteFile(filepath.Join(dir, "multi.csv"), []byte(testCases), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := runApp(t, "data", "import", "hydra", "--in", filepath.Join(dir, "multi.csv"), "--out", multi, "--gpus", "A100=1,V100=1,GTX2080Ti=1"); err != nil {
		t.Fatal(err)
	}
	summary := filepath.Join(dir, "summary.csv")
	out, _, err := runApp(t, "simulate", "--dataset", multi, "--scheduler", "hydra", "--quiet", "--json", "--summary-out", summary)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(summary)
	if err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(strings.TrimSpace(string(b)), "\n")
	cols, vals := strings.Split(rows[0], ","), strings.Split(rows[1], ",")
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatal(err)
	}
	for i, c := range cols {
		if c == "total_tardiness" || c == "deadline_misses" {
			if got := strings.TrimSpace(vals[i]); got != jsonNumber(m[c]) {
				t.Errorf("hydra: %s: summary %s, JSON %v", c, got, m[c])
			}
		}
	}
	table, _, err := runApp(t, "simulate", "--dataset", multi, "--scheduler", "hydra", "--quiet")
	if err != nil || !strings.Contains(table, "total_tardiness h") || !strings.Contains(table, "deadline_misses") {
		t.Errorf("hydra table: %v\n%s", err, table)
	}

	// No deadlines: the JSON still has both (0), the table neither.
	hand := writeHandDataset(t)
	out, _, err = runApp(t, "simulate", "--dataset", hand, "--scheduler", "tiresias", "--quiet", "--json")
	if err != nil || !strings.Contains(out, `"total_tardiness":0,"deadline_misses":0}`) {
		t.Errorf("no deadlines, JSON: %v %s", err, out)
	}
	table, _, err = runApp(t, "simulate", "--dataset", hand, "--scheduler", "tiresias", "--quiet")
	if err != nil || strings.Contains(table, "tardiness") || strings.Contains(table, "misses") {
		t.Errorf("no deadlines, table: %v\n%s", err, table)
	}
}

// jsonNumber formats a decoded JSON number as the summary CSV writes it.
func jsonNumber(v any) string {
	f, _ := v.(float64)
	return strconv.FormatFloat(f, 'g', -1, 64)
}

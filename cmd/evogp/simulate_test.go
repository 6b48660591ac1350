package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeHandDataset writes the reservation example of simcore's tests as a
// hand-made CSV dataset: one node of 4 GPUs, jobs 1 (2 GPUs, 0–100),
// 2 (4 GPUs, arrives 10, 50 s) and 3 (2 GPUs, arrives 10, 10 s).
func writeHandDataset(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("clusters.csv", "instance,cluster,nodes,gpus_per_node\nhand,0,1,4\n")
	write("jobs.csv", "instance,job,arrival,cluster,duration,workers,gpus,priority\n"+
		"hand,1,0,0,100,1,2,1\nhand,2,10,0,50,1,4,2\nhand,3,10,0,10,1,2,3\n")
	return dir
}

func TestSimulateHandDatasetJSON(t *testing.T) {
	dir := writeHandDataset(t)
	jobsOut := filepath.Join(t.TempDir(), "jobs.csv")
	out, _, err := runApp(t, "simulate", "--dataset", dir, "--scheduler", "user+fifo+bestfit", "--json", "--quiet", "--jobs-out", jobsOut)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(strings.TrimSpace(out)), &m); err != nil {
		t.Fatalf("%v: %q", err, out)
	}
	for _, k := range []string{"instance", "scheduler", "cq_avg", "cq_max", "util", "objective", "avg_jct", "max_qt", "makespan"} {
		if _, ok := m[k]; !ok {
			t.Errorf("JSON lacks %q", k)
		}
	}
	// Queues 0, 90, 140 s with priorities 1, 2, 3 (no backfilling).
	want := map[string]float64{
		"cq_avg":   (0 + 2*90 + 3*140) / 3.0 / 3600,
		"cq_max":   3 * 140 / 3600.0,
		"util":     420.0 / (4 * 160),
		"max_qt":   140 / 3600.0,
		"makespan": 160 / 3600.0,
	}
	for k, v := range want {
		if got := m[k].(float64); math.Abs(got-v) > 1e-12 {
			t.Errorf("%s = %v, want %v", k, got, v)
		}
	}
	b, err := os.ReadFile(jobsOut)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 4 || !strings.Contains(lines[0], "preemptions") || !strings.Contains(lines[0], "migrations") {
		t.Fatalf("jobs CSV: %q", b)
	}
}

func TestSimulateFormulaMatchesTiresias(t *testing.T) {
	dir := writeHandDataset(t)
	a, _, err := runApp(t, "simulate", "--dataset", dir, "--scheduler", "tiresias", "--json", "--quiet")
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := runApp(t, "simulate", "--dataset", dir, "--scheduler", "mct+formula+bestfit", "--priority", "g*d", "--json", "--quiet")
	if err != nil {
		t.Fatal(err)
	}
	strip := func(s string) map[string]any {
		var m map[string]any
		json.Unmarshal([]byte(s), &m)
		delete(m, "scheduler")
		return m
	}
	ma, mb := strip(a), strip(b)
	for k, v := range ma {
		if mb[k] != v {
			t.Errorf("%s: tiresias %v, g*d %v", k, v, mb[k])
		}
	}
}

func TestSimulateTableAndSummary(t *testing.T) {
	dir := writeHandDataset(t)
	summary := filepath.Join(t.TempDir(), "summary.parquet")
	out, _, err := runApp(t, "simulate", "--dataset", dir, "--scheduler", "spark", "--quiet", "--summary-out", summary, "--trigger", "arrival+completion")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "hand") || !strings.Contains(out, "objective") {
		t.Errorf("table: %q", out)
	}
	if _, err := os.Stat(summary); err != nil {
		t.Error(err)
	}
}

func TestSimulateBadInput(t *testing.T) {
	dir := writeHandDataset(t)
	cases := [][]string{
		{"--scheduler", "fastest"},
		{"--scheduler", "mct+formula+bestfit"},
		{"--scheduler", "mct+formula+bestfit", "--priority", "g*(d"},
		{"--weights", "1,2"},
		{"--weights", "1,-1,1"},
		{"--trigger", "sometimes"},
		{"--backfill", "easy"},
		{"--time-unit", "days", "--priority", "d"},
	}
	for _, extra := range cases {
		args := append([]string{"simulate", "--dataset", dir, "--quiet"}, extra...)
		if _, _, err := runApp(t, args...); err == nil {
			t.Errorf("%v: want an error", extra)
		}
	}
	if _, _, err := runApp(t, "simulate", "--dataset", filepath.Join(dir, "missing"), "--quiet"); err == nil {
		t.Error("missing dataset: want an error")
	}
	out := filepath.Join(t.TempDir(), "jobs.csv")
	if _, _, err := runApp(t, "simulate", "--dataset", dir, "--scheduler", "nope", "--jobs-out", out); err == nil {
		t.Error("want error")
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a failed run left output behind")
	}
}

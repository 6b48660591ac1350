package main

import (
	"os"
	"path/filepath"
	"testing"
)

// writeHandDataset writes the reservation example of simcore's tests as a
// hand-made CSV dataset: one node of 4 GPUs, jobs 1 (2 GPUs, 0–100),
// 2 (4 GPUs, arrives 10, 50 s) and 3 (2 GPUs, arrives 10, 10 s). (The
// simulate tests on it are experiment's; the command-line tests here and
// in estimate_flags, simulate_deadlines and trust use it too.)
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

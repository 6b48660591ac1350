package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// simulate takes LABEL=RUN as eval does: gp=RUN with g*d is SRSF, so it
// prints tiresias's metrics; a run with --priority, a list, or a front
// are refused clearly.
func TestSimulateLabelRun(t *testing.T) {
	data := smokeDataset(t)
	run := writeBest(t, `{"infix": "g * d"}`)
	want, _, err := runApp(t, "simulate", "--dataset", data, "--scheduler", "tiresias", "--quiet")
	if err != nil {
		t.Fatal(err)
	}
	for _, entry := range []string{"gp=" + run, "mine=" + filepath.Join(run, "best.json"), "f=g*d"} {
		got, _, err := runApp(t, "simulate", "--dataset", data, "--scheduler", entry, "--quiet")
		if err != nil {
			t.Fatalf("%s: %v", entry, err)
		}
		_, wantTable, _ := strings.Cut(want, "\n")
		_, gotTable, _ := strings.Cut(got, "\n")
		if gotTable != wantTable {
			t.Errorf("%s:\n%s\nwant the metrics of tiresias:\n%s", entry, got, want)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--scheduler", "gp=" + run, "--priority", "q"}, "drop --priority"},
		{[]string{"--scheduler", "gp=" + run + ",liquid"}, "simulate runs one scheduler"},
		{[]string{"--scheduler", "gp=/nonexistent/run"}, "gp"},
	} {
		_, _, err := runApp(t, append([]string{"simulate", "--dataset", data, "--quiet"}, c.args...)...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want %q", c.args, err, c.want)
		}
	}
}

// A dataset generated from a config that sets its own objective (hetero:
// deadline, ω = 0.2) is scored with it by default; a flag overrides it.
func TestSimulateDatasetConfigObjective(t *testing.T) {
	data := smokeDataset(t)
	meta := filepath.Join(data, "dataset.yaml")
	b, err := os.ReadFile(meta)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "config: smoke") {
		t.Fatalf("dataset.yaml:\n%s", b)
	}
	json := func(args ...string) (string, string) {
		t.Helper()
		out, stderr, err := runApp(t, append([]string{"simulate", "--dataset", data, "--json"}, args...)...)
		if err != nil {
			t.Fatal(err)
		}
		return out, stderr
	}
	eq5, _ := json("--quiet")
	if err := os.WriteFile(meta, []byte(strings.Replace(string(b), "config: smoke", "config: hetero", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	deadline, stderr := json()
	if !strings.Contains(stderr, "objective deadline omega=0.2 of config hetero") {
		t.Errorf("no note of the objective's origin: %q", stderr)
	}
	explicit, _ := json("--quiet", "--objective", "deadline", "--omega", "0.2")
	if deadline != explicit || deadline == eq5 {
		t.Errorf("hetero dataset: default\n%s\nexplicit deadline\n%s\neq5\n%s", deadline, explicit, eq5)
	}
	if back, _ := json("--quiet", "--objective", "multi"); back != eq5 {
		t.Errorf("--objective multi on a hetero dataset:\n%s\nwant\n%s", back, eq5)
	}
}

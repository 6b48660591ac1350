package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/evogp/evogp/reports"
)

// eval runs a composed scheduler under a label (srtf=mct+srtf+bestfit) and
// prints the summary table to the terminal before the list of files; the
// table's rows are the labels, and the labelled scheduler scores exactly
// as the same scheduler under its own name.
func TestEvalLabelledSchedulerAndTerminalSummary(t *testing.T) {
	ds := smokeDataset(t)
	out := filepath.Join(t.TempDir(), "eval")
	stdout, stderr, err := runApp(t, "eval", "--dataset", ds, "--quiet", "--out", out,
		"--schedulers", "tiresias,srtf=mct+srtf+bestfit,mct+srtf+bestfit")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(lines) < 5 || !strings.HasPrefix(lines[0], "scheduler") || !strings.Contains(lines[0], "objective") {
		t.Fatalf("no summary table first:\n%s", stdout)
	}
	for i, want := range []string{"tiresias ", "srtf ", "mct+srtf+bestfit "} {
		if !strings.HasPrefix(lines[1+i], want) {
			t.Errorf("row %d = %q, want scheduler %q", i+1, lines[1+i], want)
		}
	}
	if !strings.HasPrefix(lines[len(lines)-1], "wrote "+out) {
		t.Errorf("last line %q", lines[len(lines)-1])
	}
	rows, err := reports.ReadResults(filepath.Join(out, "results.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	byLabel := map[string][]float64{}
	for _, r := range rows {
		byLabel[r.Scheduler] = append(byLabel[r.Scheduler], r.Objective)
	}
	a, b := byLabel["srtf"], byLabel["mct+srtf+bestfit"]
	if len(a) == 0 || len(a) != len(b) {
		t.Fatalf("rows: %v", byLabel)
	}
	for i := range a {
		if a[i] != b[i] {
			t.Errorf("instance %d: srtf %v ≠ mct+srtf+bestfit %v", i, a[i], b[i])
		}
	}
	// The same row in the terminal table as under its own name.
	if !slices.Equal(strings.Fields(lines[2])[1:], strings.Fields(lines[3])[1:]) {
		t.Errorf("rows differ:\n%s\n%s", lines[2], lines[3])
	}
}

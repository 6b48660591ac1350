package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/evogp/evogp/reports"
)

func TestReportBadInput(t *testing.T) {
	// What Redraw refuses (an empty, absent or corrupt directory) is
	// tested beside it (experiment's TestRedrawRefusesBadDirectories);
	// here, the command line's own refusals.
	if _, _, err := runApp(t, "report"); err == nil {
		t.Fatal("no directory accepted")
	}
	good := t.TempDir()
	if err := reports.WriteGenerations(filepath.Join(good, "generations.parquet"), []reports.GenerationRow{{Best: 1, Median: 2, Worst: 3}}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := runApp(t, "report", good, "--format", "bmp"); err == nil {
		t.Fatal("unknown format accepted")
	}
	if _, _, err := runApp(t, "report", good, "--bogus"); err == nil || !strings.Contains(err.Error(), "unknown flag --bogus") {
		t.Fatalf("unknown trailing flag: %v", err)
	}
	if _, _, err := runApp(t, "report", good, "--format"); err == nil || !strings.Contains(err.Error(), "needs a value") {
		t.Fatalf("trailing flag without value: %v", err)
	}
	// --reference given must be among the results (ReferenceGiven); the
	// default need not be.
	ev := t.TempDir()
	rows := []reports.ResultRow{{Instance: "i", Scheduler: "a", Seed: 1, Jobs: 1, Objective: 1}, {Instance: "i", Scheduler: "b", Seed: 1, Jobs: 1, Objective: 2}}
	if err := reports.WriteResults(filepath.Join(ev, "results.parquet"), rows); err != nil {
		t.Fatal(err)
	}
	if _, _, err := runApp(t, "report", ev, "--format", "svg"); err != nil {
		t.Fatalf("default reference absent: %v", err)
	}
	if _, _, err := runApp(t, "report", ev, "--format", "svg", "--reference", "nope"); err == nil || !strings.Contains(err.Error(), "nope") {
		t.Fatalf("--reference nope: %v", err)
	}
	out, _, err := runApp(t, "report", "--help")
	if err != nil || !strings.Contains(out, "Examples:") {
		t.Fatalf("help: %v\n%s", err, out)
	}
}

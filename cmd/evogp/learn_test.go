package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/runfile"
)

// runLearnCmd runs `evogp learn args...`.
func runLearnCmd(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	return runApp(t, append([]string{"learn"}, args...)...)
}

// TestLearnSmoke is the README's main job on the smoke config: a complete
// run directory whose best.json parses and matches what was printed.
func TestLearnSmoke(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	stdout, stderr, err := runLearnCmd(t, "--config", "smoke", "--out", dir)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	for _, f := range []string{runfile.ConfigFile, runfile.GenerationsFile, runfile.HallFile, runfile.BestFile,
		runfile.FormulaGoFile, runfile.FormulaTeXFile, runfile.PlotName + ".png", runfile.PlotName + ".svg", runfile.CheckpointDir} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("run directory lacks %s: %v", f, err)
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, runfile.BestFile))
	if err != nil {
		t.Fatal(err)
	}
	var best runfile.Best
	if err := json.Unmarshal(b, &best); err != nil {
		t.Fatalf("best.json: %v", err)
	}
	if best.Tree.Size() == 0 || best.Config != "smoke" {
		t.Fatalf("best.json: %+v", best)
	}
	if _, err := expr.Parse(best.Simplified); err != nil {
		t.Fatalf("simplified formula %q: %v", best.Simplified, err)
	}
	if best.SimplifiedDomain == "" {
		t.Errorf("best.json has no simplified_domain")
	}
	if best.Reduced == nil {
		t.Fatal("best.json has no reduced formula")
	}
	_, shown := best.DisplayFormulas() // the reduced tree, readable, first (issue 40)
	for _, want := range []string{"learned priority function (smaller runs first): " + shown + "\n",
		"as evolved: " + best.Infix + " (best.json", "the same schedule, job for job, on all 4 training and 2 validation instances",
		"validation score", "SRSF", "run directory: " + dir} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	if !strings.Contains(stderr, "learn") {
		t.Errorf("no progress reported on stderr: %q", stderr)
	}

	// A finished run cannot be resumed; a run whose outputs were lost after
	// its last checkpoint can, but only with its own config.
	if _, _, err := runLearnCmd(t, "--resume", dir); err == nil || !strings.Contains(err.Error(), "already complete") {
		t.Errorf("resume of a finished run: %v", err)
	}
	if err := os.Remove(filepath.Join(dir, runfile.BestFile)); err != nil {
		t.Fatal(err)
	}
	if _, _, err := runLearnCmd(t, "--resume", dir, "--config", "quick"); err == nil || !strings.Contains(err.Error(), "differs") {
		t.Errorf("resume with another config: %v", err)
	}
	if _, _, err := runLearnCmd(t, "--resume", dir, "seed=9"); err == nil || !strings.Contains(err.Error(), "differs") {
		t.Errorf("resume with an override that changes the config: %v", err)
	}
	out2, _, err := runLearnCmd(t, "--resume", dir, "--quiet")
	if err != nil {
		t.Fatal(err)
	}
	b2, err := os.ReadFile(filepath.Join(dir, runfile.BestFile))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b, b2) || !strings.Contains(out2, shown) {
		t.Errorf("resumed run gave another result:\n%s\n%s", b, b2)
	}
}

func TestLearnBadInput(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "run")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"gp.nope=3"}, "unknown key"},
		{[]string{"gp.population=1"}, "gp.population"},
		{[]string{"gp.max_depth=1"}, "gp.max_depth"},
		{[]string{"gp.subset=9"}, "larger than the training set"},
		{[]string{"population"}, "key=value"},
		{[]string{"--train", filepath.Join(parent, "missing")}, "missing"},
	} {
		args := append([]string{"--config", "smoke", "--out", dir, "--quiet"}, c.args...)
		if _, _, err := runLearnCmd(t, args...); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: got %v, want an error containing %q", c.args, err, c.want)
		}
	}
	if entries, _ := os.ReadDir(parent); len(entries) != 0 {
		t.Fatalf("failed runs left %d entries in %s", len(entries), parent)
	}
	if _, _, err := runLearnCmd(t, "--resume", dir, "--out", dir); err == nil || !strings.Contains(err.Error(), "--out") {
		t.Errorf("--resume with --out: %v", err)
	}
}

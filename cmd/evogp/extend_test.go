package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evogp/evogp/runfile"
)

// TestLearnExtend is `evogp learn --resume RUN gp.generations=N` on a
// finished run: the extended run's outputs equal a single N-generation
// run's, and changing any other key is refused with its name.
func TestLearnExtend(t *testing.T) {
	parent := t.TempDir()
	ref, dir := filepath.Join(parent, "ref"), filepath.Join(parent, "run")
	if _, stderr, err := runLearnCmd(t, "--config", "smoke", "--quiet", "--out", ref, "gp.generations=4"); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if _, stderr, err := runLearnCmd(t, "--config", "smoke", "--quiet", "--out", dir, "gp.generations=2"); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if _, _, err := runLearnCmd(t, "--resume", dir, "gp.generations=4", "gp.subset=3"); err == nil || !strings.Contains(err.Error(), "gp.subset") {
		t.Errorf("extension that changes gp.subset: %v", err)
	}
	out, _, err := runLearnCmd(t, "--resume", dir, "--quiet", "gp.generations=4")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "over 4 generations") {
		t.Errorf("extended run output:\n%s", out)
	}
	for _, f := range []string{runfile.ConfigFile, runfile.BestFile, runfile.HallFile, runfile.FormulaGoFile, runfile.FormulaTeXFile} {
		a, err := os.ReadFile(filepath.Join(ref, f))
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a, b) {
			t.Errorf("%s of the extended run differs from the 4-generation run's", f)
		}
	}
}

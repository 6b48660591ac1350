package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 32 items 2 and 6 at the command line: `evogp learn` refuses a
// population that cannot fit in memory, and an --out that is a file, with
// one error before any work, leaving nothing behind.
func TestLearnRefusesBeforeWork(t *testing.T) {
	root := t.TempDir()
	file := filepath.Join(root, "file")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--config", "smoke", "--out", file}, "exists and is not a directory"},
		{[]string{"--config", "smoke", "--out", filepath.Join(root, "run"), "gp.population=1000000000000"}, "gp.population"},
		{[]string{"--config", "smoke", "--out", filepath.Join(root, "run"), "data.train=1000000000000"}, "data.train"},
	} {
		_, stderr, err := runLearnCmd(t, c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("learn %v: %v (want %q)\n%s", c.args, err, c.want, stderr)
		}
		if m, _ := filepath.Glob(filepath.Join(root, ".*")); len(m) > 0 {
			t.Errorf("learn %v left %v", c.args, m)
		}
		if _, err := os.Stat(filepath.Join(root, "run")); err == nil {
			t.Errorf("learn %v created the run directory", c.args)
		}
	}
}

// Issue 32 item 2 (and 13's bound): `evogp data gen` refuses an instance
// count that cannot fit in memory before generating anything.
func TestDataGenRefusesHugeInstanceCount(t *testing.T) {
	out := filepath.Join(t.TempDir(), "g")
	_, _, err := runApp(t, "data", "gen", "--config", "smoke", "--instances", "100000000000", "--out", out)
	if err == nil || !strings.Contains(err.Error(), "--instances = 100000000000 alone needs") {
		t.Errorf("data gen --instances 10^11: %v", err)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("data gen created its output")
	}
}

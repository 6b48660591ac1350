package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// simulate and eval select instances by name; an unknown name is an error.
func TestSelectInstancesByName(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "d")
	if _, _, err := runApp(t, "data", "gen", "--config", "smoke", "--instances", "3", "--seed", "1", "--out", data); err != nil {
		t.Fatal(err)
	}
	out, _, err := runApp(t, "simulate", "--dataset", data, "--scheduler", "liquid", "--instances", "inst-0001", "--quiet")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "inst-0001") || strings.Contains(out, "inst-0000") || strings.Contains(out, "inst-0002") {
		t.Fatalf("simulate --instances inst-0001 printed:\n%s", out)
	}
	if _, _, err := runApp(t, "simulate", "--dataset", data, "--instances", "nosuch", "--quiet"); err == nil || !strings.Contains(err.Error(), `no instance "nosuch"`) {
		t.Fatalf("unknown instance: %v", err)
	}
	ev := filepath.Join(dir, "e")
	out, _, err = runApp(t, "eval", "--dataset", data, "--schedulers", "liquid", "--instances", "inst-0000,inst-0002", "--out", ev, "--quiet", "--format", "svg")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "× 2 instances") {
		t.Fatalf("eval --instances: %s", out)
	}
}

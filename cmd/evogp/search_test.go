package main

import (
	"strings"
	"testing"
)

func TestSearchCommand(t *testing.T) {
	stdout, stderr, err := runApp(t, "search", "--config", "smoke", "--depth", "2", "--top", "3")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	for _, want := range []string{"depth ≤ 2: 68 trees", "baselines: spark", "rank validation", "the best baseline"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	if _, _, err := runApp(t, "search", "--config", "smoke", "--depth", "9"); err == nil || !strings.Contains(err.Error(), "depth 9") {
		t.Errorf("depth 9: %v", err)
	}
}

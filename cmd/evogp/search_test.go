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

// search --routing enumerates routing trees with a fixed ranking; bad
// input gets one clear error.
func TestSearchRoutingCommand(t *testing.T) {
	stdout, stderr, err := runApp(t, "search", "--config", "smoke", "--routing", "--terminals", "W,h", "--ranking", "fifo", "--depth", "1", "--top", "2")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	for _, want := range []string{"search over routing trees R on terminals [W,h], depth ≤ 1, scheduler rule(R, scope arrivals) + ranking fifo: 2 trees",
		"R = W", "R = h", "the best baseline"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--routing", "--terminals", "W,e"}, `"e"`},
		{[]string{"--routing", "--terminals", "W,m", "--scope", "all", "sim.backfill=strict"}, "backfill strict"},
		{[]string{"--routing"}, "no routing terminals"},
		{[]string{"--ranking", "srsf"}, "add --routing"},
	} {
		args := append([]string{"search", "--config", "smoke", "--depth", "1"}, c.args...)
		if _, _, err := runApp(t, args...); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want an error with %q", c.args, err, c.want)
		}
	}
}

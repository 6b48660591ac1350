package main

import (
	"strings"
	"testing"
)

// expr simplify and expr eval read routing formulas with --routing (issue
// 44: "unknown variable m"); without it a routing formula is refused with
// a hint, and the routing terminals are checked like the ranking ones.
func TestExprRouting(t *testing.T) {
	out, _, err := runApp(t, "expr", "simplify", "--routing", "--domain", "m + W % (C - C)")
	if err != nil || out != "W + m\n" {
		t.Errorf("simplify --routing --domain: %v %q", err, out)
	}
	out, _, err = runApp(t, "expr", "simplify", "m*1 + W*0", "--routing", "--format", "go")
	if err != nil || !strings.Contains(out, "func routing(") {
		t.Errorf("simplify --routing --format go after the formula: %v %q", err, out)
	}
	if _, _, err := runApp(t, "expr", "simplify", "--domain", "m + W"); err == nil || !strings.Contains(err.Error(), "add --routing") {
		t.Errorf("a routing formula without --routing: %v", err)
	}
	out, _, err = runApp(t, "expr", "eval", "--routing", "m + 2*W", "m=1.5", "W=0.25")
	if err != nil || out != "2\n" {
		t.Errorf("eval --routing: %v %q", err, out)
	}
	// f is free GPUs of the cluster in a routing tree, a job feature in a
	// ranking tree: the same name, read in the chosen catalogue.
	out, _, err = runApp(t, "expr", "eval", "--routing", "f + C", "f=3", "C=8")
	if err != nil || out != "11\n" {
		t.Errorf("eval --routing f + C: %v %q", err, out)
	}
	for _, c := range [][]string{
		{"expr", "eval", "--routing", "m + 2*W", "m=1"},  // W missing
		{"expr", "eval", "--routing", "m", "m=1", "m=2"}, // twice
		{"expr", "eval", "--routing", "m", "m=1", "e=2"}, // e is no routing terminal
		{"expr", "eval", "m + 1", "m=1"},                 // m is no ranking terminal
	} {
		if _, _, err := runApp(t, c...); err == nil {
			t.Errorf("%v accepted", c)
		}
	}
}

package main

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestPressureBadInput(t *testing.T) {
	out := filepath.Join(t.TempDir(), "p")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--intervals", "60,x"}, "pressure.intervals[1] wants a number"},
		{[]string{"--intervals", "0"}, "pressure.intervals: 0 must be > 0"},
		{[]string{"--seeds", "0"}, "seeds"},
		{[]string{"--config", "nope"}, "nope"},
		{[]string{"--schedulers", "fastest"}, "unknown scheduler"},
		{[]string{"--objective", "both"}, "objective"},
	} {
		_, _, err := runApp(t, append([]string{"pressure", "--quiet", "--out", out, "--jobs", "5"}, c.args...)...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: err = %v, want %q", c.args, err, c.want)
		}
		assertAbsent(t, out)
	}
	help, _, err := runApp(t, "pressure", "--help")
	if err != nil || !strings.Contains(help, "Examples:") {
		t.Fatalf("help: %v", err)
	}
}

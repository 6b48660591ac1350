package main

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestExportBadInput(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.txt")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{writeBest(t, `{"infix": `)}, "not valid JSON"},
		{[]string{writeBest(t, `{"simplified": "d"}`)}, `no "infix"`},
		{[]string{writeBest(t, `{"infix": "d +"}`)}, "column"},
		{[]string{writeBest(t, `{"infix": "d"}`), "--format", "yaml"}, "yaml"},
		{[]string{filepath.Join(dir, "absent")}, "absent"},
		{[]string{}, "give one"},
	} {
		_, _, err := runApp(t, append([]string{"export", "--out", out}, c.args...)...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: err = %v, want %q", c.args, err, c.want)
		}
		assertAbsent(t, out)
	}
	help, _, err := runApp(t, "export", "--help")
	if err != nil || !strings.Contains(help, "Examples:") {
		t.Fatalf("help: %v", err)
	}
}

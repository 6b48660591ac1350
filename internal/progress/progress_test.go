package progress

import (
	"bytes"
	"strings"
	"testing"
)

func TestPlainLogWhenNotTerminal(t *testing.T) {
	var buf bytes.Buffer
	no := false
	r := New("simulate", 3, Options{Out: &buf, Terminal: &no})
	r.Add(1)
	r.Add(2)
	r.Finish()
	out := buf.String()
	if !strings.Contains(out, "msg=simulate") || !strings.Contains(out, "done=3") {
		t.Fatalf("want a plain slog line at completion, got %q", out)
	}
	if strings.Contains(out, "\r") {
		t.Fatal("plain mode must not write carriage returns")
	}
}

func TestBarWhenTerminal(t *testing.T) {
	var buf bytes.Buffer
	yes := true
	r := New("simulate", 2, Options{Out: &buf, Terminal: &yes})
	r.Add(2)
	r.Finish()
	if strings.Contains(buf.String(), "msg=") {
		t.Fatal("terminal mode must draw a bar, not log lines")
	}
}

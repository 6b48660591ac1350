package progress

import (
	"bytes"
	"strings"
	"testing"
	"time"
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

// Tick writes a log line with the status once the interval has passed,
// without counting a step.
func TestTickLogsInsideAStep(t *testing.T) {
	var b strings.Builder
	no := false
	r := New("eval", 2, Options{Out: &b, Terminal: &no, Every: time.Nanosecond})
	time.Sleep(time.Millisecond)
	r.Tick("inst-0: simulated 3.0 h, 10/20 jobs finished")
	if !strings.Contains(b.String(), "simulated 3.0 h") || !strings.Contains(b.String(), "done=0") {
		t.Fatalf("no tick line: %q", b.String())
	}
	q := New("eval", 2, Options{Out: &b, Terminal: &no, Quiet: true})
	n := b.Len()
	q.Tick("x")
	if b.Len() != n {
		t.Fatal("a quiet reporter wrote a tick")
	}
}

package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// issue 32 item 13: `data gen` stops within a second of SIGINT or SIGTERM,
// leaves no dataset and no temporary directory, prints no "wrote", and
// exits 130 / 143. (It used to generate and write all 150000 instances,
// about 20 s, and print "wrote" first.)
func TestDataGenStopsOnSignal(t *testing.T) {
	bin := buildEvogp(t)
	for _, c := range []struct {
		sig  syscall.Signal
		want int
	}{{syscall.SIGINT, 130}, {syscall.SIGTERM, 143}} {
		dir := t.TempDir()
		cmd := exec.Command(bin, "data", "gen", "--config", "smoke", "--instances", "150000", "--out", filepath.Join(dir, "g"))
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Second)
		if err := cmd.Process.Signal(c.sig); err != nil {
			t.Fatal(err)
		}
		sent := time.Now()
		err := cmd.Wait()
		took := time.Since(sent)
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != c.want {
			t.Fatalf("%v: exit %v, want code %d\n%s", c.sig, err, c.want, stderr.String())
		}
		if took > time.Second {
			t.Errorf("%v: stopped %v after the signal, want < 1 s", c.sig, took)
		}
		if strings.Contains(stdout.String(), "wrote") {
			t.Errorf("%v: printed %q", c.sig, stdout.String())
		}
		if left, _ := os.ReadDir(dir); len(left) != 0 {
			t.Errorf("%v: left %v in the output's parent", c.sig, left)
		}
	}
}

// issue 32 item 11: `expr simplify` on a formula nested too deep reports
// the reason and the column with a bounded excerpt, not the whole 200 KB
// formula.
func TestExprDeepNestingErrorIsShort(t *testing.T) {
	depth := 50_000
	formula := strings.Repeat("(", depth) + "d" + strings.Repeat(")", depth)
	_, _, err := runApp(t, "expr", "simplify", formula)
	if err == nil || !strings.Contains(err.Error(), "nested more than 1000 levels deep") {
		t.Fatalf("got %v", err)
	}
	if len(err.Error()) > 300 {
		t.Errorf("the error is %d bytes long", len(err.Error()))
	}
	if !strings.Contains(err.Error(), "column 1002") {
		t.Errorf("%s does not name the column", err)
	}
}

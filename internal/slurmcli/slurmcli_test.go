package slurmcli

import (
	"context"
	"errors"
	"strings"
	"testing"
)

func TestLineQuotes(t *testing.T) {
	got := Line("squeue", "-h", "-o", "%i|%P", "-p", "a b")
	want := `squeue -h -o '%i|%P' -p 'a b'`
	if got != want {
		t.Fatalf("Line = %s, want %s", got, want)
	}
}

func TestFakeRecordsAndAnswers(t *testing.T) {
	f := &Fake{Handle: func(name string, args []string) ([]byte, error) {
		if name == "scontrol" {
			return nil, errors.New("denied")
		}
		return []byte(name + " " + strings.Join(args, ",")), nil
	}}
	out, err := f.Run(context.Background(), "sinfo", "-h")
	if err != nil || string(out) != "sinfo -h" {
		t.Fatalf("sinfo: %q %v", out, err)
	}
	if _, err := f.Run(context.Background(), "scontrol", "update"); err == nil {
		t.Fatal("scontrol: no error")
	}
	if c := f.Calls(); len(c) != 2 || c[1] != "scontrol update" {
		t.Fatalf("calls %q", c)
	}
}

func TestExecReportsMissingAndFailing(t *testing.T) {
	_, err := Exec{}.Run(context.Background(), "evogp-no-such-command-xyz")
	if !errors.Is(err, ErrNotInstalled) {
		t.Fatalf("missing command: %v", err)
	}
	_, err = Exec{}.Run(context.Background(), "sh", "-c", "echo oops >&2; exit 3")
	var ce *CommandError
	if !errors.As(err, &ce) || ce.Stderr != "oops" || !strings.Contains(err.Error(), "sh -c") {
		t.Fatalf("failing command: %v", err)
	}
}

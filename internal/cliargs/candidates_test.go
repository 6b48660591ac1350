package cliargs

import (
	"reflect"
	"testing"
)

func TestCandidates(t *testing.T) {
	values := func(flag string) []string {
		if flag == "scheduler" {
			return []string{"fifo", "hydra"}
		}
		return nil
	}
	flags, subs := []string{"dataset", "scheduler"}, []string{"gen", "import"}
	for last, want := range map[string][]string{
		"":            subs,
		"data":        subs,
		"--scheduler": {"fifo", "hydra"},
		"-scheduler":  {"fifo", "hydra"},
		"--sch":       {"--dataset", "--scheduler"},
		"--dataset":   {"--dataset", "--scheduler"},
	} {
		if got := Candidates(last, values, flags, subs); !reflect.DeepEqual(got, want) {
			t.Errorf("after %q: %q, want %q", last, got, want)
		}
	}
}

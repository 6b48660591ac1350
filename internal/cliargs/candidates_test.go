package cliargs

import (
	"reflect"
	"strings"
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

func TestCompletionScript(t *testing.T) {
	fish := func() (string, error) { return "complete -c evogp\n", nil }
	bash, err := CompletionScript([]string{"bash"}, fish)
	if err != nil || !strings.Contains(bash, "complete -o default -F _evogp_complete evogp") {
		t.Fatalf("bash: %v\n%s", err, bash)
	}
	zsh, err := CompletionScript([]string{"zsh"}, fish)
	if err != nil || zsh != "autoload -U +X bashcompinit && bashcompinit\n"+bash {
		t.Fatalf("zsh: %v\n%s", err, zsh)
	}
	if s, err := CompletionScript([]string{"fish"}, fish); err != nil || s != "complete -c evogp\n" {
		t.Fatalf("fish: %q, %v", s, err)
	}
	for _, args := range [][]string{nil, {"bash", "zsh"}, {"tcsh"}} {
		if _, err := CompletionScript(args, fish); err == nil {
			t.Errorf("%q: no error", args)
		}
	}
}

package cliargs

import (
	"strings"
	"testing"
)

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

func TestManPage(t *testing.T) {
	toMan := func() (string, error) { return ".TH evogp 1\n", nil }
	if s, err := ManPage(nil, toMan); err != nil || s != ".TH evogp 1\n" {
		t.Fatalf("ManPage = %q, %v", s, err)
	}
	if _, err := ManPage([]string{"x"}, toMan); err == nil || err.Error() != `man: unexpected argument "x"` {
		t.Errorf("an argument: %v", err)
	}
}

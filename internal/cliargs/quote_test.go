package cliargs

import (
	"os/exec"
	"testing"
)

// A quoted word is read back by sh as the word itself.
func TestShellQuote(t *testing.T) {
	if got := ShellQuote("it's a b"); got != `'it'\''s a b'` {
		t.Errorf("ShellQuote = %s", got)
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	for _, w := range []string{"", "a b", "it's", `$HOME "x" \n`, "'", "a\nb", "*"} {
		out, err := exec.Command(sh, "-c", "printf %s "+ShellQuote(w)).Output()
		if err != nil || string(out) != w {
			t.Errorf("%q → %s → %q, %v", w, ShellQuote(w), out, err)
		}
	}
}

package experiment

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// issue 32 item 9: in --schedulers mine=d, a directory named d in the
// working directory used to be read as a run, silently shadowing the
// formula d. A bare SOURCE that is both is now refused, naming both
// readings; run: and formula: choose one; the documented forms keep
// working.
func TestFormulaSourceAmbiguity(t *testing.T) {
	dir := t.TempDir()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chdir(wd) })
	for _, run := range []string{"d", "myrun"} {
		if err := os.Mkdir(run, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(run, "best.json"), []byte(`{"infix": "q * g"}`), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, _, err = FormulaSource("d")
	if err == nil || !strings.Contains(err.Error(), "both a formula and a directory") || !strings.Contains(err.Error(), "formula:d") {
		t.Fatalf("bare d beside a directory d: got %v, want the ambiguity refused", err)
	}
	if _, err := ParsePolicies("mine=d", false, false); err == nil {
		t.Error("--schedulers mine=d beside a directory d was accepted")
	}
	for _, c := range []struct{ source, want string }{
		{"formula:d", "d"},
		{"run:d", "q * g"},
		{"./d", "q * g"},
		{"d/best.json", "q * g"},
		{"myrun", "q * g"},     // a bare run directory that is no formula
		{"d * u", "d * u"},     // a formula that is no directory
		{"q", "q"},             // no directory q here
		{"run:myrun", "q * g"}, // the prefix on an unambiguous run
	} {
		f, _, err := FormulaSource(c.source)
		if err != nil || f != c.want {
			t.Errorf("%s: got %q, %v; want %q", c.source, f, err, c.want)
		}
	}
	for _, bad := range []string{"run:nope", "formula:x +"} {
		if _, _, err := FormulaSource(bad); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}

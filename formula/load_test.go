package formula

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evogp/evogp/configs"
)

// Source reads a run directory, a best.json with or without the run's
// config beside it, or an inline formula, and refuses what is none of
// them.
func TestSource(t *testing.T) {
	run := t.TempDir()
	if err := os.WriteFile(filepath.Join(run, BestFile), []byte(`{"infix": "g * d - q"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := configs.Default()
	cfg.GP.TimeUnit = "seconds"
	b, err := cfg.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(run, ConfigFile), b, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, src := range []string{run, filepath.Join(run, BestFile)} {
		infix, seconds, err := Source(src)
		if err != nil || infix != "g * d - q" || seconds == nil || !*seconds {
			t.Fatalf("%s: %q %v %v", src, infix, seconds, err)
		}
	}
	lone := filepath.Join(t.TempDir(), "mine.json")
	if err := os.WriteFile(lone, []byte(`{"infix": "d"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if infix, seconds, err := Source(lone); err != nil || infix != "d" || seconds != nil {
		t.Fatalf("lone best.json: %q %v %v", infix, seconds, err)
	}
	if infix, seconds, err := Source("q + u"); err != nil || infix != "q + u" || seconds != nil {
		t.Fatalf("inline: %q %v %v", infix, seconds, err)
	}
	bad := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(bad, []byte(`{"tree": null}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for src, want := range map[string]string{
		bad:             `no "infix" formula`,
		"no/such/run":   "is neither a run directory or best.json nor a formula",
		"d +":           `formula "d +"`,
		run + "/x.json": "read best.json",
	} {
		if _, _, err := Source(src); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error with %q", src, err, want)
		}
	}
}

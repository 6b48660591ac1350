package tracefiles

import (
	"os"
	"path/filepath"
	"testing"
)

// Philly returns the path of a file of the Philly trace directory:
// $EVOGP_PHILLY_DIR when set, else ../shared/traces/philly beside the
// repository root (the directory holding go.mod, found by walking up from
// the test's working directory). The test is skipped when the file is
// absent.
func Philly(t testing.TB, name string) string {
	t.Helper()
	dir := os.Getenv("EVOGP_PHILLY_DIR")
	if dir == "" {
		root, err := os.Getwd()
		if err != nil {
			t.Fatal(err)
		}
		for {
			if _, err := os.Stat(filepath.Join(root, "go.mod")); err == nil {
				break
			}
			parent := filepath.Dir(root)
			if parent == root {
				t.Skipf("no go.mod above the test directory, cannot locate the Philly trace; set EVOGP_PHILLY_DIR")
			}
			root = parent
		}
		dir = filepath.Join(root, "..", "shared", "traces", "philly")
	}
	p := filepath.Join(dir, name)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("Philly trace file %s is absent (%v): copy the trace to ../shared/traces/philly or set EVOGP_PHILLY_DIR", p, err)
	}
	return p
}

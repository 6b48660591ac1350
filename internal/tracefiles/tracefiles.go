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
	return Shared(t, "EVOGP_PHILLY_DIR", "philly", name)
}

// Shared returns the path of sub (a file or directory) under the shared
// trace directory dir (../shared/traces/<dir> beside the repository root,
// the directory holding go.mod, found by walking up from the test's
// working directory); the environment variable env, when set, replaces
// the trace directory. The test is skipped when the path is absent.
func Shared(t testing.TB, env, dir, sub string) string {
	t.Helper()
	base := os.Getenv(env)
	if base == "" {
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
				t.Skipf("no go.mod above the test directory, cannot locate the shared traces; set %s", env)
			}
			root = parent
		}
		base = filepath.Join(root, "..", "shared", "traces", dir)
	}
	p := filepath.Join(base, sub)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("trace %s is absent (%v): copy the traces to ../shared/traces/%s or set %s", p, err, dir, env)
	}
	return p
}

package datasets

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The output checks of the data commands: formats, split labels, and a
// new or empty --out directory only.
func TestOutputChecks(t *testing.T) {
	if CheckFormat(FormatParquet) != nil || CheckFormat(FormatCSV) != nil {
		t.Error("a known format refused")
	}
	if err := CheckFormat("xlsx"); err == nil || !strings.Contains(err.Error(), `--format "xlsx"`) {
		t.Errorf("xlsx: %v", err)
	}
	for s, ok := range map[string]bool{"train": true, "a.b_c-1": true, "": false, "-x": false, "a/b": false, "é": false, "x y": false} {
		if ValidSplit(s) != ok {
			t.Errorf("ValidSplit(%q) = %v", s, !ok)
		}
	}
	dir := t.TempDir()
	if err := CheckNewDir(filepath.Join(dir, "new")); err != nil {
		t.Errorf("absent: %v", err)
	}
	if err := CheckNewDir(dir); err != nil {
		t.Errorf("empty: %v", err)
	}
	f := filepath.Join(dir, "f")
	os.WriteFile(f, nil, 0o644)
	if err := CheckNewDir(f); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("file: %v", err)
	}
	if err := CheckNewDir(dir); err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Errorf("non-empty: %v", err)
	}
}

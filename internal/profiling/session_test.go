package profiling

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestSession: a session writes the profiles asked for, none when no path
// is given, and names the failing one in its error.
func TestSession(t *testing.T) {
	dir := t.TempDir()
	s := &Session{CPUPath: filepath.Join(dir, "cpu.pprof"), HeapPath: filepath.Join(dir, "mem.pprof"), CPUName: "--cpuprofile", HeapName: "--memprofile"}
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	readProfile(t, s.CPUPath)
	readProfile(t, s.HeapPath)
	if err := (&Session{}).Start(); err != nil {
		t.Errorf("no paths: %v", err)
	}
	bad := &Session{HeapPath: filepath.Join(dir, "missing", "mem.pprof"), HeapName: "--memprofile"}
	if err := bad.Stop(); err == nil || !strings.HasPrefix(err.Error(), "--memprofile: ") {
		t.Errorf("unwritable heap profile: %v", err)
	}
}

package profiling

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// readProfile checks that path holds a gzip-compressed, non-empty profile.
func readProfile(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("%s is not a gzip-compressed profile: %v", path, err)
	}
	if raw, err := io.ReadAll(zr); err != nil || len(raw) == 0 {
		t.Fatalf("%s: %d bytes, %v", path, len(raw), err)
	}
}

func TestCPUAndHeap(t *testing.T) {
	dir := t.TempDir()
	p, err := StartCPU()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := StartCPU(); err == nil {
		t.Error("a second CPU profile started while one runs")
	}
	sum := 0
	for i := range 1_000_000 {
		sum += i % 7
	}
	_ = sum
	cpu := filepath.Join(dir, "cpu.pprof")
	if err := p.Stop(cpu); err != nil {
		t.Fatal(err)
	}
	readProfile(t, cpu)
	heap := filepath.Join(dir, "heap.pprof")
	if err := WriteHeap(heap); err != nil {
		t.Fatal(err)
	}
	readProfile(t, heap)
}

// TestUnwritablePath: a profile that cannot be written is an error and
// leaves no file.
func TestUnwritablePath(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "missing", "p.pprof")
	p, err := StartCPU()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Stop(bad); err == nil {
		t.Error("CPU profile to a missing directory: no error")
	}
	if err := WriteHeap(bad); err == nil {
		t.Error("heap profile to a missing directory: no error")
	}
	if _, err := os.Stat(bad); err == nil {
		t.Errorf("a profile was written to %s", bad)
	}
}

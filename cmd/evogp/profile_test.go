package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestProfileFlags checks that --cpuprofile and --memprofile write
// well-formed (gzip-compressed protobuf) profiles of a real command, and
// that a profile that cannot be written is an error naming the flag.
func TestProfileFlags(t *testing.T) {
	dir := t.TempDir()
	cpu, mem := filepath.Join(dir, "cpu.pprof"), filepath.Join(dir, "mem.pprof")
	data := filepath.Join(dir, "data")
	if _, _, err := runApp(t, "--cpuprofile", cpu, "--memprofile", mem,
		"data", "gen", "--config", "quick", "--instances", "2", "--out", data, "generator.jobs=200"); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{cpu, mem} {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s is not a gzip-compressed profile: %v", p, err)
		}
		raw, err := io.ReadAll(zr)
		if err != nil || len(raw) == 0 {
			t.Fatalf("%s: %d bytes, %v", p, len(raw), err)
		}
	}
	if entries, err := os.ReadDir(data); err != nil || len(entries) == 0 {
		t.Fatalf("the profiled command wrote nothing: %v", err)
	}

	bad := filepath.Join(dir, "missing", "cpu.pprof")
	_, _, err := runApp(t, "--cpuprofile", bad, "data", "gen", "--config", "quick", "--instances", "1",
		"--out", filepath.Join(dir, "data2"), "generator.jobs=50")
	if err == nil || !strings.Contains(err.Error(), "--cpuprofile") {
		t.Errorf("unwritable --cpuprofile: %v", err)
	}
	if _, err := os.Stat(bad); err == nil {
		t.Errorf("a profile was written to %s", bad)
	}
}

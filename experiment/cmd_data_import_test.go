package experiment

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evogp/evogp/datasets"
	"github.com/evogp/evogp/datasets/philly"
)

// TestDataImportCommandsRefuseBadInput: the checks made before a trace is
// read, each with its message, nothing printed and nothing written.
func TestDataImportCommandsRefuseBadInput(t *testing.T) {
	dir := t.TempDir()
	full := filepath.Join(dir, "full")
	if err := os.MkdirAll(full, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(full, "x"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	pq := datasets.FormatParquet
	phillyCases := []struct {
		o    DataImportPhillyCommand
		want string
	}{
		{DataImportPhillyCommand{CommandLine: philly.CommandLine{In: "a.csv"}, Out: out, Format: "xlsx"}, "xlsx"},
		{DataImportPhillyCommand{CommandLine: philly.CommandLine{In: "a.csv"}, Out: full, Format: pq}, full},
		{DataImportPhillyCommand{CommandLine: philly.CommandLine{In: filepath.Join(dir, "missing.csv")}, Out: out, Format: pq}, "--in: "},
		{DataImportPhillyCommand{CommandLine: philly.CommandLine{In: dir}, Out: out, Format: pq}, "--in " + dir + ": is a directory, want the trace CSV"},
	}
	for _, c := range phillyCases {
		var w strings.Builder
		if err := RunDataImportPhillyCommand(c.o, &w); err == nil || !strings.Contains(err.Error(), c.want) || w.Len() != 0 {
			t.Errorf("philly %+v: %v (printed %q), want %q", c.o, err, w.String(), c.want)
		}
	}
	hydraCases := []struct {
		o    DataImportHydraCommand
		want string
	}{
		{DataImportHydraCommand{In: "a.csv", Out: out, GPUs: "A100=1", Format: "xlsx"}, "xlsx"},
		{DataImportHydraCommand{In: "a.csv", Out: out, GPUs: "", Format: pq}, "gpus"},
		{DataImportHydraCommand{In: "a.csv", Out: out, GPUs: "A100=1", Jobs: -1, Format: pq}, "--jobs -1: must be ≥ 1"},
		{DataImportHydraCommand{In: "a.csv", Out: full, GPUs: "A100=1", Format: pq}, full},
	}
	for _, c := range hydraCases {
		var w strings.Builder
		if err := RunDataImportHydraCommand(c.o, &w); err == nil || !strings.Contains(err.Error(), c.want) || w.Len() != 0 {
			t.Errorf("hydra %+v: %v (printed %q), want %q", c.o, err, w.String(), c.want)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("a refused import wrote %s", out)
	}
}

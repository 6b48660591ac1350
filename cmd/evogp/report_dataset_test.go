package main

import (
	"os"
	"strings"
	"testing"
)

// evogp report on a dataset directory says it is a dataset and how to
// evaluate it (not "missing column scheduler"), and writes nothing there.
func TestReportOnDatasetDirectory(t *testing.T) {
	ds := smokeDataset(t)
	before, _ := os.ReadDir(ds)
	_, _, err := runApp(t, "report", ds)
	if err == nil || !strings.Contains(err.Error(), "a dataset directory") || !strings.Contains(err.Error(), "evogp eval --dataset "+ds) {
		t.Fatalf("got %v", err)
	}
	if after, _ := os.ReadDir(ds); len(after) != len(before) {
		t.Errorf("report wrote into the dataset: %d → %d entries", len(before), len(after))
	}
}

package main

import (
	"strings"
	"testing"
)

func TestSimulateWithEstimates(t *testing.T) {
	dir := writeHandDataset(t)
	out, errOut, err := runApp(t, "simulate", "--dataset", dir, "--scheduler", "user+sjf+bestfit", "--json",
		"--estimates", "noise:lognormal:0.5", "--estimates-seed", "7")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(errOut, "estimates: lognormal:0.5, 3 jobs") || out == "" {
		t.Errorf("stderr %q stdout %q", errOut, out)
	}
	out, _, err = runApp(t, "simulate", "--dataset", dir, "--estimates", "noise:normal:1")
	if err == nil || out != "" || !strings.Contains(err.Error(), `unknown distribution "normal"`) {
		t.Errorf("bad spec: %v, output %q", err, out)
	}
	out, _, err = runApp(t, "simulate", "--dataset", dir, "--estimates", "column")
	if err == nil || out != "" {
		t.Errorf("column on a dataset without estimates: %v, output %q", err, out)
	}
}

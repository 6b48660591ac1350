package experiment

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/evogp/evogp/estimate"
)

// TestEstimateCommandMatchesLibrary: the command's output for a file and a
// directory is what the estimate package's own functions write for the
// same series and options.
func TestEstimateCommandMatchesLibrary(t *testing.T) {
	ctx := t.Context()
	opts := estimate.DefaultOptions()
	for _, path := range []string{filepath.Join(estimateSeries, "run1", "img_arch_resnet_gpu_2.csv"), estimateSeries} {
		for _, asJSON := range []bool{false, true} {
			var got, errw strings.Builder
			o := EstimateCommand{Args: []string{path}, Methods: "adaptive, head", Options: opts, JSON: asJSON}
			if err := RunEstimateCommand(ctx, o, &got, &errw); err != nil {
				t.Fatal(err)
			}
			series, files, isDir, err := estimate.ReadPath(path)
			if err != nil {
				t.Fatal(err)
			}
			ev, err := estimate.Evaluate(ctx, series, files, estimate.EvaluateOptions{Options: opts, Methods: []string{"adaptive", "head"}})
			if err != nil {
				t.Fatal(err)
			}
			var want strings.Builder
			switch {
			case asJSON:
				err = estimate.WriteJSON(&want, ev.Rows)
			case isDir:
				err = ev.WriteSummaryTable(&want, len(series))
			default:
				err = estimate.WriteSeriesTable(&want, ev.Rows)
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.String() != want.String() || got.Len() == 0 {
				t.Errorf("%s json=%v: command wrote\n%s\nlibrary\n%s", path, asJSON, got.String(), want.String())
			}
		}
	}
	for _, args := range [][]string{nil, {"a", "b"}} {
		if err := RunEstimateCommand(ctx, EstimateCommand{Args: args}, &strings.Builder{}, &strings.Builder{}); err == nil || !strings.Contains(err.Error(), "estimate: want one FILE or DIR argument") {
			t.Errorf("%q: %v", args, err)
		}
	}
}

// TestApplyEstimatesQuiet: the summary line goes to errw unless Quiet; the
// estimates are drawn either way.
func TestApplyEstimatesQuiet(t *testing.T) {
	for _, quiet := range []bool{false, true} {
		insts := estimateInstances()
		var errw strings.Builder
		if err := ApplyEstimates(t.Context(), EstimatesChoice{Source: "noise:uniform:0.5", Seed: 1, Quiet: quiet}, insts, &errw); err != nil {
			t.Fatal(err)
		}
		if quiet != (errw.Len() == 0) || !quiet && !strings.HasPrefix(errw.String(), "estimates: uniform:0.5, 20 jobs") {
			t.Errorf("quiet=%v: %q", quiet, errw.String())
		}
		for _, j := range insts[0].Jobs {
			if j.Estimate <= 0 {
				t.Fatalf("quiet=%v: job %d has no estimate", quiet, j.ID)
			}
		}
	}
	if err := ApplyEstimates(t.Context(), EstimatesChoice{Source: "exact"}, estimateInstances(), &strings.Builder{}); err == nil {
		t.Error("a bad source was accepted")
	}
}

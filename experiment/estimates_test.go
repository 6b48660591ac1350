package experiment

import (
	"context"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evogp/evogp/estimate"
	"github.com/evogp/evogp/simcore"
)

// estimateSeries are the iteration-time series of the estimate command's
// tests.
var estimateSeries = filepath.Join("testdata", "estimate", "series")

func TestParseEstimateSource(t *testing.T) {
	good := map[string]string{"none": "none", "": "none", "column": "column", "noise:lognormal:0.5": "model",
		"noise:uniform:0.2": "model", "empirical:adaptive:some/dir": "model", "empirical:head:C:/x": "model"}
	for spec, kind := range good {
		src, err := ParseEstimateSource(spec)
		if err != nil || src.Kind != kind {
			t.Errorf("%q: %+v %v", spec, src, err)
		}
	}
	if src, _ := ParseEstimateSource("empirical:head:C:/x"); src.Method != "head" || src.Dir != "C:/x" {
		t.Errorf("empirical split: %+v", src)
	}
	for _, bad := range []string{"exact", "noise:gamma:1", "noise:lognormal:-1", "empirical:tail:d", "empirical:adaptive", "empirical:adaptive:"} {
		if _, err := ParseEstimateSource(bad); err == nil || !strings.Contains(err.Error(), "--estimates") && !strings.Contains(err.Error(), "error model") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

func estimateInstances() []simcore.Instance {
	in := simcore.Instance{Name: "i", Clusters: []simcore.Cluster{{Nodes: 1, GPUsPerNode: 4}}}
	for k := range 20 {
		in.Jobs = append(in.Jobs, simcore.Job{ID: int64(k), Duration: int64(1000 + 100*k), Workers: 1, GPUs: 1, Priority: 1})
	}
	return []simcore.Instance{in}
}

func TestFillEstimatesSources(t *testing.T) {
	ctx := context.Background()
	insts := estimateInstances()
	if _, err := FillEstimates(ctx, EstimateSource{Kind: "column"}, 1, false, insts); err == nil || !strings.Contains(err.Error(), "no job of the dataset has an estimate") {
		t.Errorf("column without estimates: %v", err)
	}
	src, _ := ParseEstimateSource("noise:uniform:0.5")
	line, err := FillEstimates(ctx, src, 1, false, insts)
	if err != nil || !strings.HasPrefix(line, "estimates: uniform:0.5, 20 jobs, mean |d̂ − d|/d = 0.") {
		t.Fatalf("%q %v", line, err)
	}
	differ := 0
	for _, j := range insts[0].Jobs {
		if r := float64(j.Estimate) / float64(j.Duration); r < 0.49 || r > 1.51 {
			t.Errorf("job %d: ratio %v", j.ID, r)
		}
		if j.Estimate != j.Duration {
			differ++
		}
	}
	if differ < 15 {
		t.Errorf("only %d of 20 estimates differ from the truth", differ)
	}
	if line, err := FillEstimates(ctx, EstimateSource{Kind: "column"}, 1, false, insts); err != nil || line == "" {
		t.Errorf("column after a fill: %q %v", line, err)
	}
	if _, err := FillEstimates(ctx, EstimateSource{Kind: "none"}, 1, false, insts); err != nil {
		t.Fatal(err)
	}
	for _, j := range insts[0].Jobs {
		if j.Estimate != 0 {
			t.Fatalf("none left estimate %d", j.Estimate)
		}
	}
	// Empirical: the factors are 1 + the adaptive errors on the test series.
	src, _ = ParseEstimateSource("empirical:adaptive:" + estimateSeries)
	if line, err := FillEstimates(ctx, src, 1, false, insts); err != nil || !strings.HasPrefix(line, "estimates: empirical:adaptive:"+estimateSeries) {
		t.Fatalf("%q %v", line, err)
	}
	series, files, err := estimate.ReadDir(estimateSeries)
	if err != nil {
		t.Fatal(err)
	}
	ev, err := estimate.Evaluate(ctx, series, files, estimate.EvaluateOptions{Options: estimate.DefaultOptions(), Methods: []string{"adaptive"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range insts[0].Jobs {
		ok := false
		for _, r := range ev.Rows {
			if math.Abs(float64(j.Estimate)-float64(j.Duration)*(1+r.Error)) <= 0.5 {
				ok = true
			}
		}
		if !ok {
			t.Errorf("job %d: estimate %d of %d is no measured error", j.ID, j.Estimate, j.Duration)
		}
	}
	src, _ = ParseEstimateSource("empirical:adaptive:" + t.TempDir())
	if _, err := FillEstimates(ctx, src, 1, false, insts); err == nil || !strings.Contains(err.Error(), "no .csv files") {
		t.Errorf("empty directory: %v", err)
	}
}

package reports

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

func TestEstimateErrorCDFPlot(t *testing.T) {
	methods := []string{"adaptive", "head", "random"}
	apes := [][]float64{{0, 1, 2, 3}, {10, 20, 40, 80}, {3, 6, 9, 12}} // 0 = exact, drawn at apeFloor
	f, err := EstimateErrorCDFPlot(methods, apes)
	if err != nil {
		t.Fatal(err)
	}
	a, err := f.Render("svg")
	if err != nil {
		t.Fatal(err)
	}
	again, _ := EstimateErrorCDFPlot(methods, apes)
	b, _ := again.Render("svg")
	if !bytes.Equal(a, b) {
		t.Fatal("same data, different SVG bytes")
	}
	svg := string(a)
	for _, want := range []string{"Duration-estimate error", "absolute percentage error (%, log scale)", "adaptive (4 series)", "head (4 series)", "random (4 series)"} {
		if !strings.Contains(svg, want) {
			t.Errorf("SVG lacks %q", want)
		}
	}
	if f.Name != "estimate_error_cdf" {
		t.Errorf("name %q", f.Name)
	}
	for _, bad := range [][][]float64{{{1}, {2}}, {{1}, {math.NaN()}, {1}}, {{1}, {-1}, {1}}, {{}, {}, {}}} {
		if _, err := EstimateErrorCDFPlot(methods, bad); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
}

func TestStabilityPlot(t *testing.T) {
	tr := StabilityTrace{Name: "stats/gan_arch_gan_gpu_1.csv", Times: []float64{2.7, 0.75, 0.74, 0.75, 0.76, 0.75, 0.75, 0.74},
		Unit: "s", StableAt: 2, SampleFrom: 2, SampleTo: 5, Observed: 6}
	f, err := StabilityPlot(tr)
	if err != nil {
		t.Fatal(err)
	}
	if f.Name != "estimate_stability_stats_gan_arch_gan_gpu_1.csv" {
		t.Errorf("name %q", f.Name)
	}
	data, err := f.Render("svg")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"stable from iteration 2", "sample 2–5", "observed 6 iterations", "iteration time (s, log scale)"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("SVG lacks %q", want)
		}
	}
	tr.StableAt = 0
	f, _ = StabilityPlot(tr)
	data, _ = f.Render("svg")
	if !strings.Contains(string(data), "never stable in the prefix") {
		t.Error("fallback not labelled")
	}
	if _, err := StabilityPlot(StabilityTrace{Name: "x"}); err == nil {
		t.Error("empty series accepted")
	}
	if _, err := StabilityPlot(StabilityTrace{Name: "x", Times: []float64{1, 0}}); err == nil {
		t.Error("zero time accepted")
	}
	// A constant series still gets a y range.
	if f, err := StabilityPlot(StabilityTrace{Name: "c", Times: []float64{1, 1, 1}}); err != nil {
		t.Fatal(err)
	} else if _, err := f.Render("png"); err != nil {
		t.Fatal(err)
	}
}

package experiment

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/evogp/evogp/estimate"
	"github.com/evogp/evogp/internal/tracefiles"
)

var updateEstimateGolden = flag.Bool("update-estimate", false, "rewrite testdata/estimate/*.golden")

// estimateCommand is RunEstimateCommand's options with the CLI's
// defaults (evogp estimate) and the series or directory args.
func estimateCommand(args ...string) EstimateCommand {
	return EstimateCommand{Args: args, Methods: strings.Join(estimate.Methods(), ","), Options: estimate.DefaultOptions()}
}

// smallEstimate is estimateCommand with options that fit the short series
// of testdata/estimate/series (--prefix 12 --head 4 --sample-iters 4 --k 2).
func smallEstimate(args ...string) EstimateCommand {
	o := estimateCommand(args...)
	o.Options.Prefix, o.Options.Head, o.Options.SampleIters, o.Options.K = 12, 4, 4, 2
	return o
}

// runEstimate runs o and returns what it wrote to w and to errw.
func runEstimate(o EstimateCommand) (string, string, error) {
	var w, errw strings.Builder
	err := RunEstimateCommand(context.Background(), o, &w, &errw)
	return w.String(), errw.String(), err
}

func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "estimate", name)
	if *updateEstimateGolden {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update-estimate to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden file:\n--- got\n%s--- want\n%s", name, got, want)
	}
}

func TestEstimateGolden(t *testing.T) {
	cached, jsonLines := smallEstimate(estimateSeries), smallEstimate(estimateSeries)
	cached.Cache, jsonLines.JSON = "model,gpus", true
	cases := []struct {
		golden string
		o      EstimateCommand
	}{
		{"summary.golden", smallEstimate(estimateSeries)},
		{"summary_cache.golden", cached},
		{"file.golden", smallEstimate(estimateSeries + "/run1/img_arch_resnet_gpu_2.csv")},
		{"file_fallback.golden", smallEstimate(estimateSeries + "/run2/img_arch_resnet_gpu_2.csv")},
		{"json.golden", jsonLines},
	}
	for _, c := range cases {
		out, errOut, err := runEstimate(c.o)
		if err != nil {
			t.Fatalf("%s: %v\n%s", c.golden, err, errOut)
		}
		checkGolden(t, c.golden, out)
	}
}

type estimateLine struct {
	File          string  `json:"file"`
	Method        string  `json:"method"`
	EstimateS     float64 `json:"estimate_s"`
	ActualS       float64 `json:"actual_s"`
	Error         float64 `json:"error"`
	OverheadIters int     `json:"overhead_iters"`
	OverheadS     float64 `json:"overhead_s"`
}

// parseEstimateJSON checks that every line is one object with exactly the
// documented keys and returns them.
func parseEstimateJSON(t *testing.T, out string) []estimateLine {
	t.Helper()
	wantKeys := []string{"actual_s", "error", "estimate_s", "file", "method", "overhead_iters", "overhead_s"}
	var lines []estimateLine
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		var raw map[string]any
		if err := json.Unmarshal(sc.Bytes(), &raw); err != nil {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		var keys []string
		for k := range raw {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		if !reflect.DeepEqual(keys, wantKeys) {
			t.Fatalf("keys %v, want %v", keys, wantKeys)
		}
		var l estimateLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatal(err)
		}
		lines = append(lines, l)
	}
	return lines
}

func TestEstimateJSONStructure(t *testing.T) {
	o := smallEstimate(estimateSeries)
	o.JSON = true
	out, _, err := runEstimate(o)
	if err != nil {
		t.Fatal(err)
	}
	lines := parseEstimateJSON(t, out)
	files := []string{"minibatch/job_7_norm.csv", "run1/img_arch_resnet_gpu_2.csv", "run1/img_arch_vgg_gpu_4.csv", "run2/img_arch_resnet_gpu_2.csv"}
	if len(lines) != len(files)*3 {
		t.Fatalf("%d lines, want %d", len(lines), len(files)*3)
	}
	for i, l := range lines {
		if l.File != files[i/3] || l.Method != []string{"adaptive", "head", "random"}[i%3] {
			t.Errorf("line %d: %s %s", i, l.File, l.Method)
		}
		if rel := (l.EstimateS - l.ActualS) / l.ActualS; rel != l.Error {
			t.Errorf("line %d: error %v, (estimate − actual)/actual = %v", i, l.Error, rel)
		}
		if l.OverheadIters < 1 || l.OverheadIters > 12 || l.OverheadS <= 0 {
			t.Errorf("line %d: overhead %d iters %v s", i, l.OverheadIters, l.OverheadS)
		}
	}
	// run1 resnet: cold start 6, 2.5 then ≈ 1 s: actual is the file's sum.
	if l := lines[3]; l.ActualS < 45 || l.ActualS > 50 {
		t.Errorf("actual %v", l.ActualS)
	}
	// Same input and seed, same bytes.
	again, _, _ := runEstimate(o)
	if again != out {
		t.Error("two runs differ")
	}
}

func TestEstimatePlots(t *testing.T) {
	dir := t.TempDir()
	o := smallEstimate(estimateSeries)
	o.Plot, o.PlotSeries = dir, "run2/img_arch_resnet_gpu_2.csv"
	_, errOut, err := runEstimate(o)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"estimate_error_cdf.png", "estimate_error_cdf.svg", "estimate_stability_run2_img_arch_resnet_gpu_2.csv.svg", "estimate_stability_run2_img_arch_resnet_gpu_2.csv.png"} {
		st, err := os.Stat(filepath.Join(dir, name))
		if err != nil || st.Size() == 0 {
			t.Errorf("%s: %v (%s)", name, err, errOut)
		}
	}
	svg, _ := os.ReadFile(filepath.Join(dir, "estimate_stability_run2_img_arch_resnet_gpu_2.csv.svg"))
	if !strings.Contains(string(svg), "never stable in the prefix: sample 9–12") {
		t.Error("stability plot lacks the fallback mark")
	}
	o.Plot, o.PlotSeries = t.TempDir(), "nope.csv"
	if _, _, err := runEstimate(o); err == nil {
		t.Error("unknown plot series accepted")
	}
}

func TestEstimateBadInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.csv")
	os.WriteFile(bad, []byte("iteration,iter_time_s\n0,1\n1,NaN\n"), 0o644)
	short := filepath.Join(dir, "short.csv")
	os.WriteFile(short, []byte("iteration,iter_time_s\n0,1\n1,1\n"), 0o644)
	empty := filepath.Join(t.TempDir(), "empty.csv")
	os.WriteFile(empty, []byte("iteration,iter_time_s\n"), 0o644)
	tail, prefix, user := estimateCommand(short), estimateCommand(short), estimateCommand(short)
	tail.Methods, prefix.Options.Prefix, user.Cache = "tail", 5, "user"
	cases := []struct {
		o    EstimateCommand
		want string
	}{
		{estimateCommand(bad), bad + " line 3: bad series file: iter_time_s: \"NaN\" is not a finite number"},
		{estimateCommand(short), short + ": bad series: 2 iterations, the adaptive method needs at least 10"},
		{estimateCommand(empty), empty + ": bad series file: no iterations after the header"},
		{estimateCommand(dir), "bad.csv line 3"},
		{tail, `unknown method "tail"`},
		{prefix, "prefix = 5"},
		{user, `cache key field "user"`},
		{estimateCommand(), "want one FILE or DIR argument"},
		{estimateCommand(filepath.Join(dir, "missing.csv")), "missing.csv"},
	}
	for _, c := range cases {
		out, _, err := runEstimate(c.o)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: got %v, want %q", c.o, err, c.want)
		}
		if out != "" {
			t.Errorf("%+v: partial output %q", c.o, out)
		}
	}
}

// estimateTraceDir returns the shared iteration-time traces' <sub>
// (../shared/traces/iteration_times beside the repository, or
// $EVOGP_ITERATION_TIMES_DIR), or skips.
func estimateTraceDir(t *testing.T, sub string) string {
	t.Helper()
	return tracefiles.Shared(t, "EVOGP_ITERATION_TIMES_DIR", "iteration_times", sub)
}

// All 58 Chronus series, every method: the table has the three methods
// over 58 series, and the JSON one line per series and method.
func TestEstimateRealChronus(t *testing.T) {
	dir := estimateTraceDir(t, "chronus")
	out, _, err := runEstimate(estimateCommand(dir))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out, "series: 58\n") {
		t.Fatalf("table:\n%s", out)
	}
	for _, m := range []string{"adaptive", "head", "random"} {
		found := false
		for _, line := range strings.Split(out, "\n") {
			if f := strings.Fields(line); len(f) == 10 && f[0] == m && f[1] == "58" {
				found = true
			}
		}
		if !found {
			t.Errorf("no %s row over 58 series:\n%s", m, out)
		}
	}
	all := estimateCommand(dir)
	all.JSON = true
	js, _, err := runEstimate(all)
	if err != nil {
		t.Fatal(err)
	}
	lines := parseEstimateJSON(t, js)
	if len(lines) != 58*3 {
		t.Fatalf("%d JSON lines", len(lines))
	}
	var adaptiveAbs, headAbs float64
	for _, l := range lines {
		switch l.Method {
		case "adaptive":
			adaptiveAbs += abs(l.Error)
		case "head":
			headAbs += abs(l.Error)
		}
	}
	// The cold start: head-based sampling is far worse than adaptive.
	if adaptiveAbs >= headAbs {
		t.Errorf("mean |error| adaptive %v ≥ head %v", adaptiveAbs/58, headAbs/58)
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

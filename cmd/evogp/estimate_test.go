package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

var updateEstimateGolden = flag.Bool("update-estimate", false, "rewrite testdata/estimate/*.golden")

// smallOpts fit the short series of testdata/estimate/series.
var smallOpts = []string{"--prefix", "12", "--head", "4", "--sample-iters", "4", "--k", "2"}

const estimateSeries = "testdata/estimate/series"

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
	cases := []struct {
		golden string
		args   []string
	}{
		{"summary.golden", []string{estimateSeries}},
		{"summary_cache.golden", []string{"--cache", "model,gpus", estimateSeries}},
		{"file.golden", []string{estimateSeries + "/run1/img_arch_resnet_gpu_2.csv"}},
		{"file_fallback.golden", []string{estimateSeries + "/run2/img_arch_resnet_gpu_2.csv"}},
		{"json.golden", []string{"--json", estimateSeries}},
	}
	for _, c := range cases {
		out, errOut, err := runApp(t, append(append([]string{"estimate"}, smallOpts...), c.args...)...)
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
	out, _, err := runApp(t, append(append([]string{"estimate", "--json"}, smallOpts...), estimateSeries)...)
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
	again, _, _ := runApp(t, append(append([]string{"estimate", "--json"}, smallOpts...), estimateSeries)...)
	if again != out {
		t.Error("two runs differ")
	}
}

func TestEstimatePlots(t *testing.T) {
	dir := t.TempDir()
	_, errOut, err := runApp(t, append(append([]string{"estimate", "--plot", dir, "--plot-series", "run2/img_arch_resnet_gpu_2.csv"}, smallOpts...), estimateSeries)...)
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
	if _, _, err := runApp(t, append(append([]string{"estimate", "--plot", t.TempDir(), "--plot-series", "nope.csv"}, smallOpts...), estimateSeries)...); err == nil {
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
	cases := []struct {
		args []string
		want string
	}{
		{[]string{bad}, bad + " line 3: bad series file: iter_time_s: \"NaN\" is not a finite number"},
		{[]string{short}, short + ": bad series: 2 iterations, the adaptive method needs at least 10"},
		{[]string{empty}, empty + ": bad series file: no iterations after the header"},
		{[]string{dir}, "bad.csv line 3"},
		{[]string{"--methods", "tail", short}, `unknown method "tail"`},
		{[]string{"--prefix", "5", short}, "prefix = 5"},
		{[]string{"--cache", "user", short}, `cache key field "user"`},
		{[]string{}, "want one FILE or DIR argument"},
		{[]string{filepath.Join(dir, "missing.csv")}, "missing.csv"},
	}
	for _, c := range cases {
		out, _, err := runApp(t, append([]string{"estimate"}, c.args...)...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: got %v, want %q", c.args, err, c.want)
		}
		if out != "" {
			t.Errorf("%v: partial output %q", c.args, out)
		}
	}
}

// estimateTraceDir returns ../shared/traces/iteration_times/<sub> beside the
// repository root, or skips.
func estimateTraceDir(t *testing.T, sub string) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(root, "..", "shared", "traces", "iteration_times", sub)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("iteration-time traces absent: %v", err)
	}
	return p
}

// All 58 Chronus series, every method: the table has the three methods
// over 58 series, and the JSON one line per series and method.
func TestEstimateRealChronus(t *testing.T) {
	dir := estimateTraceDir(t, "chronus")
	out, _, err := runApp(t, "estimate", dir)
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
	js, _, err := runApp(t, "estimate", "--json", dir)
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

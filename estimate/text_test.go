package estimate

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestParseKeyFieldsAndMethods(t *testing.T) {
	for spec, want := range map[string]KeyFields{
		"model":           {Model: true},
		"model, gpus":     {Model: true, GPUs: true},
		"config,gpu_type": {Config: true, GPUType: true},
		"all":             {true, true, true, true},
		"gpus,all":        {true, true, true, true},
	} {
		if got, err := ParseKeyFields(spec); err != nil || got != want {
			t.Errorf("ParseKeyFields(%q) = %+v, %v; want %+v", spec, got, err, want)
		}
	}
	for _, bad := range []string{"", "model,", "gpu", "Model"} {
		if _, err := ParseKeyFields(bad); err == nil || !strings.Contains(err.Error(), "want model, config, gpu_type, gpus or all") {
			t.Errorf("ParseKeyFields(%q): error %v", bad, err)
		}
	}
	if got := ParseMethods(" head,,adaptive ,"); len(got) != 2 || got[0] != "head" || got[1] != "adaptive" {
		t.Errorf("ParseMethods: %q", got)
	}
	if got := ParseMethods(""); got != nil {
		t.Errorf("ParseMethods(\"\") = %q, want nil (all methods)", got)
	}
}

// TestWriteTables: the head method on t = 3, 1, 1, 1, 1, 1 with h = 2
// estimates 12 (TestHeadHandComputed) against an actual 8: +50 %, two
// iterations (4 s) of overhead.
func TestWriteTables(t *testing.T) {
	s := synthetic("a/h.csv", 3, 1, 1, 1, 1, 1)
	o := EvaluateOptions{Methods: []string{MethodHead}, Options: Options{Gamma: 0.1, K: 1, SampleIters: 1, Head: 2, Prefix: 2}}
	ev, err := Evaluate(context.Background(), []*Series{s, s}, []string{"one", "two"}, o)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := WriteSeriesTable(&b, ev.Rows[:1]); err != nil {
		t.Fatal(err)
	}
	want := "file: one (6 iterations, key |||0, times in s)\n" +
		"  method  estimate s  actual s  error %  overhead iters  overhead s  detail\n" +
		"    head      12.000     8.000   +50.00               2       4.000        \n"
	if b.String() != want {
		t.Errorf("series table\n%q\nwant\n%q", b.String(), want)
	}
	b.Reset()
	if err := WriteJSON(&b, ev.Rows); err != nil {
		t.Fatal(err)
	}
	line := `{"file":"one","method":"head","estimate_s":12,"actual_s":8,"error":0.5,"overhead_iters":2,"overhead_s":4}` + "\n"
	if b.String() != line+strings.Replace(line, "one", "two", 1) {
		t.Errorf("json\n%s", b.String())
	}
	b.Reset()
	if err := ev.WriteSummaryTable(&b, 2); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"series: 2\n", "mean APE %", "head       2       50.00         50.00      50.00                  2.0            4.000           4.000          0       0"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, b.String())
		}
	}
	// Rows the adaptive method and the cache produced say so.
	if d := (Row{Cached: true}).detail(); d != "cached" {
		t.Errorf("cached detail %q", d)
	}
	r := Row{Result: Result{Method: MethodAdaptive, StableAt: 3, SampleFrom: 4, SampleIters: 10}}
	if d := r.detail(); d != "stable at 3, sampled 4–13" {
		t.Errorf("adaptive detail %q", d)
	}
	r.Fallback = true
	if d := r.detail(); d != "never stable: sampled 4–13" {
		t.Errorf("fallback detail %q", d)
	}
}

func TestReadPath(t *testing.T) {
	dir := t.TempDir()
	body := "iteration,iter_time_s\n"
	for i := 1; i <= 12; i++ {
		body += strconv.Itoa(i) + ",0.5\n"
	}
	path := filepath.Join(dir, "imagenet_arch_resnet50_gpu_1.csv")
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	series, files, isDir, err := ReadPath(path)
	if err != nil || isDir || len(series) != 1 || files[0] != path {
		t.Fatalf("file: %v %v %v", files, isDir, err)
	}
	if series, files, isDir, err = ReadPath(dir); err != nil || !isDir || len(series) != 1 || len(files) != 1 {
		t.Fatalf("dir: %v %v %v", files, isDir, err)
	}
	if _, _, _, err := ReadPath(filepath.Join(dir, "none")); err == nil || !strings.HasPrefix(err.Error(), "estimate: stat ") {
		t.Fatalf("missing: %v", err)
	}
}

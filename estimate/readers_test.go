package estimate

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evogp/evogp/internal/tracefiles"
)

// iterationTimes returns ../shared/traces/iteration_times/<sub> beside the
// repository root ($EVOGP_ITERATION_TIMES_DIR replaces the directory), and
// skips the test when it is absent.
func iterationTimes(t testing.TB, sub string) string {
	t.Helper()
	return tracefiles.Shared(t, "EVOGP_ITERATION_TIMES_DIR", "iteration_times", sub)
}

func TestParseChronus(t *testing.T) {
	in := "iteration,iter_time_s\r\n0,1.5\r\n1,0.25\r\n2,0.5\r\n"
	s, err := ParseChronus(strings.NewReader(in), "runs/stats-2/imagenet_arch_resnet50_gpu_16.csv")
	if err != nil {
		t.Fatal(err)
	}
	if s.Name != "stats-2/imagenet_arch_resnet50_gpu_16.csv" || s.Unit != "s" {
		t.Errorf("name %q unit %q", s.Name, s.Unit)
	}
	if want := (Key{Model: "imagenet/resnet50", Config: "stats-2", GPUs: 16}); s.Key != want {
		t.Errorf("key %+v, want %+v", s.Key, want)
	}
	if len(s.Times) != 3 || s.Times[0] != 1.5 || s.Times[2] != 0.5 || s.Total() != 2.25 {
		t.Errorf("times %v", s.Times)
	}
	if len(s.Lines) != 3 || s.Lines[0] != 2 || s.Lines[2] != 4 {
		t.Errorf("lines %v", s.Lines)
	}
	other, err := ParseChronus(strings.NewReader("iteration,iter_time_s\n5,1\n6,2\n"), "plain.csv")
	if err != nil {
		t.Fatal(err)
	}
	if other.Key != (Key{Model: "plain"}) || other.Name != "plain.csv" {
		t.Errorf("unmatched name: key %+v name %q", other.Key, other.Name)
	}
}

func TestParseAlibaba(t *testing.T) {
	// Two workers; time 1 has 476 and 509 → 509; time 11 has 400, 300 →
	// 400; time 21 one worker (one row is a duplicate) → 700.
	in := ",worker,gpu,time,batch_time_norm\n" +
		"0,0,25,1,476\n1,1,25,1,509\n2,0,25,11,400\n3,1,25,11,300\n4,1,25,21,700\n5,1,25,21,700\n"
	s, err := ParseAlibaba(strings.NewReader(in), "mb/job_9_norm.csv")
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Times) != 3 || s.Times[0] != 509 || s.Times[1] != 400 || s.Times[2] != 700 {
		t.Errorf("times %v", s.Times)
	}
	if len(s.Lines) != 3 || s.Lines[0] != 2 || s.Lines[1] != 4 || s.Lines[2] != 6 {
		t.Errorf("lines %v", s.Lines)
	}
	if s.Key != (Key{Model: "alibaba/job_9_norm", GPUs: 2}) || s.Unit != "norm" {
		t.Errorf("key %+v unit %q", s.Key, s.Unit)
	}
}

// Every bad input gives one error naming the file and line.
func TestReadersBadInput(t *testing.T) {
	const ch = "iteration,iter_time_s\n"
	const al = ",worker,gpu,time,batch_time_norm\n"
	cases := []struct {
		name, in, want string
		alibaba        bool
	}{
		{"empty file", "", "f.csv: bad series file: empty file", false},
		{"header only", ch, "f.csv: bad series file: no iterations after the header", false},
		{"wrong header", "iter,time\n0,1\n", `f.csv line 1: bad series file: header "iter,time", want "iteration,iter_time_s"`, false},
		{"NaN", ch + "0,1\n1,NaN\n", `f.csv line 3: bad series file: iter_time_s: "NaN" is not a finite number`, false},
		{"Inf", ch + "0,+Inf\n", `f.csv line 2: bad series file: iter_time_s: "+Inf" is not a finite number`, false},
		{"zero", ch + "0,1\n1,2\n2,0\n", "f.csv line 4: bad series file: iter_time_s: 0 must be positive", false},
		{"negative", ch + "0,-0.5\n", "f.csv line 2: bad series file: iter_time_s: -0.5 must be positive", false},
		{"text", ch + "0,fast\n", `f.csv line 2: bad series file: iter_time_s: "fast" is not a number`, false},
		{"gap", ch + "0,1\n2,1\n", "f.csv line 3: bad series file: iteration: 2 follows 0, want 1", false},
		{"bad iteration", ch + "0,1\nx,1\n", `f.csv line 3: bad series file: iteration: "x" is not an integer`, false},
		{"field count", ch + "0,1\n1,1,1\n", "f.csv line 3: bad series file: wrong number of fields", false},
		{"bad quote", ch + "0,\"1\n", "f.csv line 2: bad series file:", false},
		{"alibaba header only", al, "f.csv: bad series file: no rows after the header", true},
		{"alibaba decreasing time", al + "0,0,1,11,5\n1,0,1,1,5\n", "f.csv line 3: bad series file: time: 1 after 11: rows must be in non-decreasing time", true},
		{"alibaba zero time value", al + "0,0,1,1,0\n", "f.csv line 2: bad series file: batch_time_norm: 0 must be positive", true},
		{"alibaba negative worker", al + "0,-1,1,1,5\n", "f.csv line 2: bad series file: worker: -1 must be ≥ 0", true},
		{"alibaba short row", al + "0,1,1,1\n", "f.csv line 2: bad series file: wrong number of fields", true},
	}
	for _, c := range cases {
		var err error
		if c.alibaba {
			_, err = ParseAlibaba(strings.NewReader(c.in), "f.csv")
		} else {
			_, err = ParseChronus(strings.NewReader(c.in), "f.csv")
		}
		if err == nil || !strings.HasPrefix(err.Error(), c.want) || !errors.Is(err, ErrFormat) {
			t.Errorf("%s: got %v, want prefix %q", c.name, err, c.want)
		}
	}
}

func TestReadFileSniffsFormat(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	if s, err := ReadFile(write("a.csv", "\ufeffiteration,iter_time_s\n0,1\n")); err != nil || s.Unit != "s" {
		t.Errorf("chronus with BOM: %v", err)
	}
	if s, err := ReadFile(write("b.csv", ",worker,gpu,time,batch_time_norm\n0,0,1,1,5\n")); err != nil || s.Unit != "norm" {
		t.Errorf("alibaba: %v", err)
	}
	if _, err := ReadFile(write("c.csv", "a,b\n1,2\n")); err == nil || !strings.Contains(err.Error(), "c.csv line 1: bad series file: header") {
		t.Errorf("unknown format: %v", err)
	}
	// A directory with one bad file fails as a whole, naming it.
	write("d.csv", "iteration,iter_time_s\n0,-1\n")
	if _, _, err := ReadDir(dir); err == nil || !strings.Contains(err.Error(), "c.csv line 1") {
		t.Errorf("ReadDir with a bad file: %v", err)
	}
	if _, _, err := ReadDir(t.TempDir()); err == nil || !strings.Contains(err.Error(), "no .csv files") {
		t.Errorf("ReadDir of an empty directory: %v", err)
	}
}

// checkParsed is what every successful parse guarantees.
func checkParsed(t *testing.T, s *Series) {
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	if len(s.Lines) != len(s.Times) {
		t.Fatalf("%d lines for %d times", len(s.Lines), len(s.Times))
	}
	for i := 1; i < len(s.Lines); i++ {
		if s.Lines[i] <= s.Lines[i-1] {
			t.Fatalf("lines not increasing: %v", s.Lines)
		}
	}
}

func FuzzParseChronus(f *testing.F) {
	f.Add([]byte("iteration,iter_time_s\n0,2.7\n1,0.75\n"))
	f.Add([]byte("iteration,iter_time_s\n0,NaN\n"))
	f.Add([]byte("iteration,iter_time_s\r\n3,1e-300\r\n4,1e300\r\n"))
	f.Add([]byte("iteration,iter_time_s\n0,\"1\"\n1,2,3\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := ParseChronus(strings.NewReader(string(data)), "fuzz.csv")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.csv") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		checkParsed(t, s)
	})
}

func FuzzParseAlibaba(f *testing.F) {
	f.Add([]byte(",worker,gpu,time,batch_time_norm\n0,0,25,1,476\n1,1,25,1,509\n2,0,25,11,400\n"))
	f.Add([]byte(",worker,gpu,time,batch_time_norm\n0,0,25,11,476\n1,1,25,1,509\n"))
	f.Add([]byte(",worker,gpu,time,batch_time_norm\n0,0,25,1,0\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := ParseAlibaba(strings.NewReader(string(data)), "fuzz.csv")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.csv") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		checkParsed(t, s)
	})
}

// The real Chronus traces: 58 series of 100–1000 iterations whose names
// give the model and GPU count; every method runs on every series.
func TestRealChronus(t *testing.T) {
	dir := iterationTimes(t, "chronus")
	series, files, err := ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(series) != 58 {
		t.Fatalf("%d series, want 58", len(series))
	}
	for i, s := range series {
		if n := len(s.Times); n < 100 || n > 1000 {
			t.Errorf("%s: %d iterations", files[i], n)
		}
		if s.Key.Model == "" || s.Key.GPUs < 1 || s.Key.GPUs > 32 || (s.Key.Config != "stats" && s.Key.Config != "stats-2") {
			t.Errorf("%s: key %+v", files[i], s.Key)
		}
		if files[i] != s.Name {
			t.Errorf("relative file %q, name %q", files[i], s.Name)
		}
	}
	// resnet50 on 1 GPU: 1.39 s, then ≈ 0.24 s (the trace README) — the
	// cold start is the first iteration only.
	s, err := ReadFile(filepath.Join(dir, "stats", "imagenet_arch_resnet50_gpu_1.csv"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := Adaptive(s, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if r.StableAt != 2 || r.Fallback || math.Abs(r.Estimate-s.Total())/s.Total() > 0.05 {
		t.Errorf("resnet50 gpu 1: %+v, actual %v", r, s.Total())
	}
	ev, err := Evaluate(context.Background(), series, files, EvaluateOptions{Options: DefaultOptions()})
	if err != nil {
		t.Fatal(err)
	}
	if len(ev.Rows) != 58*3 {
		t.Fatalf("%d rows", len(ev.Rows))
	}
	sums := Summarize(ev.Rows)
	if len(sums) != 3 || sums[0].Method != MethodAdaptive || sums[0].N != 58 {
		t.Fatalf("summary %+v", sums)
	}
	// The cold start makes head-based sampling overestimate on average.
	var head float64
	for _, row := range ev.Rows {
		if row.Method == MethodHead {
			head += row.Error
		}
	}
	if head <= 0 {
		t.Errorf("head-based mean signed error %v, want > 0 (cold start)", head/58)
	}
}

func TestRealAlibaba(t *testing.T) {
	dir := iterationTimes(t, "alibaba_minibatch")
	series, files, err := ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"job_1_norm.csv": 300, "job_2_norm.csv": 254, "job_3_norm.csv": 249, "job_4_norm.csv": 2183}
	for i, s := range series {
		if n, ok := want[files[i]]; !ok || len(s.Times) != n || s.Key.GPUs != 10 {
			t.Errorf("%s: %d points, key %+v", files[i], len(s.Times), s.Key)
		}
	}
	if len(series) != 4 {
		t.Fatalf("%d series", len(series))
	}
}

package estimate

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// issue 32 item 10: rows of 1e308 overflow the total to +Inf (and the
// error to NaN); the file is refused, naming the file and the line where
// the total overflows, for every method.
func TestOverflowingTimesRefused(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "big_arch_m_gpu_1.csv")
	rows := "iteration,iter_time_s\n"
	for i := range 60 {
		rows += strconv.Itoa(i) + ",1e308\n"
	}
	if err := os.WriteFile(path, []byte(rows), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range Methods() {
		_, err := Evaluate(context.Background(), []*Series{s}, []string{"big"}, EvaluateOptions{Options: DefaultOptions(), Methods: []string{m}})
		// 1e308 + 1e308 overflows at the second row, file line 3.
		if !errors.Is(err, ErrBadSeries) || !strings.Contains(err.Error(), path+" line 3") || !strings.Contains(err.Error(), "overflows") {
			t.Errorf("%s: got %v, want an error at %s line 3 saying the total overflows", m, err, path)
		}
	}
	// A finite total whose extrapolation still overflows: n × head mean.
	times := make([]float64, 20)
	times[0] = 1e308
	for i := 1; i < len(times); i++ {
		times[i] = 1e-300
	}
	s = &Series{Name: "x", Path: "x.csv", Times: times}
	o := DefaultOptions()
	o.Head, o.Prefix = 1, 20
	_, err = Estimate(s, MethodHead, o)
	if !errors.Is(err, ErrBadSeries) || !strings.Contains(err.Error(), "x.csv") || !strings.Contains(err.Error(), "overflows") {
		t.Errorf("n × head mean: got %v, want an overflow error naming x.csv", err)
	}
}

// issue 32 item 16: `--methods head` is not held to the adaptive method's
// limits on the prefix (P ≥ k+1, P ≥ i_s); adaptive still is.
func TestHeadIgnoresAdaptiveLimits(t *testing.T) {
	s := &Series{Name: "s", Times: []float64{1, 2, 3, 4, 5, 6, 7, 8}}
	o := DefaultOptions() // k = 5, i_s = 10
	o.Head, o.Prefix = 3, 4
	for _, m := range []string{MethodHead, MethodRandom} {
		if _, err := Evaluate(context.Background(), []*Series{s}, []string{"s"}, EvaluateOptions{Options: o, Methods: []string{m}}); err != nil {
			t.Errorf("%s with prefix 4 < i_s = 10: %v", m, err)
		}
		if _, err := Estimate(s, m, o); err != nil {
			t.Errorf("Estimate %s: %v", m, err)
		}
	}
	_, err := Evaluate(context.Background(), []*Series{s}, []string{"s"}, EvaluateOptions{Options: o, Methods: []string{MethodHead, MethodAdaptive}})
	if err == nil || !strings.Contains(err.Error(), "adaptive") {
		t.Errorf("head+adaptive with prefix 4: got %v, want the adaptive limit", err)
	}
	// Head's own limit still holds, and adaptive-only options are not
	// checked for head (k = 0 is adaptive's problem).
	bad := o
	bad.Prefix = 2
	if err := bad.ValidateFor(MethodHead); err == nil {
		t.Error("head = 3 > prefix = 2 accepted")
	}
	k0 := o
	k0.K, k0.Gamma = 0, 0
	if err := k0.ValidateFor(MethodHead); err != nil {
		t.Errorf("head with k = 0: %v", err)
	}
	if err := k0.Validate(); err == nil {
		t.Error("Validate (every method) accepted k = 0")
	}
}

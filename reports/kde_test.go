package reports

import (
	"math"
	"testing"
)

// Hand value: sample {0, 1} with h = ½ at x = 0 is
// 1/(2·½)·(φ(0) + φ(2)) = 0.398942 + 0.053991 = 0.452933.
func TestKDEAtHandValue(t *testing.T) {
	k := KDE{Sample: []float64{0, 1}, Bandwidth: 0.5}
	if got := k.At(0); !near(got, 0.4529332469146208, 1e-12) {
		t.Fatalf("f(0) = %v, want 0.452933", got)
	}
	// Symmetric sample: f(0) = f(1).
	if !near(k.At(0), k.At(1), 1e-15) {
		t.Fatal("not symmetric")
	}
}

// Silverman on 1..5: sd = 1.581139, type-7 quartiles 2 and 4, IQR/1.34 =
// 1.492537 < sd, h = 0.9·1.492537·5^(−1/5) = 0.973585.
func TestSilvermanBandwidth(t *testing.T) {
	if h := SilvermanBandwidth([]float64{5, 3, 1, 4, 2}); !near(h, 0.9735846228506357, 1e-12) {
		t.Fatalf("h = %v, want 0.973585", h)
	}
	// IQR 0 (most values equal): the standard deviation is used.
	xs := []float64{0, 0, 0, 0, 0, 0, 0, 10}
	sd := meanSD(xs).SD
	if h := SilvermanBandwidth(xs); !near(h, 0.9*sd*math.Pow(8, -0.2), 1e-12) {
		t.Fatalf("h = %v with IQR 0", h)
	}
	if SilvermanBandwidth([]float64{3, 3, 3}) != 1 || SilvermanBandwidth([]float64{3}) != 1 {
		t.Fatal("constant sample must get h = 1")
	}
}

// The estimate integrates to 1 (trapezoid rule over ±10 h of the sample).
func TestKDEIntegratesToOne(t *testing.T) {
	for _, xs := range [][]float64{
		{0, 0, 0, 0.5, 1, 2, 8, 20},
		{3},
		{1, 2, 3, 4, 5, 6, 7, 8, 9, 100},
	} {
		k, err := NewKDE(xs)
		if err != nil {
			t.Fatal(err)
		}
		lo, hi := xs[0]-10*k.Bandwidth, xs[len(xs)-1]+10*k.Bandwidth
		const n = 20000
		step := (hi - lo) / n
		area := 0.0
		for i := 0; i <= n; i++ {
			w := 1.0
			if i == 0 || i == n {
				w = 0.5
			}
			area += w * k.At(lo+float64(i)*step)
		}
		area *= step
		if !near(area, 1, 1e-6) {
			t.Fatalf("%v: ∫ = %v", xs, area)
		}
	}
	if _, err := NewKDE(nil); err == nil {
		t.Fatal("empty sample accepted")
	}
	if _, err := NewKDE([]float64{math.Inf(1)}); err == nil {
		t.Fatal("Inf accepted")
	}
}

func TestQuantile7(t *testing.T) {
	s := []float64{1, 2, 3, 4}
	// h = 3·0.25 = 0.75 → 1 + 0.75·1 = 1.75; h = 2.25 → 3.25.
	if quantile7(s, 0.25) != 1.75 || quantile7(s, 0.75) != 3.25 || quantile7(s, 1) != 4 || quantile7(s, 0) != 1 {
		t.Fatal("type-7 quantiles wrong")
	}
}

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// Hand-computed: n = 6, P(K ≤ 0) = 1/64, so k = 1 gives coverage
// 1 − 2/64 = 0.96875 ≥ 0.95 and k = 2 would give 1 − 2·7/64 = 0.78125.
// The interval is [x₍₁₎, x₍₆₎]. For n = 5 even k = 1 covers only 0.9375.
func TestMedianConfidenceHandComputed(t *testing.T) {
	ci := MedianConfidence([]float64{6, 1, 5, 2, 4, 3}, 0.95)
	if ci.Median != 3.5 || ci.Lo != 1 || ci.Hi != 6 || math.Abs(ci.Coverage-0.96875) > 1e-12 {
		t.Fatalf("n=6: %+v", ci)
	}
	ci = MedianConfidence([]float64{5, 1, 3, 2, 4}, 0.95)
	if ci.Median != 3 || !math.IsNaN(ci.Lo) || !math.IsNaN(ci.Hi) {
		t.Fatalf("n=5: %+v", ci)
	}
	// n = 20: P(K ≤ 5) = 21700/2^20 ≈ 0.0207 ≤ 0.025, P(K ≤ 6) ≈ 0.0577: k = 6.
	xs := make([]float64, 20)
	for i := range xs {
		xs[i] = float64(20 - i)
	}
	ci = MedianConfidence(xs, 0.95)
	if ci.Lo != 6 || ci.Hi != 15 || math.Abs(ci.Coverage-(1-2*21700.0/(1<<20))) > 1e-12 {
		t.Fatalf("n=20: %+v", ci)
	}
	if ci := MedianConfidence(nil, 0.95); !math.IsNaN(ci.Median) {
		t.Fatalf("empty: %+v", ci)
	}
}

// Invariants on random samples: Lo ≤ median ≤ Hi, coverage ≥ level, and
// the binomial mass sums to one.
func TestMedianConfidenceInvariants(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 200; trial++ {
		n := 6 + r.IntN(200)
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = r.NormFloat64()
		}
		ci := MedianConfidence(xs, 0.95)
		if !(ci.Lo <= ci.Median && ci.Median <= ci.Hi) || ci.Coverage < 0.95 {
			t.Fatalf("n=%d: %+v", n, ci)
		}
		sum := 0.0
		for j := 0; j <= n; j++ {
			sum += binomHalf(n, j)
		}
		if math.Abs(sum-1) > 1e-9 {
			t.Fatalf("n=%d: binomial mass %v", n, sum)
		}
	}
}

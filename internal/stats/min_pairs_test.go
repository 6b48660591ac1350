package stats

import (
	"math"
	"testing"
)

// The minimum attainable p is what the exact test gives when every
// difference has the same sign: checked against WilcoxonSignedRank, and
// MinTestPairs is the first n where it falls below 0.05.
func TestMinAttainablePMatchesExactTest(t *testing.T) {
	for n := 1; n <= 10; n++ {
		x, y := make([]float64, n), make([]float64, n)
		for i := range x {
			x[i], y[i] = float64(i+1), 0 // distinct positive differences
		}
		w, err := WilcoxonSignedRank(x, y)
		if err != nil {
			t.Fatal(err)
		}
		if w.Method != "exact" || math.Abs(w.P-MinAttainableP(n)) > 1e-15 {
			t.Fatalf("n=%d: test p %v (%s), MinAttainableP %v", n, w.P, w.Method, MinAttainableP(n))
		}
		if got, want := w.CanReject(), w.P < 0.05; got != want {
			t.Fatalf("n=%d: CanReject %v but the smallest p is %v", n, got, w.P)
		}
	}
	if MinAttainableP(5) < 0.05 || MinAttainableP(6) >= 0.05 || MinAttainableP(0) != 1 {
		t.Fatalf("MinAttainableP(5)=%v, (6)=%v, (0)=%v", MinAttainableP(5), MinAttainableP(6), MinAttainableP(0))
	}
}

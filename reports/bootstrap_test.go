package reports

import (
	"math/rand/v2"
	"testing"
)

// Hand-computed cases: one value has no interval; equal values give a
// zero-width interval; the interval of non-negative values stays within
// [min, max] and contains the mean; the same values give the same
// interval.
func TestBootstrapMeanCI(t *testing.T) {
	if got := bootstrapMeanCI([]float64{3}); got != (Interval{3, 3, 3, 1}) {
		t.Fatalf("one value: %+v", got)
	}
	if got := bootstrapMeanCI([]float64{2, 2, 2}); got != (Interval{2, 2, 2, 3}) {
		t.Fatalf("equal values: %+v", got)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 200 {
		n := 2 + rng.IntN(30)
		xs := make([]float64, n)
		lo, hi := 1e300, -1.0
		for i := range xs {
			xs[i] = rng.ExpFloat64() * float64(trial%5)
			lo, hi = min(lo, xs[i]), max(hi, xs[i])
		}
		ci := bootstrapMeanCI(xs)
		if ci.Low < lo || ci.High > hi || ci.Low > ci.Mean || ci.High < ci.Mean || ci.Low < 0 {
			t.Fatalf("%v: %+v outside [%g, %g] or not around the mean", xs, ci, lo, hi)
		}
		if again := bootstrapMeanCI(xs); again != ci {
			t.Fatalf("not deterministic: %+v vs %+v", ci, again)
		}
	}
	// A skewed sample: the interval is asymmetric, wider above the mean.
	ci := bootstrapMeanCI([]float64{0, 0, 0, 0, 0, 0, 0, 0, 0, 10})
	if ci.Mean != 1 || ci.Low != 0 || ci.High <= 2 {
		t.Fatalf("skewed: %+v", ci)
	}
}

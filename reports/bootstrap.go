package reports

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/evogp/evogp/internal/stats"
)

// bootstrapResamples is the number of resamples of bootstrapMeanCI.
const bootstrapResamples = 2000

// Interval is a point estimate with a 95 % interval [Low, High] over N
// values; Low = High = Mean when N < 2 (no interval to draw).
type Interval struct {
	Mean, Low, High float64
	N               int
}

// bootstrapMeanCI returns the mean of xs and its 95 % percentile
// bootstrap confidence interval (2000 resamples from a fixed seed, so the
// same values give the same interval). The interval lies within
// [min xs, max xs]: it never goes below zero for non-negative values.
func bootstrapMeanCI(xs []float64) Interval {
	n := len(xs)
	switch n {
	case 0:
		return Interval{Mean: math.NaN(), Low: math.NaN(), High: math.NaN()}
	case 1:
		return Interval{Mean: xs[0], Low: xs[0], High: xs[0], N: 1}
	}
	var sum float64
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, x := range xs {
		sum += x
		lo, hi = math.Min(lo, x), math.Max(hi, x)
	}
	mean := sum / float64(n)
	rng := rand.New(rand.NewPCG(0x5eed, uint64(n)))
	means := make([]float64, bootstrapResamples)
	for b := range means {
		var s float64
		for range n {
			s += xs[rng.IntN(n)]
		}
		means[b] = s / float64(n)
	}
	slices.Sort(means)
	q := func(p float64) float64 { return means[int(math.Round(p*float64(len(means)-1)))] }
	mean = math.Min(math.Max(mean, lo), hi) // a rounded sum can step outside
	return Interval{Mean: mean, Low: math.Max(math.Min(q(0.025), mean), lo), High: math.Min(math.Max(q(0.975), mean), hi), N: n}
}

// pairedRatioCI is the 95 % percentile bootstrap interval of Σx ÷ Σy,
// resampling the indices i (the pairs (x_i, y_i) stay together) 2000
// times from a fixed seed. Resamples whose Σy is 0 are skipped. Both
// bounds are NaN below stats.MinTestPairs pairs (fewer pairs have too
// few distinct resamples for a percentile interval to cover 95 %, the
// same threshold as the median's order-statistic interval) or when no
// resample has Σy > 0.
func pairedRatioCI(x, y []float64) (lo, hi float64) {
	n := len(x)
	if n < stats.MinTestPairs {
		return math.NaN(), math.NaN()
	}
	rng := rand.New(rand.NewPCG(0x5eed, uint64(n)))
	ratios := make([]float64, 0, bootstrapResamples)
	for range bootstrapResamples {
		var sx, sy float64
		for range n {
			i := rng.IntN(n)
			sx, sy = sx+x[i], sy+y[i]
		}
		if sy > 0 {
			ratios = append(ratios, sx/sy)
		}
	}
	if len(ratios) == 0 {
		return math.NaN(), math.NaN()
	}
	slices.Sort(ratios)
	q := func(p float64) float64 { return ratios[int(math.Round(p*float64(len(ratios)-1)))] }
	return q(0.025), q(0.975)
}

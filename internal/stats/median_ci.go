package stats

import (
	"math"
	"slices"
)

// MedianCI is the sample median of xs and a distribution-free confidence
// interval for the population median from order statistics: with x₍₁₎ ≤ …
// ≤ x₍ₙ₎ and K ~ Binomial(n, ½), the interval [x₍ₖ₎, x₍ₙ₋ₖ₊₁₎] covers the
// median with probability 1 − 2·P(K < k). k is the largest rank with
// coverage ≥ level, so the actual coverage (Coverage) is at least level.
// With too few values for that coverage (n < 6 at 95 %) Lo and Hi are NaN.
type MedianCI struct {
	Median, Lo, Hi float64
	Coverage       float64 // actual coverage of [Lo, Hi]; NaN when undefined
	N              int
}

// MedianConfidence computes MedianCI of the finite values xs at level
// (e.g. 0.95). Median is NaN when xs is empty.
func MedianConfidence(xs []float64, level float64) MedianCI {
	v := slices.Clone(xs)
	slices.Sort(v)
	n := len(v)
	ci := MedianCI{Median: math.NaN(), Lo: math.NaN(), Hi: math.NaN(), Coverage: math.NaN(), N: n}
	if n == 0 {
		return ci
	}
	if n%2 == 1 {
		ci.Median = v[n/2]
	} else {
		ci.Median = (v[n/2-1] + v[n/2]) / 2
	}
	// below = P(K < k) = P(K ≤ k−1); grow k while 1 − 2·P(K ≤ k) stays ≥ level.
	k, below := 0, 0.0
	for j := 0; j < n/2; j++ {
		next := below + binomHalf(n, j)
		if 1-2*next < level {
			break
		}
		k, below = j+1, next
	}
	if k == 0 {
		return ci
	}
	ci.Lo, ci.Hi, ci.Coverage = v[k-1], v[n-k], 1-2*below
	return ci
}

// binomHalf is P(K = j) for K ~ Binomial(n, ½), via log-gamma so large n
// does not overflow.
func binomHalf(n, j int) float64 {
	lg := func(x int) float64 { r, _ := math.Lgamma(float64(x) + 1); return r }
	return math.Exp(lg(n) - lg(j) - lg(n-j) - float64(n)*math.Ln2)
}

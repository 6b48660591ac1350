package stats

import "math"

// MinAttainableP is the smallest two-sided p-value an exact signed-rank
// test on n non-zero, untied differences can give: every difference of
// one sign, probability 2·2^−n (1 for n = 0). It is 0.0625 for n = 5 and
// 0.03125 for n = 6.
func MinAttainableP(n int) float64 {
	if n <= 0 {
		return 1
	}
	return math.Min(1, 2/math.Ldexp(1, n))
}

// MinTestPairs is the fewest non-zero differences with which a two-sided
// signed-rank test can reach p < 0.05 (MinAttainableP(6) = 0.03125 <
// 0.05 ≤ MinAttainableP(5)). Below it a test can only say "not
// significant", whatever the data, so callers print "n too small for a
// test" instead of a p-value.
const MinTestPairs = 6

// CanReject reports whether the test had enough non-zero differences to
// reach p < 0.05 at all (N ≥ MinTestPairs).
func (w Wilcoxon) CanReject() bool { return w.N >= MinTestPairs }

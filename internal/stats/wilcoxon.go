package stats

import (
	"fmt"
	"math"
	"sort"
)

// Wilcoxon is the outcome of a two-sided paired Wilcoxon signed-rank test
// of H0: the differences d_i = x_i − y_i are symmetric about 0.
//
// Zero differences are dropped (Wilcoxon's original treatment), leaving n
// pairs. |d_i| are ranked 1..n, tied values sharing their mid-rank. W+ is
// the rank sum of the positive differences, W− = n(n+1)/2 − W+ that of the
// negative ones.
//
// For n ≤ ExactMaxN without ties in |d| the p-value is exact: under H0 each
// signed-rank configuration has probability 2^−n, so P(W+ = k) is the
// number of subsets of {1..n} summing to k over 2^n, and
// p = min(1, 2·P(W+ ≤ min(W+, W−))).
//
// Otherwise the normal approximation is used with the tie correction of
// the variance and a continuity correction of ½:
//
//	μ = n(n+1)/4,  σ² = n(n+1)(2n+1)/24 − Σ_t (t³ − t)/48
//	z = sign(W+ − μ)·max(|W+ − μ| − ½, 0) / σ,  p = erfc(|z|/√2)
//
// where t runs over the sizes of the groups of tied |d|.
type Wilcoxon struct {
	N      int     // non-zero differences used
	Zeros  int     // zero differences dropped
	WPlus  float64 // rank sum of positive differences
	WMinus float64 // rank sum of negative differences
	Z      float64 // normal-approximation statistic; NaN when exact
	P      float64 // two-sided p-value
	Method string  // "exact", "normal", or "none" when N = 0 (then P = 1)
}

// ExactMaxN is the largest n for which the exact null distribution is used.
const ExactMaxN = 25

// WilcoxonSignedRank tests the paired samples x and y (same length, all
// finite) as documented on Wilcoxon.
func WilcoxonSignedRank(x, y []float64) (Wilcoxon, error) {
	if len(x) != len(y) {
		return Wilcoxon{}, fmt.Errorf("wilcoxon: %d x values but %d y values", len(x), len(y))
	}
	var d []float64
	zeros := 0
	for i := range x {
		di := x[i] - y[i]
		if math.IsNaN(di) || math.IsInf(di, 0) {
			return Wilcoxon{}, fmt.Errorf("wilcoxon: pair %d (%v, %v) is not finite", i, x[i], y[i])
		}
		if di == 0 {
			zeros++
			continue
		}
		d = append(d, di)
	}
	n := len(d)
	if n == 0 {
		return Wilcoxon{Zeros: zeros, Z: math.NaN(), P: 1, Method: "none"}, nil
	}
	abs := make([]float64, n)
	for i, v := range d {
		abs[i] = math.Abs(v)
	}
	ranks, ties := MidRanks(abs)
	res := Wilcoxon{N: n, Zeros: zeros, Z: math.NaN()}
	for i, v := range d {
		if v > 0 {
			res.WPlus += ranks[i]
		}
	}
	total := float64(n*(n+1)) / 2
	res.WMinus = total - res.WPlus
	if n <= ExactMaxN && len(ties) == 0 {
		res.Method = "exact"
		res.P = wilcoxonExactP(n, math.Min(res.WPlus, res.WMinus))
		return res, nil
	}
	res.Method = "normal"
	res.Z, res.P = wilcoxonNormal(n, res.WPlus, ties)
	return res, nil
}

// wilcoxonExactP is the exact two-sided p-value min(1, 2·P(W+ ≤ w)) for n
// untied non-zero differences. The counts c[k] of subsets of {1..n} with
// sum k are built by the recurrence c_m[k] = c_{m−1}[k] + c_{m−1}[k − m]; all
// counts are below 2^25 and exact in float64.
func wilcoxonExactP(n int, w float64) float64 {
	maxSum := n * (n + 1) / 2
	c := make([]float64, maxSum+1)
	c[0] = 1
	for m := 1; m <= n; m++ {
		for k := maxSum; k >= m; k-- {
			c[k] += c[k-m]
		}
	}
	var le float64
	for k := 0; k <= maxSum && float64(k) <= w; k++ {
		le += c[k]
	}
	return math.Min(1, 2*le/math.Ldexp(1, n))
}

// wilcoxonNormal returns z and the two-sided p-value of the tie- and
// continuity-corrected normal approximation (see Wilcoxon).
func wilcoxonNormal(n int, wPlus float64, ties []int) (z, p float64) {
	nf := float64(n)
	mu := nf * (nf + 1) / 4
	v := nf * (nf + 1) * (2*nf + 1) / 24
	for _, t := range ties {
		tf := float64(t)
		v -= (tf*tf*tf - tf) / 48
	}
	dev := wPlus - mu
	num := math.Max(math.Abs(dev)-0.5, 0)
	if dev < 0 {
		num = -num
	}
	z = num / math.Sqrt(v)
	return z, math.Erfc(math.Abs(z) / math.Sqrt2)
}

// MidRanks ranks v ascending from 1; equal values share the mean of the
// ranks they span. ties lists the sizes (≥ 2) of the groups of equal values.
func MidRanks(v []float64) (ranks []float64, ties []int) {
	idx := make([]int, len(v))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return v[idx[a]] < v[idx[b]] })
	ranks = make([]float64, len(v))
	for i := 0; i < len(idx); {
		j := i + 1
		for j < len(idx) && v[idx[j]] == v[idx[i]] {
			j++
		}
		r := float64(i+j+1) / 2 // mean of ranks i+1..j
		for k := i; k < j; k++ {
			ranks[idx[k]] = r
		}
		if j-i > 1 {
			ties = append(ties, j-i)
		}
		i = j
	}
	return ranks, ties
}

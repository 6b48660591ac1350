package reports

import (
	"errors"
	"math"
	"slices"
)

// KDE is a Gaussian kernel density estimate of a sample:
//
//	f̂(x) = 1/(n·h) · Σ_i φ((x − x_i)/h),  φ(u) = exp(−u²/2)/√(2π)
//
// It integrates to 1 over ℝ for any bandwidth h > 0.
type KDE struct {
	Sample    []float64
	Bandwidth float64
}

// NewKDE builds a KDE of xs with Silverman's bandwidth (SilvermanBandwidth).
// xs is copied; it must be non-empty and finite.
func NewKDE(xs []float64) (KDE, error) {
	if len(xs) == 0 {
		return KDE{}, errors.New("kde: empty sample")
	}
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return KDE{}, errors.New("kde: sample is not finite")
		}
	}
	s := slices.Clone(xs)
	return KDE{Sample: s, Bandwidth: SilvermanBandwidth(s)}, nil
}

// At evaluates f̂ at x.
func (k KDE) At(x float64) float64 {
	var sum float64
	for _, xi := range k.Sample {
		u := (x - xi) / k.Bandwidth
		sum += math.Exp(-u * u / 2)
	}
	return sum / (float64(len(k.Sample)) * k.Bandwidth * math.Sqrt(2*math.Pi))
}

// SilvermanBandwidth is Silverman's rule of thumb
//
//	h = 0.9 · min(σ̂, IQR/1.34) · n^(−1/5)
//
// with σ̂ the sample standard deviation (n−1 denominator) and IQR the
// distance between the quartiles (linear interpolation between order
// statistics, Hyndman–Fan type 7, the default of R and NumPy). When IQR is
// 0 the spread is σ̂ alone; when σ̂ is also 0 (a constant sample, or n = 1)
// h is 1 unit so that the estimate stays a proper density.
func SilvermanBandwidth(xs []float64) float64 {
	n := len(xs)
	if n < 2 {
		return 1
	}
	sd := meanSD(xs).SD
	s := slices.Clone(xs)
	slices.Sort(s)
	iqr := quantile7(s, 0.75) - quantile7(s, 0.25)
	spread := sd
	if iqr > 0 {
		spread = math.Min(sd, iqr/1.34)
	}
	if !(spread > 0) {
		return 1
	}
	return 0.9 * spread * math.Pow(float64(n), -0.2)
}

// quantile7 is the type-7 sample quantile of sorted s: with h = (n−1)p,
// Q(p) = s[⌊h⌋] + (h − ⌊h⌋)(s[⌊h⌋+1] − s[⌊h⌋]).
func quantile7(s []float64, p float64) float64 {
	h := float64(len(s)-1) * p
	lo := int(math.Floor(h))
	if lo+1 >= len(s) {
		return s[len(s)-1]
	}
	return s[lo] + (h-float64(lo))*(s[lo+1]-s[lo])
}

package reports

import (
	"math"

	"github.com/evogp/evogp/internal/stats"
)

// Paired compares one scheduler with the best baseline on the instances
// both ran: how often it was better, tied or worse (exact float equality
// is a tie), and the effect size, the median over instances of its
// objective ÷ the baseline's, with a distribution-free 95 % confidence
// interval (stats.MedianConfidence; NaN bounds below 6 instances).
// Instances where the baseline's objective is 0 count in Better/Tied/Worse
// but not in the ratio.
type Paired struct {
	Better, Tied, Worse int
	MedianRatio         float64
	RatioLo, RatioHi    float64 // 95 % CI of the median ratio
	RatioN              int     // instances in the ratio
	// MeanRatio is the scheduler's mean objective ÷ the baseline's, both
	// over the paired instances only (NaN when the baseline's is 0).
	MeanRatio float64
	// MeanRatioLo and MeanRatioHi are the paired 95 % bootstrap interval
	// of MeanRatio: instances are resampled as pairs, so that the
	// instance-to-instance spread both schedulers share cancels (NaN
	// below 2 pairs).
	MeanRatioLo, MeanRatioHi float64
}

// ConfidenceLevel is the level of every confidence interval of a summary.
const ConfidenceLevel = 0.95

func pairedComparison(x, y []float64) Paired {
	var p Paired
	var ratios []float64
	var sx, sy float64
	for i := range x {
		sx, sy = sx+x[i], sy+y[i]
		switch {
		case x[i] < y[i]:
			p.Better++
		case x[i] == y[i]:
			p.Tied++
		default:
			p.Worse++
		}
		if y[i] > 0 {
			ratios = append(ratios, x[i]/y[i])
		}
	}
	ci := stats.MedianConfidence(ratios, ConfidenceLevel)
	p.MedianRatio, p.RatioLo, p.RatioHi, p.RatioN = ci.Median, ci.Lo, ci.Hi, ci.N
	p.MeanRatio = math.NaN()
	if sy > 0 {
		p.MeanRatio = sx / sy
	}
	p.MeanRatioLo, p.MeanRatioHi = pairedRatioCI(x, y)
	return p
}

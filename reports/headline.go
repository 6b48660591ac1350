package reports

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// SignificanceLevel is the p-value below which a summary calls a
// difference significant.
const SignificanceLevel = 0.05

// Headline is the summary sentence of a results table: the best baseline,
// and for every scheduler that is not one of the paper's baselines (the
// learned or user-given policies) its mean objective as a ratio to the
// best baseline's, the median paired ratio with its 95 % CI, the
// better/tied/worse counts, and the Wilcoxon p-value with n, "no
// significant difference" when p ≥ SignificanceLevel.
func Headline(s Summary) string {
	var names []string
	for _, r := range s.Schedulers {
		if !slices.Contains(DefaultBaselines(), r.Scheduler) {
			names = append(names, r.Scheduler)
		}
	}
	return HeadlineOf(s, names...)
}

// HeadlineOf is Headline comparing only the named schedulers with the
// best baseline.
func HeadlineOf(s Summary, names ...string) string {
	if s.BestBaseline == "" {
		return fmt.Sprintf("%d instances; no baseline scheduler ran, so there is no comparison.", s.Instances)
	}
	var parts []string
	for _, r := range s.Schedulers {
		if r.Scheduler == s.BestBaseline || r.Test.Method == "" || !slices.Contains(names, r.Scheduler) {
			continue
		}
		parts = append(parts, comparisonSentence(r, s.BestBaseline))
	}
	h := fmt.Sprintf("Best baseline: %s (lowest mean rank over %d instances).", s.BestBaseline, s.Ranked)
	if len(parts) > 0 {
		h += " " + strings.Join(parts, " ")
	}
	return h
}

// comparisonSentence is one scheduler's part of the headline.
func comparisonSentence(r SchedulerStats, best string) string {
	verdict := "no significant difference"
	if r.Test.P < SignificanceLevel {
		verdict = "significantly better"
		if r.Test.WPlus > r.Test.WMinus {
			verdict = "significantly worse"
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: mean objective %s× %s's on the %d instances both ran", r.Scheduler, num3(r.Paired.MeanRatio), best, r.Paired.Better+r.Paired.Tied+r.Paired.Worse)
	if !math.IsNaN(r.Paired.MedianRatio) {
		fmt.Fprintf(&b, ", median paired ratio %s", RatioWithCI(r.Paired))
	}
	fmt.Fprintf(&b, "; better on %d, tied on %d, worse on %d instances; %s (Wilcoxon p = %.3g, n = %d).",
		r.Paired.Better, r.Paired.Tied, r.Paired.Worse, verdict, r.Test.P, r.Test.N)
	return b.String()
}

// RatioWithCI formats the median paired ratio and its 95 % CI, "0.95
// (95 % CI 0.9–0.99)", or "0.95 (too few instances for a 95 % CI)".
func RatioWithCI(p Paired) string {
	if math.IsNaN(p.MedianRatio) {
		return "–"
	}
	if math.IsNaN(p.RatioLo) {
		return num3(p.MedianRatio) + " (too few instances for a 95 % CI)"
	}
	return fmt.Sprintf("%s (95 %% CI %s–%s)", num3(p.MedianRatio), num3(p.RatioLo), num3(p.RatioHi))
}

func num3(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "–"
	}
	return fmt.Sprintf("%.3g", x)
}

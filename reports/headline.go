package reports

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/evogp/evogp/internal/stats"
)

// SignificanceLevel is the p-value below which a summary calls a
// difference significant.
const SignificanceLevel = 0.05

// Headline is the summary sentence of a results table: the best baseline,
// and for every scheduler that is not one of the named baselines (the
// learned or user-given policies) its mean objective as a ratio to the
// best baseline's, the median paired ratio with its 95 % CI, the
// better/tied/worse counts, and the Wilcoxon p-value with n, "no
// significant difference" when p ≥ SignificanceLevel.
func Headline(s Summary) string {
	var names []string
	for _, r := range s.Schedulers {
		if !slices.Contains(s.Baselines, r.Scheduler) {
			names = append(names, r.Scheduler)
		}
	}
	return HeadlineOf(s, names...)
}

// HeadlineOf is Headline comparing only the named schedulers with the
// best baseline. It says on which data the best baseline was chosen, why
// rows are folded, and gives a p-value only where the test can reach
// p < 0.05 (stats.MinTestPairs); otherwise "n too small for a test".
func HeadlineOf(s Summary, names ...string) string {
	if s.BestBaseline == "" {
		return fmt.Sprintf("%d instances; no baseline scheduler ran, so there is no comparison.", s.Instances)
	}
	var parts []string
	for _, r := range s.Schedulers {
		if r.Scheduler == s.BestBaseline || !slices.Contains(names, r.Scheduler) {
			continue
		}
		if r.Test.Method == "" {
			if r.SameAs != "" || s.sameAsBest(r.Scheduler) {
				parts = append(parts, fmt.Sprintf("%s: identical to %s on every instance, so there is nothing to test.", r.Scheduler, s.BestBaseline))
			}
			continue
		}
		parts = append(parts, comparisonSentence(r, s.BestBaseline))
	}
	h := "Best baseline: " + s.BestBaseline
	if s.BestBaselineBasis == BasisThisData {
		if s.BestByObjective {
			h += fmt.Sprintf(" (lowest mean objective over these %d instances, not normalised, for want of the reference %s's objectives on them; no other data was given to choose it on).", s.Instances, s.Reference)
		} else {
			h += fmt.Sprintf(" (lowest mean normalised objective, objective ÷ %s's, over these %d instances; no other data was given to choose it on).", s.Reference, s.Instances)
		}
	} else {
		h += fmt.Sprintf(", chosen %s.", s.BestBaselineBasis)
	}
	if len(parts) > 0 {
		h += " " + strings.Join(parts, " ")
	}
	return h
}

// sameAsBest reports whether name is folded with the best baseline.
func (s Summary) sameAsBest(name string) bool {
	for _, r := range s.Schedulers {
		if r.Scheduler == name {
			return r.SameAs == s.BestBaseline
		}
	}
	return false
}

// comparisonSentence is one scheduler's part of the headline.
func comparisonSentence(r SchedulerStats, best string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: mean objective %s on the %d instances both ran", r.Scheduler, MeanRatioText(r.Paired, best), r.Paired.Better+r.Paired.Tied+r.Paired.Worse)
	if !math.IsNaN(r.Paired.MedianRatio) {
		fmt.Fprintf(&b, ", median paired ratio %s", RatioWithCI(r.Paired))
	}
	fmt.Fprintf(&b, "; better on %d, tied on %d, worse on %d instances; %s.",
		r.Paired.Better, r.Paired.Tied, r.Paired.Worse, TestVerdict(r.Test))
	return b.String()
}

// TestVerdict is the outcome of a paired test in words: "significantly
// better (Wilcoxon p = 0.0078, n = 8)", "no significant difference (…)",
// or, below stats.MinTestPairs non-tied pairs, "n too small for a test"
// with why: with so few pairs no outcome could reach p < 0.05.
func TestVerdict(w Wilcoxon) string {
	if !w.CanReject() {
		return fmt.Sprintf("n too small for a test (%d non-tied pairs; a two-sided signed-rank test needs %d to reach p < %g)", w.N, stats.MinTestPairs, SignificanceLevel)
	}
	verdict := "no significant difference"
	if w.P < SignificanceLevel {
		verdict = "significantly better"
		if w.WPlus > w.WMinus {
			verdict = "significantly worse"
		}
	}
	return fmt.Sprintf("%s (Wilcoxon p = %.3g, n = %d)", verdict, w.P, w.N)
}

// MeanRatioText is the mean objective as a ratio to the best baseline's
// with its paired 95 % interval: "0.6× liquid's (paired 95 % CI
// 0.52–0.71)". A ratio within 0.05 % of 1 is said in words, and an
// interval is left out where it has no width or cannot be computed.
func MeanRatioText(p Paired, best string) string {
	r := p.MeanRatio
	if math.IsNaN(r) || math.IsInf(r, 0) {
		return "not comparable with " + best + "'s (its objective is 0)"
	}
	txt := num3(r) + "× " + best + "'s"
	if math.Abs(r-1) < 0.0005 {
		txt = "within 0.05 % of " + best + "'s"
	}
	if lo, hi := p.MeanRatioLo, p.MeanRatioHi; !math.IsNaN(lo) && num3(lo) != num3(hi) {
		txt += fmt.Sprintf(" (paired 95 %% CI %s–%s)", num3(lo), num3(hi))
	}
	return txt
}

// RatioWithCI formats the median paired ratio and its 95 % CI, "0.95
// (95 % CI 0.9–0.99)", "0.95 (too few instances for a 95 % CI)", or,
// when the interval's ends are equal at three digits, "1 (the 95 % CI is
// the single value 1)" rather than a "CI 1–1".
func RatioWithCI(p Paired) string {
	if math.IsNaN(p.MedianRatio) {
		return "–"
	}
	if math.IsNaN(p.RatioLo) {
		return num3(p.MedianRatio) + " (too few instances for a 95 % CI)"
	}
	if num3(p.RatioLo) == num3(p.RatioHi) {
		return fmt.Sprintf("%s (the 95 %% CI is the single value %s)", num3(p.MedianRatio), num3(p.RatioLo))
	}
	return fmt.Sprintf("%s (95 %% CI %s–%s)", num3(p.MedianRatio), num3(p.RatioLo), num3(p.RatioHi))
}

func num3(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "–"
	}
	return fmt.Sprintf("%.3g", x)
}

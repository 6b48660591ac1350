// Package bestbaseline is the one definition of the best baseline, shared
// by runfile (learn's best.json and test table) and reports (eval's
// summary), which may not import each other's layers: of the named
// baselines, the one with the lowest mean normalised objective — the mean
// over instances of its objective divided by the reference's (SRSF under
// the learner's allocator and placer, or eval's --reference), the scale
// the learner's fitness is on. Ties go to the baseline listed first (the
// policy registry's order); a score that is NaN (not computed) never wins.
//
// Why not the lowest mean rank: a rank is among all schedulers compared,
// learned ones included, so adding a contender could change which
// baseline is best; the normalised objective is the baseline's own.
//
// It imports nothing of evogp.
package bestbaseline

import "math"

// Index is the index in scores (mean normalised objectives, in the
// baselines' listed order) of the best baseline; ok is false when no
// score is a number.
func Index(scores []float64) (best int, ok bool) {
	best = -1
	for i, s := range scores {
		if math.IsNaN(s) {
			continue
		}
		if best < 0 || s < scores[best] {
			best = i
		}
	}
	return best, best >= 0
}

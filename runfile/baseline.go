package runfile

import "math"

// BestBaseline is the one definition of the best baseline, used by learn
// (best.json's best_baseline, the test table), eval's summary and report,
// and sweeps: of the named baselines, the one with the lowest mean
// normalised objective — the mean over instances of its objective divided
// by the reference's (SRSF under the learner's allocator and placer, or
// eval's --reference), the scale the learner's fitness is on. Ties go to
// the baseline listed first (the policy registry's order). A score that
// is NaN (not computed) never wins; ok is false when no score is a number.
//
// Why not the lowest mean rank: a rank is among all schedulers compared,
// learned ones included, so adding a contender could change which baseline
// is best; the normalised objective is the baseline's own.
func BestBaseline(scores []BaselineScore) (best BaselineScore, ok bool) {
	for _, s := range scores {
		if math.IsNaN(s.Score) {
			continue
		}
		if !ok || s.Score < best.Score {
			best, ok = s, true
		}
	}
	return best, ok
}

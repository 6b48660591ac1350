package runfile

import "github.com/evogp/evogp/internal/bestbaseline"

// BestBaseline is the best of the named baselines' scores (mean
// normalised objectives, in policies.Baselines order) by the one
// definition, internal/bestbaseline: the lowest, ties to the first listed,
// NaN never; ok is false when no score is a number. learn's best.json
// best_baseline and test table use it; eval's summary (reports) uses the
// same definition.
func BestBaseline(scores []BaselineScore) (best BaselineScore, ok bool) {
	vals := make([]float64, len(scores))
	for i, s := range scores {
		vals[i] = s.Score
	}
	i, ok := bestbaseline.Index(vals)
	if !ok {
		return BaselineScore{}, false
	}
	return scores[i], true
}

package learn

import (
	"fmt"
	"math"
)

// pickScore is the final pick's criterion (gp.pick, configs.PickCriteria)
// of a candidate whose objectives on the validation instances are obj,
// SRSF's being base (lower is better):
//
//   - "mean" (and ""): (1/n) Σ_i O_c,i / O_SRSF,i, summed in instance
//     order — the validation score best.json reports;
//   - "pooled": Σ_i O_c,i / Σ_i O_SRSF,i, the ratio of means the held-out
//     tables report. Each instance weighs by its objective, so an
//     instance where a job starves (cq_max dominates Eq. 5) counts most;
//   - "mean+worst": the mean plus max_i O_c,i / O_SRSF,i, a worst-instance
//     term.
//
// Ratios go through normalise (an SRSF objective of 0 is not divided by).
// An unknown name panics: configs.Validate refuses it first.
func pickScore(criterion string, obj, base []float64) float64 {
	switch criterion {
	case "", "mean", "mean+worst":
		sum, worst := 0.0, math.Inf(-1)
		for i, o := range obj {
			r := normalise(o, base[i])
			sum += r
			worst = max(worst, r)
		}
		mean := sum / float64(len(obj))
		if criterion == "mean+worst" {
			return mean + worst
		}
		return mean
	case "pooled":
		so, sb := 0.0, 0.0
		for i, o := range obj {
			so += o
			sb += base[i]
		}
		return normalise(so, sb)
	}
	panic(fmt.Sprintf("learn: unknown gp.pick %q", criterion))
}

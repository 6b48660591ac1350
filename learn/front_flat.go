package learn

import (
	"context"
	"fmt"

	"github.com/evogp/evogp/policies"
	"github.com/evogp/evogp/simcore"
)

// flatObjectives are the simulated objectives FlatBaselines compares:
// every one a front can learn except tardiness (zero without deadlines).
func flatObjectives() []string { return []string{"avg_jct", "max_qt", "cq_avg", "cq_max", "util"} }

// FlatBaselines simulates SRSF and every named baseline on insts and
// returns a warning when, normalised by SRSF per instance and averaged
// over insts, they differ by less than 1 % on every one of avg_jct,
// max_qt, cq_avg, cq_max and 1 − util: there is then nothing to learn on
// this data (the learn summary of a front run gives the same warning from
// its validation set). It returns "" when some objective spreads by 1 %
// or more. set names the data in the message.
func FlatBaselines(ctx context.Context, set string, insts []simcore.Instance, opts simcore.Options, workers int) (string, error) {
	if len(insts) == 0 {
		return "", nil
	}
	srsf, err := simcore.ParseScheduler("mct+srsf+bestfit", nil) // the learner's SRSF with the default allocator and placer
	if err != nil {
		return "", err
	}
	scheds := []simcore.Scheduler{srsf}
	for _, name := range policies.Baselines() {
		s, err := policies.ParseWith(name, nil)
		if err != nil {
			return "", err
		}
		scheds = append(scheds, s)
	}
	ms, err := simulateMetrics(ctx, scheds, insts, opts, workers)
	if err != nil {
		return "", fmt.Errorf("baselines: %w", err)
	}
	fs := &frontState{names: flatObjectives()}
	for b := 1; b < len(scheds); b++ {
		fs.baseVal = append(fs.baseVal, fs.meanVector(ms[b], ms[0], 0))
	}
	if w := fs.flatBaselines(set); len(w) > 0 {
		return w[0], nil
	}
	return "", nil
}

package simcore

// WithAlwaysReplan returns opts with plan reuse disabled (tests only).
func WithAlwaysReplan(opts Options) Options {
	opts.alwaysReplan = true
	return opts
}

// PlanStats counts how the splice path built plans (tests only).
type PlanStats = planStats

// WithPlanStats returns opts counting into st (tests only).
func WithPlanStats(opts Options, st *PlanStats) Options {
	opts.stats = st
	return opts
}

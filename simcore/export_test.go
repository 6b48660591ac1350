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

// WithFullPlans returns opts with plans placed in full instead of up to the
// next arrival's horizon (tests only).
func WithFullPlans(opts Options) Options {
	opts.fullPlans = true
	return opts
}

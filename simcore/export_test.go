package simcore

// WithAlwaysReplan returns opts with plan reuse disabled (tests only).
func WithAlwaysReplan(opts Options) Options {
	opts.alwaysReplan = true
	return opts
}

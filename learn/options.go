package learn

import (
	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/simcore"
)

// SimOptions maps a config's sim and objective sections to the simulator
// options the learner scores candidates with, so that evaluations outside a
// run (sweeps, test sets) use exactly the same settings.
func SimOptions(cfg configs.Config) (simcore.Options, error) { return simOptions(cfg) }

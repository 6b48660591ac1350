package experiment

import "github.com/evogp/evogp/simcore"

// Scheduler is the policy's scheduler exactly as simulate, eval and the
// learner run it; deploy/slurm plans a live Slurm queue with it (SPEC §20)
// instead of copying the formula.
func (p Policy) Scheduler() simcore.Scheduler { return p.sched }

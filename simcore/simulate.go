package simcore

import (
	"context"
	"errors"
)

// Allocation is an allocator's window on one scheduling operation.
type Allocation struct {
	s *sim
}

type sim struct{}

// Simulate runs inst online under sched and returns per-job results and
// metrics. It is pure and re-entrant: parallel calls share nothing.
func Simulate(ctx context.Context, inst *Instance, sched Scheduler, opts Options) (Result, error) {
	return Result{}, errors.New("simcore: Simulate is being written")
}

package learn

import (
	"context"
	"math"
)

// The archive on the same instances (issue 27).
//
// Every archive comparison is between vectors of the same training
// instances: before a generation's members are offered to the archive
// (updateArchive), each entry that is not among them is re-scored on the
// generation's subset. Of the ways to get there this is the one that
// keeps the archive's meaning — "not dominated on the data selection
// sees" — at the cost of the archive's missing terms only: most entries
// are survivors (NSGA-II keeps the first front), whose terms the members'
// evaluation has just simulated, and a term seen before is a cache hit.
// Scoring the archive on the validation set every generation would cost
// |validation| simulations per new entry and let validation data steer
// the archive long before the final pick; one fixed set (the whole
// training set) would cost |train| per entry. The re-scored terms go
// through the scalar evaluator (evaluator.fitness), so they land in its
// cache and log and in the component cache, both checkpointed: a resumed
// run re-scores exactly what an uninterrupted one does, from the same
// values, and writes the same bytes. They count in the generation's
// evaluations and cache hits.

// rescoreArchive sets the objectives of every archive entry whose
// individual is not in all to its vector on subset, simulating the terms
// neither cache holds.
func (f *frontState) rescoreArchive(ctx context.Context, ev *evaluator, all []scored, subset []int) (batchStats, error) {
	now := map[uint64]bool{}
	for _, c := range all {
		now[c.hash] = true
	}
	var stale []scored
	var at []int
	for i, a := range f.archive {
		if !now[a.hash] {
			stale = append(stale, scored{tree: a.Tree, routing: a.Routing.Tree, hash: a.hash})
			at = append(at, i)
		}
	}
	if len(stale) == 0 {
		return batchStats{}, nil
	}
	st, err := ev.fitness(ctx, stale, subset, math.Inf(1))
	if err != nil {
		return st, err
	}
	if err := f.fill(ctx, ev, stale, subset); err != nil {
		return st, err
	}
	for j, i := range at {
		f.archive[i].Objectives = f.trainVector(stale[j], subset)
	}
	return st, nil
}

package learn

import (
	"context"
	"fmt"
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

// The retired pool (issue 42).
//
// The archive is the non-dominated set on the generation's subset, and
// the subset changes every generation (gp.subset of the training
// instances): an entry that trades cq_avg for cq_max on one subset is
// often dominated on the next one and leaves the archive for good, though
// it may well be non-dominated on the validation set that forms the
// front. On front-multi at 32 × 6 the archive ended with 4–10 entries and
// the validation front with 2–3 members (docs/FRONT.md). So every entry
// that leaves the archive is kept in a pool of retired entries (the most
// recent gp.population of them, by individual hash; an entry that comes
// back into the archive leaves the pool) and the front is formed from the
// archive and the pool together, all scored on the validation set
// (finish). The pool is never re-scored during the run — that would cost
// its missing training terms every generation — and plays no part in
// selection: the evolution is unchanged, only the candidates the front
// is chosen from grow, at a cost of |validation| simulations per pool
// entry at the end. The pool is in the checkpoint (front.retired), so a
// resumed run forms the same front.

// retire moves the entries of old that are not in the archive any more to
// the pool, drops from the pool what is in the archive again, and keeps
// the most recent cap entries.
func (f *frontState) retire(old []ArchiveEntry) {
	in := map[uint64]bool{}
	for _, a := range f.archive {
		in[a.hash] = true
	}
	gone := map[uint64]bool{}
	var left []ArchiveEntry
	for _, a := range old {
		if !in[a.hash] && !gone[a.hash] {
			gone[a.hash] = true
			left = append(left, a)
		}
	}
	pool := make([]ArchiveEntry, 0, len(f.retired)+len(left))
	for _, a := range f.retired {
		if !in[a.hash] && !gone[a.hash] {
			pool = append(pool, a)
		}
	}
	pool = append(pool, left...)
	if f.retiredCap >= 0 && len(pool) > f.retiredCap {
		pool = pool[len(pool)-f.retiredCap:]
	}
	f.retired = pool
}

// candidates are the individuals the front is formed from: the archive's,
// then the pool's, the rank-0 history's and those of the first two fronts
// of pop (the final population; front_history.go) that came before in
// none of them.
func (f *frontState) candidates(pop []scored) []individual {
	in := map[uint64]bool{}
	var out []individual
	for _, a := range f.archive {
		in[a.hash] = true
		out = append(out, individual{routing: a.Routing.Tree, ranking: a.Tree})
	}
	for _, set := range [][]ArchiveEntry{f.retired, f.rank0} {
		for _, a := range set {
			if !in[a.hash] {
				in[a.hash] = true
				out = append(out, individual{routing: a.Routing.Tree, ranking: a.Tree})
			}
		}
	}
	for _, c := range leadingFronts(pop, 2) {
		if h := c.hash(); !in[h] {
			in[h] = true
			out = append(out, c)
		}
	}
	return out
}

// checkpoint is the multi-objective part of a checkpoint.
func (f *frontState) checkpoint() *frontCheckpoint {
	return &frontCheckpoint{Archive: f.archive, Retired: f.retired, RankZero: f.rank0, Hypervolume: f.hv, Components: f.components()}
}

// restoreRetired restores the pool of a checkpoint (none in a checkpoint
// written before the pool existed).
func (f *frontState) restoreRetired(pool []ArchiveEntry, routing bool) error {
	f.retired = pool
	for i := range f.retired {
		a := &f.retired[i]
		if a.Tree == nil || a.Tree.Size() == 0 || len(a.Objectives) != len(f.names) || (a.Routing.Tree != nil) != routing {
			return fmt.Errorf("retired archive entry %d is malformed", i)
		}
		a.hash = individualHash(a.Routing.Tree, a.Tree)
	}
	return nil
}

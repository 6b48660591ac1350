package learn

import (
	"fmt"

	"github.com/evogp/evogp/internal/pareto"
)

// The rank-0 history and the final population's first fronts (issue 42,
// third round).
//
// The archive and its retired pool (front_archive.go) are the individuals
// that were non-dominated among the archive and a generation's members on
// that generation's training subset, and the pool keeps only the most
// recent gp.population of those that left. On front-multi at 32 × 10 that
// was 11–20 candidates and a validation front of 2–3 members: an
// individual that trades cq_avg for cq_max is often rank 0 for a few
// generations only, dominated on the archive's re-scored entries before it
// ever enters it, or pushed out of the pool by later entries. So two more
// sets of candidates are kept, neither of which takes part in selection
// (the evolution is unchanged):
//
//   - every individual that was ever of rank 0 among a generation's
//     evaluated members (parents ∪ offspring, on that generation's
//     subset), by individual hash, the most recent rank0Cap of them (an
//     individual of rank 0 again moves to the end);
//   - the final population's first two NSGA-II fronts (on the last
//     subset).
//
// All candidates are scored on the validation set once, at the end
// (|validation| simulations each, an individual once whatever set it comes
// from). The history is in the checkpoint (front.rank_zero), so a resumed
// run forms the same front; the final population is in the checkpoint
// already.

// rankZeroCapFactor × gp.population is the size of the rank-0 history.
const rankZeroCapFactor = 2

// recordRankZero adds the rank-0 members of all (a generation's evaluated
// members, first of each hash) to the history, refreshing those already
// in it, and keeps the most recent rank0Cap entries.
func (f *frontState) recordRankZero(all []scored, g int) {
	pts := make([][]float64, len(all))
	for i, c := range all {
		pts[i] = c.objs
	}
	seen := map[uint64]bool{}
	var now []ArchiveEntry
	for _, i := range pareto.NonDominated(pts) {
		c := all[i]
		if seen[c.hash] {
			continue
		}
		seen[c.hash] = true
		now = append(now, ArchiveEntry{Tree: c.tree, Routing: RoutingTree{Tree: c.routing}, Objectives: c.objs, Generation: g, hash: c.hash})
	}
	kept := make([]ArchiveEntry, 0, len(f.rank0)+len(now))
	for _, a := range f.rank0 {
		if !seen[a.hash] {
			kept = append(kept, a)
		}
	}
	kept = append(kept, now...)
	if f.rank0Cap >= 0 && len(kept) > f.rank0Cap {
		kept = kept[len(kept)-f.rank0Cap:]
	}
	f.rank0 = kept
}

// leadingFronts are the members of pop of NSGA-II rank below fronts (on
// the objectives pop was last evaluated on), first of each hash.
func leadingFronts(pop []scored, fronts int) []individual {
	pts := make([][]float64, len(pop))
	for i, c := range pop {
		pts[i] = c.objs
	}
	seen := map[uint64]bool{}
	var out []individual
	for i, r := range pareto.Ranks(pts) {
		if r < fronts && !seen[pop[i].hash] {
			seen[pop[i].hash] = true
			out = append(out, individual{routing: pop[i].routing, ranking: pop[i].tree})
		}
	}
	return out
}

// restoreRankZero restores the rank-0 history of a checkpoint (none in a
// checkpoint written before it existed).
func (f *frontState) restoreRankZero(hist []ArchiveEntry, routing bool) error {
	f.rank0 = hist
	for i := range f.rank0 {
		a := &f.rank0[i]
		if a.Tree == nil || a.Tree.Size() == 0 || len(a.Objectives) != len(f.names) || (a.Routing.Tree != nil) != routing {
			return fmt.Errorf("rank-0 history entry %d is malformed", i)
		}
		a.hash = individualHash(a.Routing.Tree, a.Tree)
	}
	return nil
}

package learn

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/evogp/evogp/internal/pareto"
	"github.com/evogp/evogp/simcore"
)

// The generation loop's side of the surrogate (surrogate.go): building
// the model, breeding the larger pool and screening it, recording each
// generation's evaluations, and keeping the archive in the checkpoint.

// surrogateCheckpoint is the archive in checkpoint/state.json, oldest
// first: each entry's trees and its recorded fitness (or objective
// vector); characterisations are recomputed from the trees.
type surrogateCheckpoint struct {
	Archive []member `json:"archive"`
}

// setSurrogate builds the model of gp.surrogate: knn over the run's
// decision sample (the gp.dedup one when there is one; the same sampling
// otherwise).
func (r *runner) setSurrogate(ctx context.Context, opts simcore.Options) error {
	gp := r.cfg.GP
	if !gp.SurrogateOn() {
		return nil
	}
	ds := r.decisions
	if ds == nil {
		var err error
		if ds, err = sampleDecisions(ctx, r.s.Train, opts, r.ev.candidate, simcore.SRSF{}, gp.DedupSample); err != nil {
			return fmt.Errorf("sampling decisions for gp.surrogate: %w", err)
		}
	}
	if len(ds) == 0 {
		return errors.New("gp.surrogate: the training instances have no scheduling decision of two or more jobs to characterise rules on")
	}
	r.sur = newSurrogate(ds, gp.SurrogateK, gp.SurrogatePool, gp.Population, r.ev.seconds, gp.SurrogateRepeatsFree())
	return nil
}

// breedCount is how many offspring a generation breeds: n, or
// gp.surrogate_pool × n with the surrogate.
func (r *runner) breedCount() int {
	if r.sur == nil {
		return r.cfg.GP.Population
	}
	return r.sur.pool * r.cfg.GP.Population
}

// screenIndex is the indices of the n offspring of the pool the
// surrogate ranks best (surrogateScreen; the run has a surrogate).
func (r *runner) screenIndex(pool []scored) []int {
	var shape *objectiveShape
	if r.front != nil {
		names := r.front.names
		shape = &objectiveShape{dims: len(names), exact: func(c scored, v []float64) {
			for k, name := range names {
				if name == "size" {
					v[k] = float64(r.front.size(c.routing, c.tree, c.hash))
				}
			}
		}}
	}
	return r.sur.screenIndex(pool, r.pop, r.cfg.GP.Population, shape)
}

// recordSurrogate adds the evaluated members of all (np parents, then
// offspring) to the archive, valued so that the archive does not depend
// on gp.early_stop (see surrogate.go): scalar offspring above the prune
// threshold at the threshold; under nsga2 offspring dominated by n
// parents left out. Non-finite values are left out.
func (r *runner) recordSurrogate(all []scored, np int) {
	if r.sur == nil {
		return
	}
	known := r.sur.vectors()
	parents := all[:np]
	var entries []surrogateEntry
	if r.front == nil {
		threshold := math.Inf(1)
		if np < len(all) {
			threshold = r.pruneThreshold(parents)
		}
		for i, c := range all {
			v := c.fitness
			if i >= np && v > threshold {
				v = threshold
			}
			if math.IsNaN(v) || math.IsInf(v, 0) {
				continue
			}
			e := r.sur.entry(c, known)
			e.value = v
			entries = append(entries, e)
		}
	} else {
		n := r.cfg.GP.Population
		for i, c := range all {
			if math.IsInf(c.fitness, 0) || slices.ContainsFunc(c.objs, math.IsNaN) {
				continue
			}
			if i >= np && dominatedCount(parents, c.objs) >= n {
				continue
			}
			e := r.sur.entry(c, known)
			e.objs = slices.Clone(c.objs)
			entries = append(entries, e)
		}
	}
	r.sur.record(entries)
}

// dominatedCount is the number of members of pop whose objective vector
// dominates v.
func dominatedCount(pop []scored, v []float64) int {
	k := 0
	for _, p := range pop {
		if pareto.Dominates(p.objs, v) {
			k++
		}
	}
	return k
}

// surrogateState is the archive for the checkpoint (nil without the
// surrogate).
func (r *runner) surrogateState() *surrogateCheckpoint {
	if r.sur == nil {
		return nil
	}
	ck := &surrogateCheckpoint{Archive: make([]member, len(r.sur.archive))}
	for i, e := range r.sur.archive {
		ck.Archive[i] = member{Tree: e.tree, Routing: RoutingTree{Tree: e.routing}, Fitness: e.value, Objectives: e.objs}
	}
	return ck
}

// restoreSurrogate rebuilds the archive of a checkpoint.
func (r *runner) restoreSurrogate(ck *checkpoint) error {
	switch {
	case r.sur == nil && ck.Surrogate != nil:
		return errors.New("the checkpoint holds a surrogate archive, but gp.surrogate is off")
	case r.sur == nil:
		return nil
	case ck.Surrogate == nil:
		return errors.New("the checkpoint has no surrogate archive, but gp.surrogate is knn")
	}
	r.sur.archive = nil
	for i, m := range ck.Surrogate.Archive {
		if m.Tree == nil {
			return fmt.Errorf("surrogate archive entry %d has no tree", i)
		}
		if r.front != nil && len(m.Objectives) != len(r.front.names) {
			return fmt.Errorf("surrogate archive entry %d has %d objectives, gp.objectives %d", i, len(m.Objectives), len(r.front.names))
		}
		e := r.sur.entry(newScored(m.Routing.Tree, m.Tree), nil)
		e.value, e.objs = m.Fitness, m.Objectives
		r.sur.archive = append(r.sur.archive, e)
	}
	return nil
}

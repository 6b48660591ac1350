package learn

import (
	"context"
	"math"

	"github.com/evogp/evogp/internal/pareto"
)

// Early stop under nsga2 (gp.early_stop), exact on the dominance test.
//
// The parents are scored in full first. The offspring are then scored one
// training instance at a time, in subset order. After each instance an
// offspring's partial objectives — the sums over the instances done so
// far, divided by the subset size, and its exact size — are a lower bound
// on its objective vector (every term is ≥ 0, and adding non-negative
// floats in order never decreases a sum). If at least n = gp.population
// parents dominate that bound they dominate the full vector too, and then
// the offspring cannot survive: all n of them have a strictly lower rank,
// so the fronts before its own already fill the population. Nor can it
// change who survives — a member it dominates is dominated by those n
// parents as well, the ranks of the others depend only on members it does
// not dominate, and crowding is computed within fronts it is not in — nor
// enter the archive (it is dominated in the same batch). Its remaining
// terms are not simulated: it keeps the bound as its vector and +Inf as
// its scalar fitness, and its unsimulated terms are recorded as the bound
// 0, as scalar early stop does, so the evaluation and cache-hit counts
// are those of a full evaluation. With gp.dedup: behaviour the first
// member of a phenotype competes, which depends on the scalar fitness, so
// early stop is off there.

// evaluateEarlyStop is frontState.evaluate with early stop: all is the np
// parents then the offspring, n the population size.
func (f *frontState) evaluateEarlyStop(ctx context.Context, ev *evaluator, all []scored, np, n int, subset []int) (batchStats, error) {
	st := f.count(ev, all, subset)
	var err error
	add := func(s batchStats) { st.sims, st.matched = st.sims+s.sims, st.matched+s.matched }
	parents, offspring := all[:np], all[np:]
	s, err := ev.fitness(ctx, parents, subset, math.Inf(1))
	add(s)
	if err != nil {
		return st, err
	}
	if err := f.fill(ctx, ev, parents, subset); err != nil {
		return st, err
	}
	pv := make([][]float64, np)
	for p := range parents {
		parents[p].objs = f.trainVector(parents[p], subset)
		pv[p] = parents[p].objs
	}
	active := make([]int, len(offspring))
	for i := range active {
		active[i] = i
	}
	excluded := map[int][]float64{}
	for j := range subset {
		batch := make([]scored, len(active))
		for b, c := range active {
			batch[b] = offspring[c]
		}
		s, err := ev.fitness(ctx, batch, subset[j:j+1], math.Inf(1))
		add(s)
		if err != nil {
			return st, err
		}
		if err := f.fill(ctx, ev, batch, subset[j:j+1]); err != nil {
			return st, err
		}
		if j == len(subset)-1 {
			break
		}
		keep := active[:0]
		for _, c := range active {
			lb := f.partialVector(offspring[c], subset, j+1)
			dominators := 0
			for _, v := range pv {
				if pareto.Dominates(v, lb) {
					dominators++
				}
			}
			if dominators >= n {
				excluded[c] = lb
			} else {
				keep = append(keep, c)
			}
		}
		active = keep
	}
	// The survivors of the waves: every term is cached, so this simulates
	// nothing and sets the exact scalar fitness.
	batch := make([]scored, len(active))
	for b, c := range active {
		batch[b] = offspring[c]
	}
	s, err = ev.fitness(ctx, batch, subset, math.Inf(1))
	add(s)
	if err != nil {
		return st, err
	}
	for b, c := range active {
		offspring[c].fitness = batch[b].fitness
		offspring[c].objs = f.trainVector(offspring[c], subset)
	}
	for c := range offspring {
		lb, ok := excluded[c]
		if !ok {
			continue
		}
		for _, i := range subset {
			k := cacheKey{offspring[c].hash, int32(i)}
			if _, ok := ev.cache[k]; ok {
				continue
			}
			if _, ok := ev.bounds[k]; !ok {
				ev.bounds[k] = 0
				ev.log = append(ev.log, cacheEntry{key: k, value: 0, bound: true})
			}
		}
		offspring[c].fitness = math.Inf(1)
		offspring[c].objs = lb
		st.pruned++
	}
	// Offspring that share a hash with an excluded one were excluded with
	// it (same terms, same bound); one that shares it with a kept one was
	// kept. Nothing else to do.
	return st, nil
}

// count is the evaluation and cache-hit count of scoring pop on subset in
// one batch (as evaluator.fitness counts: a term seen before, exactly or
// as a bound, or twice in the batch, is a hit).
func (f *frontState) count(ev *evaluator, pop []scored, subset []int) batchStats {
	var st batchStats
	counted := map[cacheKey]bool{}
	for _, c := range pop {
		for _, i := range subset {
			k := cacheKey{c.hash, int32(i)}
			_, exact := ev.cache[k]
			_, bounded := ev.bounds[k]
			if exact || bounded || counted[k] {
				st.hits++
			} else {
				st.evals++
			}
			counted[k] = true
		}
	}
	return st
}

// partialVector is the lower bound on a member's objective vector over
// subset from the terms of its first done instances (objectiveVector: the
// missing terms count 0, and every term is ≥ 0); size is exact.
func (f *frontState) partialVector(c scored, subset []int, done int) []float64 {
	return f.subsetVector(func(i int) []float64 { return f.comp[cacheKey{c.hash, int32(i)}] },
		subset, done, f.size(c.routing, c.tree, c.hash))
}

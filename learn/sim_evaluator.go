package learn

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
)

// simEvaluator is the simulator's Evaluator: each generation draws its
// training subset D_sub (α instances, rng.go) and scores every member on
// it (runner.evaluate: Eqs. 14–15, the cache, early stop, order
// equivalence, and under a multi-objective selection the objective
// vectors and the archive's re-scoring); with gp.dedup: behaviour it sets
// each member's phenotype.
type simEvaluator struct{ r *runner }

// Begin implements Evaluator.
func (e simEvaluator) Begin(_ int, rng *rand.Rand) {
	e.r.subset = sampleSubset(rng, len(e.r.s.Train), e.r.cfg.GP.Subset)
}

// Evaluate implements Evaluator. It scores the loop's own members in
// place: besides the genomes it reads which parents an offspring was bred
// from (order equivalence answers a child from its parents' traces).
func (e simEvaluator) Evaluate(ctx context.Context, pop Members, np int) (EvalStats, error) {
	all, ok := pop.(scoredMembers)
	if !ok {
		return EvalStats{}, errors.New("learn: the simulator's evaluator scores the members of learn's own loop only")
	}
	r := e.r
	st, err := r.evaluate(ctx, all, np, r.subset)
	if err != nil {
		return EvalStats{}, err
	}
	if r.s.onBatch != nil {
		r.s.onBatch(st)
	}
	r.setPhenotypes(all)
	return EvalStats{Evaluations: st.evals, CacheHits: st.hits, Simulations: st.sims, Pruned: st.pruned}, nil
}

// survived is the loop's hook after survival: a multi-objective run
// offers the generation's members (in compareScored order, so that the
// first of equal members is the same whatever the survival) to the
// archive and records the survivors' hypervolume.
func (r *runner) survived(g int, all, pop []scored) error {
	if r.front == nil {
		return nil
	}
	slices.SortStableFunc(all, compareScored)
	return r.front.generation(g, all, pop, r.subset)
}

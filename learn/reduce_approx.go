package learn

import (
	"context"
	"math"

	"github.com/evogp/evogp/expr"
)

// Approximation is a pair smaller than the exact reduction whose
// validation score is within Tolerance % of it (--reduce-tolerance). It is
// not behaviour-preserving: it is printed, labelled approximate, and never
// replaces the exact reduction or the evolved trees.
type Approximation struct {
	Routing, Ranking *expr.Tree
	Tolerance        float64 // percent
	Validation       float64 // its validation score
	Base             float64 // the exact pair's validation score
}

// approxChunk is the number of candidates scored on validation at once.
const approxChunk = 16

// approximate continues the greedy search from the exact reduction cur
// (validation score base) with a looser test: a candidate is accepted
// when its validation score v satisfies |v − base| ≤ tol/100 · |base|.
// Candidates are those of the exact search (smallest first), scored in
// chunks (all validation instances each); the first acceptable one in
// candidate order is taken, so the result does not depend on the worker
// count. Nil when no smaller acceptable pair exists.
func (e *evaluator) approximate(ctx context.Context, cur individual, base, tol float64, rankLeaves, routeLeaves []*expr.Tree) (*Approximation, error) {
	var out *Approximation
	ok := func(v float64) bool { return math.Abs(v-base) <= tol/100*math.Abs(base) }
	for {
		cands := reductionCandidates(cur, rankLeaves, routeLeaves)
		next := -1
		var score float64
		for lo := 0; lo < len(cands) && next < 0; lo += approxChunk {
			chunk := cands[lo:min(lo+approxChunk, len(cands))]
			v, err := e.validate(ctx, chunk)
			if err != nil {
				return nil, err
			}
			for i, s := range v {
				if ok(s) {
					next, score = lo+i, s
					break
				}
			}
		}
		if next < 0 {
			return out, nil
		}
		cur = cands[next]
		out = &Approximation{Routing: cur.routing, Ranking: cur.ranking, Tolerance: tol, Validation: score, Base: base}
	}
}

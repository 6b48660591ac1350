package learn

import (
	"context"
	"fmt"
	"time"

	"github.com/evogp/evogp/expr"
)

// Every member of a front run's front is reduced (issue 40), not only the
// run's pick: the same behaviour-preserving reduction as the chosen
// individual's (reduce.go: accepted only if the schedule is identical, job
// for job, on every training and validation instance, checked by
// simulation), so front.json/best.json, front.parquet, the front table and
// export --omega show each member's reduced pair first; the evolved trees
// stay in the member's tree fields.
//
// Cost: members are reduced one after the other, each with the
// reduction's own early exits and its candidates checked in parallel
// batches (the result does not depend on the worker count, reduce.go); the
// pick's reduction is reused and a member whose individual was already
// reduced (same hash) is not reduced again. The time taken is
// Result.FrontReduction.Elapsed (printed by learn, not written to
// best.json, which stays byte-identical across runs).
// Oracle: TestFrontMembersReducedIdentical re-simulates every member's
// reduced pair against its evolved one; TestFrontReduceWorkers compares the
// outputs of 1 and 3 workers.

// FrontReduction says what reducing a front's members took.
type FrontReduction struct {
	// Members is the number of members, Reduced the number whose reduced
	// pair is smaller than their simplified evolved pair.
	Members, Reduced int
	// Tried and Simulations sum the members' reductions (the pick's
	// included); they depend on the worker count.
	Tried, Simulations int
	// Elapsed is the wall time of the members other than the pick.
	Elapsed time.Duration
}

// reduceFront reduces every member of res.Front (pick: the pick's
// reduction, already done) and sets each member's Reduced fields and
// res.FrontReduction.
func (r *runner) reduceFront(ctx context.Context, res *Result, pick *Reduction, rankLeaves, routeLeaves []*expr.Tree) error {
	f := res.Front
	if f == nil || f.Pick < 0 || f.Pick >= len(f.Members) {
		return nil
	}
	start := time.Now()
	done := map[string]*Reduction{f.Members[f.Pick].Hash: pick}
	stats := &FrontReduction{Members: len(f.Members)}
	for i := range f.Members {
		m := &f.Members[i]
		red, ok := done[m.Hash]
		if !ok {
			var err error
			if red, err = r.ev.reduce(ctx, individual{m.Routing.Tree, m.Tree}, rankLeaves, routeLeaves); err != nil {
				return fmt.Errorf("reducing front member %s: %w", m.Label, err)
			}
			done[m.Hash] = red
		}
		if i != f.Pick || !ok {
			stats.Tried += red.Tried
			stats.Simulations += red.Simulations
		}
		setReduced(m, red)
		if m.ReducedSize < m.Size {
			stats.Reduced++
		}
	}
	stats.Tried += pick.Tried
	stats.Simulations += pick.Simulations
	stats.Elapsed = time.Since(start)
	res.FrontReduction = stats
	return nil
}

// setReduced stores red in m: Reduced (as printed), the reduced trees'
// infix and their size.
func setReduced(m *FrontMember, red *Reduction) {
	dom := expr.DefaultDomain()
	text := expr.Readable(expr.Shorten(red.Ranking), dom)
	m.ReducedInfix, m.ReducedSize = red.Ranking.String(), red.Ranking.Size()
	if red.Routing != nil {
		text = "R = " + expr.Readable(expr.Shorten(red.Routing), dom) + " ; f = " + text
		m.ReducedRoutingInfix = red.Routing.String()
		m.ReducedSize += red.Routing.Size()
	}
	m.Reduced = text
}

package rule

import (
	"errors"
	"math"
	"sync/atomic"

	"github.com/evogp/evogp/simcore"
)

// decideM is the decision of one job in scope all when the routing tree
// is m alone (wait-first's R, and learned trees that reduce to m): the
// feasible cluster with the smallest m, ties to the current cluster, then
// the user cluster, then the lower index — what the general loop of
// Allocate decides — asking m's what-if only of the clusters that can
// still win.
//
// The clusters are visited in the tie-break order (current, user, then
// ascending index), so the first cluster reaching the smallest value is
// the one better() picks, and a later cluster wins only with a strictly
// smaller value. A cluster p is skipped when a lower bound of its m is
// already ≥ the best value found: its m is then ≥ the best, and a tie
// goes to the earlier cluster. The bound is max(t, x_p) + rem_{j,p}, x_p
// being the earliest time j's shape fits on p beside p's Jn jobs alone
// (book.fitTime, the terminal x): the what-if plan holds the Jn jobs and
// more, so at every time its free GPUs on each node are at most the Jn
// jobs' alone, its capacity Σ_n ⌊max(0, σ)/w⌋ at most theirs, and the
// start it gives j is a time at which j fits in the plan, hence beside
// the Jn jobs alone, hence ≥ x_p (x_p is the first such time: the Jn
// capacity changes only at their releases, the candidate times fitTime
// scans); and a start is ≥ t. Values are compared as Allocate compares
// them, float64(finish − t)/unit, which is monotone in the finish, so the
// bound's value is a lower bound of the value too.
//
// Skipping a query leaves allFinish's state for later queries valid: the
// cluster's members did not change, so its last plan and its shared
// prefix still describe them; the job goes to a cluster that was asked,
// last, for this job (allFinish.assign's promise).
//
// Oracle: TestMBoundIsExact (whole simulations with and without the
// bound, every backfill mode that scope all takes, random and overloaded
// instances; it requires skipped queries).
func (r Rule) decideM(a *simcore.Allocation, books []book, af *allFinish, i, j, cur int) (int, error) {
	now := a.Now()
	user := a.Job(j).Cluster
	best, bestV := -1, 0.0
	try := func(p int) error {
		if p < 0 || !a.Feasible(j, p) {
			return nil
		}
		rem := a.RemainingOn(j, p)
		if best >= 0 {
			b := &books[p]
			lb := max(now, b.fitTime(now, a.Job(j).PerWorker(), a.Job(j).Workers))
			if lb != math.MaxInt64 && float64(lb+rem-now)/r.perHour >= bestV {
				if r.stats != nil {
					r.stats.skipped.Add(1)
				}
				return nil
			}
		}
		f, err := af.finish(i, p, rem)
		if err != nil {
			return err
		}
		if r.stats != nil {
			r.stats.asked.Add(1)
		}
		if v := float64(f-now) / r.perHour; best < 0 || v < bestV {
			best, bestV = p, v
		}
		return nil
	}
	if err := try(cur); err != nil {
		return 0, err
	}
	if user != cur {
		if err := try(user); err != nil {
			return 0, err
		}
	}
	for p := range a.Clusters() {
		if p == cur || p == user {
			continue
		}
		if err := try(p); err != nil {
			return 0, err
		}
	}
	if best < 0 {
		return 0, errors.New("rule: job feasible nowhere")
	}
	return best, nil
}

// mStats counts decideM's what-ifs (tests only: Rule.stats is nil
// otherwise).
type mStats struct{ asked, skipped atomic.Int64 }

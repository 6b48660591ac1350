package rule

import (
	"fmt"
	"slices"

	"github.com/evogp/evogp/simcore"
)

// allFinish gives the terminal m in scope all (SPEC §16): the finish time
// MCT computes for job j on cluster p given what is on p at that point of
// the operation — the Jn jobs on p plus the jobs assigned to p so far in
// this operation — planned by the ranking f and the placer on the
// allocation seam's what-if planners (side-effect free; the plan of MCT's
// what-if, so greedy backfilling plans by the no-backfill rule).
//
// It is incremental as EVO's pure MCT is: the jobs assigned to p are kept
// as ascending rank positions on p, a query plans them with j inserted at
// its rank, and the planner re-plans only from the first rank that differs
// from the last set it planned (under Eq. 13 a job's start depends only on
// the jobs ranked before it). When the decision order agrees with the
// ranking on p (FIFO, or any ranking on one GPU type), each query re-plans
// one job.
type allFinish struct {
	planners []*simcore.WhatIfPlanner
	rankOf   [][]int32 // rankOf[p][i]: rank position on p of js[i], −1 if infeasible there
	members  [][]int32 // rank positions assigned to p so far, ascending
	ranks    []int32   // scratch
	// shared[p]: how many leading members[p] equal the ranks of the last
	// plan on p's planner (PlanShared's promise): after a query of rank
	// position k, k; after that job is assigned to p, all of them (the
	// members are then the ranks planned).
	shared []int
	order  [][]int // candidates by rank position per cluster (the planners')
	// idxs[p], feas[p]: the indices into js and the jobs of the jobs
	// feasible on p (scratch of newAllFinish).
	idxs, feas [][]int
}

// newAllFinish prepares the what-if planners for the jobs js (Js, in any
// order; a query names a job by its index in js), reusing the buffers of
// af (nil: new ones) — a simulation keeps one allFinish in its scratch, so
// an operation allocates no per-cluster slices (they were 10 % of a
// scope-all learner's CPU, docs/PERFORMANCE.md). Every buffer is
// rewritten before it is read: rankOf[p] entirely, members and shared
// reset, idxs, feas and order rebuilt.
func newAllFinish(af *allFinish, a *simcore.Allocation, js []int) *allFinish {
	P := a.Clusters()
	if af == nil {
		af = &allFinish{}
	}
	af.rankOf = resize(af.rankOf, P)
	af.members = resize(af.members, P)
	af.shared = resize(af.shared, P)
	af.order = resize(af.order, P)
	af.idxs = resize(af.idxs, P)
	af.feas = resize(af.feas, P)
	for p := range P {
		idx, jobs := af.idxs[p][:0], af.feas[p][:0]
		for i, j := range js {
			if a.Feasible(j, p) {
				idx = append(idx, i)
				jobs = append(jobs, j)
			}
		}
		af.idxs[p], af.feas[p] = idx, jobs
		af.members[p] = af.members[p][:0]
		af.shared[p] = 0
	}
	perms := a.RankOrders(af.feas) // one sort per distinct (jobs, keys): exact, see RankOrders
	for p := range P {
		idx, jobs, perm := af.idxs[p], af.feas[p], perms[p]
		rankOf := resize(af.rankOf[p], len(js))
		for i := range rankOf {
			rankOf[i] = -1
		}
		ranked := resize(af.order[p], len(perm))
		for k, i := range perm {
			ranked[k] = jobs[i]
			rankOf[idx[i]] = int32(k)
		}
		af.rankOf[p] = rankOf
		af.order[p] = ranked
	}
	af.planners = a.WhatIfs(1, af.order)[0]
	return af
}

// resize is x with length n, its buffer reused when large enough (the
// contents are unspecified).
func resize[T any](x []T, n int) []T {
	if cap(x) < n {
		return make([]T, n)
	}
	return x[:n]
}

// finish is m's finish time (absolute seconds) of js[i] on cluster p, rem
// being its remaining time on p.
func (af *allFinish) finish(i, p int, rem int64) (int64, error) {
	rk := af.rankOf[p][i]
	if rk < 0 {
		return 0, fmt.Errorf("rule: m asked for a job on a cluster it cannot run on (%d)", p)
	}
	m := af.members[p]
	k, _ := slices.BinarySearch(m, rk)
	var ranks []int32
	if k == len(m) {
		// rk after every member (the decision order agrees with the
		// ranking on p): the set is m and rk in m's spare capacity, which
		// assign's insertion at the end writes the same value to. Plan
		// only reads ranks.
		ranks = append(m, rk)
		af.members[p] = ranks[:len(m)]
	} else {
		af.ranks = append(append(append(af.ranks[:0], m[:k]...), rk), m[k:]...)
		ranks = af.ranks
	}
	wp := af.planners[p]
	if _, err := wp.PlanShared(ranks, min(k, af.shared[p])); err != nil {
		return 0, fmt.Errorf("rule: m: %w", err)
	}
	af.shared[p] = k
	return wp.Starts()[k] + rem, nil
}

// assign records js[i] on cluster p.
func (af *allFinish) assign(i, p int) {
	rk := af.rankOf[p][i]
	k, _ := slices.BinarySearch(af.members[p], rk)
	af.members[p] = slices.Insert(af.members[p], k, rk)
	// The last query on p was this job, at position k (Allocate queries
	// every feasible cluster for a job before assigning it), so the
	// members are now exactly the ranks p's planner planned last.
	af.shared[p] = len(af.members[p])
}

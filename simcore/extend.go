package simcore

import "slices"

// Extending the last plan (no backfilling, Eq. 13).
//
// A plan built at operation t is carried to a later operation t' and
// extended with the new jobs only when extendable's conditions hold (see
// there): then the carried state after t' is the state a full rebuild
// reaches after the same jobs, because under Eq. 13 a job's plan depends
// only on the jobs ranked before it. rewind (rewind.go) applies the same
// argument to a prefix. The oracle is a rebuild of every plan at every
// operation (testHooks.alwaysReplan; SimulateReplanning in the tests):
// TestPlanReuseIsExact, TestPlannerMatchesReferenceRandom and the
// generated-instance tests (TestGeneratedInstancesReuseAndInvariants,
// TestOverloadedIncrementalPlansExact) compare whole simulations.

// lastPlan is the last plan a planner built, kept to extend, rewind or
// splice it at a later operation instead of rebuilding it.
type lastPlan struct {
	order      []int     // the ranked Js jobs of the last plan built
	orderRel   []release // their releases, job by job
	orderOff   []int     // job i of order has orderRel[orderOff[i]:orderOff[i+1]]
	orderStart []int64   // job i of order starts at orderStart[i]
	built      bool      // sigma, rel, order and the jobs' plans hold that plan
	completed  bool      // a job of this cluster finished since that plan
}

// extendable decides whether the last plan built (at time t, order O) can
// be carried to the current time t' and extended with the new jobs only,
// and returns how many of the freshly ranked jobs it already holds.
//
// Under Eq. 13 every placed job occupies its nodes from the plan time to
// its finish, so after t' the last plan's σ differs from the current one
// only by releases that fell due in (t, t']. The last plan is therefore
// still the plan of its remaining jobs when (i) the jobs of O that started
// on their user cluster or finished since t form a prefix of O — they were
// placed first then and are fixed (or gone) now, on the same nodes until
// the same finish; (ii) no job is running off its user cluster if a job of
// this cluster finished since t (it is placed again at t', where σ may
// differ); and (iii) the fresh ranking keeps the rest of O that the last
// plan placed in order and ranks every other job after them (with a plan
// that placed all of O: every new job after O). Then placing the other
// jobs on the carried state gives exactly the plan a full rebuild would.
// No-backfill only.
func (p *planner) extendable() (int, bool) {
	s := p.s
	if !p.last.built {
		return 0, false
	}
	gone := func(j int) bool { return s.state[j] == done || s.isFixed(j) }
	m := 0
	for m < len(p.last.order) && gone(p.last.order[m]) {
		m++
	}
	for _, j := range p.last.order[m:] {
		if gone(j) {
			return 0, false
		}
	}
	// Only the jobs the last plan placed are kept: a plan that stopped
	// early (horizon.go) held nothing for the others, which are placed
	// afresh with the new jobs in the fresh order.
	kept := p.last.order[m:p.placed()]
	p.rankTo(len(kept))
	if len(kept) > len(p.jobs) || !slices.Equal(kept, p.jobs[:len(kept)]) {
		return 0, false
	}
	if p.last.completed {
		for _, j := range kept {
			if s.state[j] == running {
				return 0, false
			}
		}
	}
	return len(kept), true
}

// advance carries the last plan's state to the current time: releases due
// by now return their GPUs to σ and planned starts in the past become now.
// (Only the no-backfill path extends or rewinds plans, where the state after
// the fixed jobs is read off the persistent fixed state: fixedFromUse.)
func (p *planner) advance() {
	s := p.s
	i := 0
	for ; i < len(p.rel) && p.rel[i].at <= s.now; i++ {
		p.sigma[p.rel[i].node] += int(p.rel[i].gpus)
	}
	p.rel = slices.Delete(p.rel, 0, i)
	for _, j := range p.jobs {
		s.planStart[j] = max(s.planStart[j], s.now)
	}
	p.cache.dropBefore(s.now)
	p.lz.hz.valid = false
}

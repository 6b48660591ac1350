package simcore

import (
	"cmp"
	"fmt"
	"slices"
)

// WhatIfPlanner plans hypothetical member sets of one cluster for an
// allocator that re-decides Js (EVO, mct-all, a learned allocation rule):
// the cluster's Jn jobs plus a chosen subset of candidate Js jobs, planned
// by the list scheduler's own rule (the configured ranking, placer and
// backfill mode; greedy backfilling plans by the no-backfill rule so every
// job gets a start) without touching the simulation.
//
// The candidates are fixed when the planner is made (Allocation.WhatIfs),
// sorted in the ranking order on the cluster (RankOrder); a member set is named by the
// ascending rank positions of its members, so its plan is the plan of
// those jobs in that order. Two planners stand behind the type and give the
// same starts: the level planner (levelplan.go: no backfilling or greedy,
// a best-fit or round-robin placer), which re-plans a set only from its
// first rank that differs from the last set planned, and otherwise the
// list scheduler's what-if planner (a shallow copy of the simulation per
// cluster).
//
// A planner is not safe for concurrent use; make one set per goroutine.
type WhatIfPlanner struct {
	s       *sim
	p       int
	jobs    []int // candidates by rank position
	level   *levelPlanner
	w       *whatIf
	members []int
	starts  []int64
	// unloaded: the level planner's levels are not loaded yet in this
	// operation (levelSets.take defers loadLevels to the first Plan, so a
	// cluster the allocator never asks costs no O(N·G) load).
	unloaded bool
	// jobsUnloaded: the level planner's candidates are not loaded yet in
	// this operation (levelSets.take defers loadJobs to the first Plan or
	// to the first Assign that rewrites a remaining time, whichever comes
	// first: see levelSets.loadPending).
	jobsUnloaded bool
	peers        []*WhatIfPlanner // the set wp was handed out in (levelSets.take)
}

// loadCandidates loads the level planner's deferred candidates, copying
// them from a planner of the same set already loaded in this operation for
// the same candidates where remaining times do not depend on the cluster
// (levelPlanner.loadJobs' from).
func (wp *WhatIfPlanner) loadCandidates() {
	s := wp.s
	var from *levelPlanner
	if s.dur == nil && !s.estimated {
		for _, q := range wp.peers {
			if q != wp && !q.jobsUnloaded && slices.Equal(q.jobs, wp.jobs) {
				from = q.level
				break
			}
		}
	}
	wp.level.loadJobs(s, wp.p, wp.jobs, from)
	wp.jobsUnloaded = false
}

// Cluster is the planner's cluster.
func (wp *WhatIfPlanner) Cluster() int { return wp.p }

// Candidates are the candidate jobs by rank position on the cluster (read
// only).
func (wp *WhatIfPlanner) Candidates() []int { return wp.jobs }

// Level reports whether the level planner stands behind wp.
func (wp *WhatIfPlanner) Level() bool { return wp.level != nil }

// Plan plans the cluster holding its Jn jobs and the candidates at rank
// positions ranks (ascending, each below len(Candidates())). It returns
// from, the first position it re-planned: the starts of ranks[:from] are
// those of the previous Plan (which had the same first from ranks), so a
// caller summing per-job terms in rank order may keep those sums. Starts
// then holds S_j of every member, by position in ranks. A member that
// cannot be placed is an error.
func (wp *WhatIfPlanner) Plan(ranks []int32) (from int, err error) {
	return wp.PlanShared(ranks, 0)
}

// PlanShared is Plan for a caller that knows that ranks[:same] equals the
// ranks of the previous Plan on wp up to position same (same ≤ the length
// of both): the level planner then compares the two from position same on
// rather than from the start, which, for a caller that appends one rank
// to the last set planned, makes a query O(1) besides placing the new job
// (simcore/rule's m in scope all). The starts are Plan's when the promise
// holds; oracles: simcore/rule's TestAllFinishSharedIsFullPlan (every query
// against a full plan on the reference planner) and
// TestRoutingMScopeAllIsReference (whole
// simulations against full re-plans on the reference what-if planner).
func (wp *WhatIfPlanner) PlanShared(ranks []int32, same int) (from int, err error) {
	if wp.level != nil {
		if wp.jobsUnloaded {
			wp.loadCandidates()
		}
		if wp.unloaded {
			wp.level.loadLevels(wp.s, wp.p)
			wp.unloaded = false
		}
		from, err = wp.level.planShared(wp.s, wp.p, ranks, same)
		wp.starts = wp.level.starts[:len(ranks)]
		return from, err
	}
	wp.members = wp.members[:0]
	for _, r := range ranks {
		wp.members = append(wp.members, wp.jobs[r])
	}
	if err := wp.w.plan(wp.p, wp.members); err != nil {
		return 0, err
	}
	ws := wp.w.sims[wp.p]
	wp.starts = wp.starts[:0]
	for _, j := range wp.members {
		st := ws.planStart[j]
		if st == never {
			return 0, fmt.Errorf("simcore: what-if: job %d cannot be placed on cluster %d", ws.inst.Jobs[j].ID, wp.p)
		}
		wp.starts = append(wp.starts, st)
	}
	return 0, nil
}

// Starts are the members' starts after the last Plan, by position in its
// ranks; valid until the next Plan.
func (wp *WhatIfPlanner) Starts() []int64 { return wp.starts }

// WhatIfs returns k sets of what-if planners, one set per goroutine that
// will plan at the same time, each holding one planner per cluster p for
// the candidates order[p] (jobs of Js feasible on p, in the ranking order
// on p as RankOrder gives it). The planners are valid during the Allocate
// call only. The list scheduler's what-if planners are kept across
// operations by the simulation and refreshed here.
func (a *Allocation) WhatIfs(k int, order [][]int) [][]*WhatIfPlanner {
	return a.whatIfs(k, order, levelPlanning(a.s))
}

// ReferenceWhatIfs is WhatIfs on the list scheduler's what-if planner only
// (never the level planner): the reference that tests compare the level
// planner with.
func (a *Allocation) ReferenceWhatIfs(k int, order [][]int) [][]*WhatIfPlanner {
	return a.whatIfs(k, order, false)
}

func (a *Allocation) whatIfs(k int, order [][]int, level bool) [][]*WhatIfPlanner {
	s := a.s
	k = max(1, k)
	if level && !s.hooks.freshWhatIfs {
		return s.levelSets.take(s, k, order)
	}
	var ws []*whatIf
	if !level {
		ws = s.whatIfs(k)
	}
	out := make([][]*WhatIfPlanner, k)
	for w := range k {
		out[w] = make([]*WhatIfPlanner, len(order))
		for p, jobs := range order {
			wp := &WhatIfPlanner{s: s, p: p, jobs: jobs}
			if level {
				wp.level = newLevelPlanner(s, p, jobs)
			} else {
				wp.w = ws[w]
			}
			out[w][p] = wp
		}
	}
	return out
}

// levelSets are the allocation seam's level planners, kept across
// operations as the list scheduler's what-if planners are (sim.whatIfs):
// making a level planner per cluster at every operation was 28 % of the
// CPU of a rule allocator with m in scope all (docs/PERFORMANCE.md). A
// planner handed out is reloaded (levelPlanner.load) rather than
// reallocated. Sets handed out earlier in the same operation are not
// reused, so every WhatIfs call of an operation gets planners of its own,
// as when each was freshly made.
//
// Exact: load writes every value a plan reads (see its comment), and a
// WhatIfPlanner on the level path reads only s, p, jobs and level (starts
// is set by each Plan). Oracles: TestWhatIfPoolIsFresh (whole simulations,
// pooled against freshly made planners: testHooks.freshWhatIfs) and
// TestLevelPlannerMatchesWhatIf (pooled planners against the reference what-if
// planner at every operation).
type levelSets struct {
	op   int // the operation the sets in use were handed out at
	used int // sets[:used] are in use at op
	// pending: a planner of sets[:used] may still hold unloaded candidates
	// (loadPending clears it).
	pending bool
	sets    [][]*WhatIfPlanner // per set, one planner per cluster index
}

// take hands out k sets of level planners for the candidates order,
// loaded at the simulation's current operation.
func (ls *levelSets) take(s *sim, k int, order [][]int) [][]*WhatIfPlanner {
	if ls.op != s.ops {
		ls.op, ls.used = s.ops, 0
	}
	for len(ls.sets) < ls.used+k {
		ls.sets = append(ls.sets, nil)
	}
	out := make([][]*WhatIfPlanner, k)
	for w := range out {
		set := ls.sets[ls.used+w]
		for len(set) < len(order) {
			set = append(set, &WhatIfPlanner{level: &levelPlanner{}})
		}
		ls.sets[ls.used+w] = set
		for p, jobs := range order {
			wp := set[p]
			wp.s, wp.p, wp.jobs, wp.starts = s, p, jobs, nil
			wp.peers = set[:len(order)]
			wp.jobsUnloaded = true // the candidates are loaded at the first Plan (loadPending)
			wp.unloaded = true     // the levels are loaded at the first Plan (loadLevels)
		}
		out[w] = set[:len(order):len(order)]
	}
	ls.used += k
	ls.pending = true
	return out
}

// loadPending loads the candidates of every planner handed out in this
// operation that has not planned yet. take defers loadJobs so that a
// cluster the allocator never asks costs no O(candidates) load (with the
// box bound most decisions ask one or two clusters of six): 5–9 % of the
// scope-all rule's CPU on the quick splits (docs/PERFORMANCE.md, issue 39
// fifth round).
//
// Exact: loadJobs reads the candidates (order[p], which the caller keeps
// unchanged while it plans, as the reference planner reads it at every
// Plan too), the jobs' shapes and the placer, all fixed during Allocate,
// and remOn(j, p), which reads rem[j], the lag of fixed jobs and, on
// heterogeneous instances, the job's assigned cluster. During Allocate
// only Allocation.Assign writes those, and only through sim.assign's
// rescaling of rem on heterogeneous instances (a job of Js has no lag).
// Assign calls loadPending before such a write, so every planner's
// candidates are those it would have loaded when handed out. Oracles:
// TestWhatIfPoolIsFresh (whole simulations of an allocator that plans
// after moving jobs, homogeneous and heterogeneous, pooled lazy planners
// against freshly made eager ones; it requires loads deferred past a
// rescaling Assign) and TestLevelPlannerMatchesWhatIf.
func (ls *levelSets) loadPending(s *sim) {
	if !ls.pending || ls.op != s.ops {
		return
	}
	for _, set := range ls.sets[:ls.used] {
		for _, wp := range set {
			if wp.jobsUnloaded {
				wp.loadCandidates()
				if s.hooks.stats != nil {
					s.hooks.stats.FlushedLoads++
				}
			}
		}
	}
	ls.pending = false
}

// whatIf plans clusters for hypothetical member sets without touching the
// simulation. Each cluster has its own shallow copy of the simulation with
// its own plan, keys and planner state (so the last plan built on a
// cluster can be extended), sharing the read-only job state and the
// clusters' persistent fixed-job state. A simulation keeps its what-if
// planners across operations and refreshes them at each.
type whatIf struct {
	sims  []*sim
	pls   []*planner
	keyAt [][]int // per cluster and job: the operation its key was computed at
}

func newWhatIf(s *sim) *whatIf {
	w := &whatIf{}
	n := len(s.inst.Jobs)
	for p, c := range s.inst.Clusters {
		ws := &sim{planStart: make([]int64, n), planPlace: make([][]Slot, n), key: make([]float64, n)}
		w.sims = append(w.sims, ws)
		w.pls = append(w.pls, newPlanner(ws, p, c))
		w.keyAt = append(w.keyAt, make([]int, n))
	}
	return w
}

// refresh loads the simulation's current state.
func (w *whatIf) refresh(s *sim) {
	for p, ws := range w.sims {
		start, place, key := ws.planStart, ws.planPlace, ws.key
		*ws = *s
		ws.planStart, ws.planPlace, ws.key = start, place, key
		if ws.opts.Backfill == BackfillGreedy {
			ws.opts.Backfill = BackfillNone
		}
		pl, real := w.pls[p], s.clusters[p]
		pl.fixed, pl.fixedUse, pl.fixedRels = real.fixed, real.fixedUse, real.fixedRels
		pl.last.built, pl.valid, pl.last.completed = false, false, false
	}
}

// whatIfs returns k refreshed what-if planners, kept across operations.
func (s *sim) whatIfs(k int) []*whatIf {
	for len(s.whatIfPool) < k {
		s.whatIfPool = append(s.whatIfPool, newWhatIf(s))
	}
	for _, w := range s.whatIfPool[:k] {
		w.refresh(s)
	}
	return s.whatIfPool[:k]
}

// plan builds the plan of cluster p holding the Js jobs members (and its
// Jn jobs); the starts are left in w.sims[p].planStart.
func (w *whatIf) plan(p int, members []int) error {
	pl := w.pls[p]
	for _, j := range members {
		w.key(p, j)
	}
	// The last plan built on pl is extended rather than rebuilt when its
	// ranked jobs are a prefix of the new ranking (planner.extendable):
	// under Eq. 13 a job's plan depends only on the jobs ranked before it.
	pl.jobs = append(pl.jobs[:0], members...)
	pl.valid = false
	return pl.plan()
}

// key sets job j's ranking key on cluster p, once per operation.
func (w *whatIf) key(p, j int) {
	s := w.sims[p]
	if w.keyAt[p][j] != s.ops {
		s.key[j] = s.priority(j, p)
		w.keyAt[p][j] = s.ops
	}
}

// RankKey is f(j, t), job j's ranking key on cluster p at the operation
// time (the list scheduler's ranking evaluated on the job as it would be on
// p).
func (a *Allocation) RankKey(j, p int) float64 { return a.s.rankKey(j, p) }

// RankOrder returns the positions of jobs (indices into it) in the ranking
// order on cluster p: by the key (f(j, t), a_j, id) of SPEC §4.2, NaN
// after every number. Each key is evaluated once.
func (a *Allocation) RankOrder(p int, jobs []int) []int {
	items := a.rankItems(p, jobs, nil)
	return sortRankItems(items, make([]int, len(jobs)))
}

// RankOrders is RankOrder(p, jobs[p]) for every cluster p. A cluster
// whose jobs and keys equal an earlier cluster's (clusters of one GPU
// type, where f(j, t) does not depend on the cluster) gets that cluster's
// order without sorting again: the order is a function of the keys, the
// arrivals and the ids alone, so it is the same slice (read only). The
// result and its slices live in the simulation's buffers (rankScratch)
// and are valid until the next RankOrders call. Oracle:
// TestRankOrdersIsRankOrder.
func (a *Allocation) RankOrders(jobs [][]int) [][]int {
	rs := &a.s.rankScratch
	rs.out = resize(rs.out, len(jobs))
	out := rs.out
	owner := rs.owner[:0] // the cluster of each distinct list so far
	for p, js := range jobs {
		if a.s.keys.on {
			// Keys shared by every cluster (clusterblind.go): equal job
			// lists have equal items, so an earlier equal list's order
			// is this one's, without evaluating the items.
			reused := false
			for _, q := range owner {
				if slices.Equal(jobs[q], js) {
					out[p], reused = out[q], true
					break
				}
			}
			if reused {
				continue
			}
		}
		k := len(owner)
		if k == len(rs.items) {
			rs.items, rs.perms = append(rs.items, nil), append(rs.perms, nil)
		}
		it := a.rankItems(p, js, rs.items[k][:0])
		rs.items[k] = it
		reused := false
		for kk, q := range owner {
			if slices.Equal(jobs[q], js) && slices.Equal(rs.items[kk], it) {
				out[p], reused = out[q], true
				break
			}
		}
		if reused {
			continue
		}
		rs.work = append(rs.work[:0], it...) // sorted in place; items[k] stays unsorted for the comparisons
		rs.perms[k] = sortRankItems(rs.work, resize(rs.perms[k], len(js)))
		out[p] = rs.perms[k]
		owner = append(owner, p)
	}
	rs.owner = owner
	return out
}

// rankScratch is RankOrders' buffers, kept across operations (every
// buffer is rewritten before it is read: out[p] for every p, items[k] and
// perms[k] for each distinct list k of the call, work at each sort). It
// replaced a slice per cluster and call (9 % of a scope-all learner's CPU
// in allocation and copying, docs/PERFORMANCE.md).
type rankScratch struct {
	out   [][]int
	items [][]rankItem // per distinct list of the call: its items, unsorted
	perms [][]int      // per distinct list: its order
	work  []rankItem
	owner []int
}

// rankItem is one job's sort key on a cluster: KeyBits of f(j, t) (an
// order-preserving map of the key in which NaN is last and −0 = +0, the
// order lessKey and the NaN ties of SPEC §4.2 give), then (a_j, id).
type rankItem struct {
	k       uint64
	arr, id int64
	pos     int
}

func (a *Allocation) rankItems(p int, jobs []int, items []rankItem) []rankItem {
	s := a.s
	items = items[:0]
	for i, j := range jobs {
		job := &s.inst.Jobs[j]
		items = append(items, rankItem{k: KeyBits(s.rankKey(j, p)), arr: job.Arrival, id: job.ID, pos: i})
	}
	return items
}

// sortRankItems sorts items by (key, arrival, id) and writes their
// positions, in that order, to perm. Ids are unique (Instance.Validate),
// so the order is total and any sort gives the one the comparator-based
// sort of keys gave before (TestRankOrderIsReference).
func sortRankItems(items []rankItem, perm []int) []int {
	slices.SortFunc(items, func(x, y rankItem) int {
		if x.k != y.k {
			return cmp.Compare(x.k, y.k)
		}
		if x.arr != y.arr {
			return cmp.Compare(x.arr, y.arr)
		}
		return cmp.Compare(x.id, y.id)
	})
	for i, it := range items {
		perm[i] = it.pos
	}
	return perm
}

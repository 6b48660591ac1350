package simcore

import "fmt"

// levelPlanner is the no-backfill plan (Eq. 13) of one cluster for the
// what-if planners of the allocation seam (WhatIfPlanner), in a form that
// makes a placement and its undo cheap. The list scheduler's cluster
// planners keep their own state in the same form (planlevels.go: the
// levels only, loaded from σ and the releases, without the path).
//
// Under Eq. 13 a placed job holds its GPUs on its nodes from t to its
// finish F, so σ(n, τ) is a non-decreasing step function of τ on each
// node, bounded by G. Write T_n(v) (v = 1..G) for the first candidate
// time τ ∈ {t} ∪ {release times} with σ(n, τ) ≥ v (never if none). Then
// ⌊max(0, σ(n, τ))/w⌋ = #{k ≥ 1 : T_n(k·w) ≤ τ}, so the earliest start of
// Eqs. 12–13 — the first candidate τ with Σ_n ⌊max(0, σ(n, τ))/w⌋ ≥ r — is
// the r-th smallest of the values T_n(k·w) over all nodes n and k ≥ 1, and
// max(0, σ(n, τ)) = #{v : T_n(v) ≤ τ}. Placing c GPUs on node n until F
// lowers σ(n, ·) by c before F, which gives
//
//	T'_n(v) = T_n(v+c)     if v + c ≤ G and T_n(v+c) < F,
//	T'_n(v) = max(F, T_n(v)) otherwise,
//
// O(G) per node used, with no sorted release list to maintain. Each change
// is logged, so the state after any prefix of the last plan is restored by
// undoing the log back to it: member sets planned in lexicographic order of
// their ranks re-plan only from their first rank that differs from the
// previous set's. The starts of the path's jobs are kept, so a caller that
// sums per-job terms in ranking order (EVO's fitness) needs to redo only
// the suffix that was re-planned; every start is the list scheduler's
// what-if planner's (levelplan_test.go checks it, and simcore/evo's tests
// check the fitness contributions to the last bit).
//
// The placer sees max(0, σ(n, S)) where the list scheduler's planner
// passes σ(n, S); levelPlacerOK admits only placers that never use a node
// with less than w free GPUs, for which the two are the same.
type levelPlanner struct {
	nodes, g int
	now      int64
	placer   Placer
	jobs     []levelJob // by rank position on this cluster

	t []int64 // T_n(v) at (v − 1)·N + n (level-major)
	// undo: for each occupation, the old values of the levels it may have
	// changed (levels 1..k of node n), then a header n<<16 | k.
	undo   []int64 // undo[:nu] is the log
	nu     int
	undoAt []int   // undoAt[d]: nu after the first d jobs of path
	path   []int32 // path[:depth]: rank positions of the jobs placed, in order
	starts []int64 // starts[d]: S of path[d]
	depth  int

	free, place []int
	fill        []int // scratch: load's levels per node
	best        []int64
	bestFit     bool   // the placer is BestFit: bestFitOne and bestFitAt, read off the levels
	slots       []Slot // scratch: pickAt's choice

	// The levels of a cluster's fixed state as loadLevels last loaded
	// them, kept across operations (see loadLevels): valid for the real
	// planner baseOf at its fixedGen baseGen, loaded at baseAt.
	base    []int64
	baseOf  *planner
	baseGen uint64
	baseAt  int64
}

// levelJob is what placing a job needs: its index, shape and remaining
// time on this cluster.
type levelJob struct {
	j    int
	w, r int
	rem  int64
}

// levelPlacerOK reports whether the placer ignores nodes with less than w
// free GPUs (so negative free values may be given as 0).
func levelPlacerOK(pl Placer) bool {
	switch pl.(type) {
	case BestFit, *BestFit, RoundRobin, *RoundRobin:
		return true
	}
	return false
}

// newLevelPlanner loads cluster p's fixed jobs (as planner.begin does: σ
// after them at t, and their releases; a release at or before t never
// counts, as in the start cache's sweep) and the jobs that may join it, by
// rank position.
func newLevelPlanner(s *sim, p int, order []int) *levelPlanner {
	lp := &levelPlanner{}
	lp.load(s, p, order)
	return lp
}

// load is newLevelPlanner on an existing planner: it (re)loads cluster p
// at the operation's time for the candidates order, reusing lp's buffers
// (the allocation seam keeps its level planners across operations,
// whatif.go: levelSets). It is exact: every value a plan reads is written
// here first — t entirely, jobs, depth = nu = 0 and undoAt[0] = 0 (the
// path, starts, undo log and the rest of undoAt are written before they
// are read: plan writes path[d], starts[d], undoAt[d+1] as it places job
// d, occupy writes each log entry before rewind reads it), bestFit, and
// the placer; free, place, best and slots are scratch, overwritten or
// cleared at each use. Oracles: TestWhatIfPoolIsFresh (whole simulations
// with pooled and freshly made planners, compared) and
// TestLevelPlannerMatchesWhatIf (pooled planners against the list scheduler's
// what-if planner at every operation).
func (lp *levelPlanner) load(s *sim, p int, order []int) {
	lp.loadJobs(s, p, order, nil)
	lp.loadLevels(s, p)
}

// loadLevels writes the levels of cluster p's fixed jobs at the
// operation's time (and sizes the per-node scratch): the part of load
// that costs O(N·G). It reads only the cluster's fixed jobs and the time,
// which no allocation step changes, so the allocation seam may call it at
// a planner's first Plan in the operation rather than when handing the
// planner out (levelSets.take; exact by that, oracle
// TestWhatIfPoolIsFresh and TestLevelPlannerMatchesWhatIf, which plan on
// lazily loaded planners).
//
// The levels are kept across operations while the cluster's fixed state
// does not change (no fixed job started or finished: the real planner's
// fixedGen) and no fixed release falls due after their load and by now:
// then they are copied rather than rebuilt, and read clamped to now, as
// the list scheduler's own planners read their carried levels
// (planlevels.go). Exact: the levels loaded at now would be the kept ones
// with every value at or below now — the old load time, as no release
// falls due in between — replaced by now; planShared reads a start
// through bestFitOne with floor now or earliest clamped to now (clamping
// is monotone, so the r-th smallest clamped value is the clamped r-th
// smallest), every placement time is then ≥ now, so a node's free GPUs at
// it count the same values clamped or not, and an occupation until F > now
// changes a level exactly when its clamped value does (min(T, F) clamped
// is min(clamped T, F)). A load that leaves out a release at or before
// now (as the start cache's sweep does) is not kept. Oracles:
// TestWhatIfPoolIsFresh (whole simulations, pooled planners against
// freshly made ones; it requires kept levels) and
// TestLevelPlannerMatchesWhatIf (pooled planners against the list
// scheduler's what-if planner at every operation).
func (lp *levelPlanner) loadLevels(s *sim, p int) {
	c := s.inst.Clusters[p]
	real := s.clusters[p]
	lp.nodes, lp.g, lp.now, lp.placer = c.Nodes, c.GPUsPerNode, s.now, s.list.Placer
	lp.t = resize(lp.t, lp.nodes*lp.g)
	lp.fill = resize(lp.fill, lp.nodes)
	lp.free = resize(lp.free, lp.nodes)
	lp.place = resize(lp.place, lp.nodes)
	if lp.baseOf == real && lp.baseGen == real.fixedGen && len(lp.base) == len(lp.t) && lp.baseAt <= s.now {
		if i := relAfter(real.fixedRels, lp.baseAt); i == len(real.fixedRels) || real.fixedRels[i].at > s.now {
			copy(lp.t, lp.base)
			if s.hooks.stats != nil {
				s.hooks.stats.KeptLevels++
			}
			return
		}
	}
	lp.baseOf = nil
	level := lp.fill
	for n := range lp.nodes {
		level[n] = lp.g - real.fixedUse[n]
		for v := 1; v <= lp.g; v++ {
			if v <= level[n] {
				lp.t[lp.at(n, v)] = s.now
			} else {
				lp.t[lp.at(n, v)] = never
			}
		}
	}
	for _, r := range real.fixedRels {
		if r.at <= s.now {
			continue
		}
		n := int(r.node)
		for v := max(level[n]+1, 1); v <= min(level[n]+int(r.gpus), lp.g); v++ {
			lp.t[lp.at(n, v)] = r.at
		}
		level[n] += int(r.gpus)
	}
	if len(real.fixedRels) == 0 || real.fixedRels[0].at > s.now { // no release left out: keep them
		lp.base = append(lp.base[:0], lp.t...)
		lp.baseOf, lp.baseGen, lp.baseAt = real, real.fixedGen, s.now
	}
}

// loadJobs writes the candidates and resets the path: the part of load
// that does not read the levels.
//
// from, when not nil, is a planner loaded in this operation for the same
// candidates (the same jobs in the same order) on an instance whose
// remaining times do not depend on the cluster (no per-type durations, no
// estimates: remOn is rem − lag there): its candidates are copied rather
// than computed again. Exact: a candidate's entry reads only the job's
// shape and remOn(j, p), which is then the same on every cluster and, as
// loadPending states, unchanged during Allocate (WhatIfPlanner.loadCandidates
// checks both conditions). Oracle: TestWhatIfPoolIsFresh (it requires
// copied loads).
func (lp *levelPlanner) loadJobs(s *sim, p int, order []int, from *levelPlanner) {
	if from != nil {
		lp.jobs = append(lp.jobs[:0], from.jobs...)
		if s.hooks.stats != nil {
			s.hooks.stats.CopiedLoads++
		}
	} else {
		lp.jobs = lp.jobs[:0]
		for _, j := range order {
			job := &s.inst.Jobs[j]
			rem := s.remOn(j, p)
			lp.jobs = append(lp.jobs, levelJob{j: j, w: job.PerWorker(), r: job.Workers, rem: rem})
		}
	}
	// The path holds at most every job once: its buffers are sized for
	// that, and lengths are kept in depth and nu, so planning writes no
	// slice headers.
	lp.path = resize(lp.path, len(lp.jobs))
	lp.starts = resize(lp.starts, len(lp.jobs))
	lp.undoAt = resize(lp.undoAt, len(lp.jobs)+1)
	lp.undoAt[0] = 0
	if g := s.inst.Clusters[p].GPUsPerNode; len(lp.undo) < 4*(g+1) {
		lp.undo = make([]int64, 4*(g+1))
	}
	lp.nu, lp.depth = 0, 0
	lp.bestFit = false
	switch s.list.Placer.(type) {
	case BestFit, *BestFit:
		lp.bestFit = true
	}
}

// resize is x with length n, its buffer reused when large enough (the
// contents are unspecified).
func resize[T any](x []T, n int) []T {
	if cap(x) < n {
		return make([]T, n)
	}
	return x[:n]
}

// at is the index of T_n(v) in t: level-major, so that one level of every
// node is contiguous.
func (lp *levelPlanner) at(n, v int) int { return (v-1)*lp.nodes + n }

// plan plans the cluster holding the jobs at rank positions ranks
// (ascending) besides its fixed jobs, leaving their starts in
// starts[:len(ranks)], and returns the first position it re-planned: the
// starts before it are the last plan's.
func (lp *levelPlanner) plan(s *sim, p int, ranks []int32) (int, error) {
	return lp.planShared(s, p, ranks, 0)
}

// planShared is plan where the caller knows that ranks[:same] equals the
// last plan's first same ranks (same ≤ its depth and len(ranks)), so the
// comparison of the two starts at same: exact when the promise holds, as
// the state after that prefix is the one rewind restores either way.
func (lp *levelPlanner) planShared(s *sim, p int, ranks []int32, same int) (int, error) {
	l := min(same, lp.depth, len(ranks))
	for l < lp.depth && l < len(ranks) && lp.path[l] == ranks[l] {
		l++
	}
	lp.rewind(l)
	for _, rk := range ranks[l:] {
		job := &lp.jobs[rk]
		var st int64
		if job.r == 1 && lp.bestFit {
			var n int
			if st, n = lp.bestFitOne(job.w, lp.now); st != never {
				lp.occupy(n, job.w, st+job.rem)
			}
		} else if st = lp.earliest(job.w, job.r); st != never {
			st = max(st, lp.now) // kept levels read clamped (loadLevels)
			lp.occupyAt(st, job.w, job.r, st+job.rem)
		}
		if st == never {
			lp.rewind(l) // the path stays the last plan's first l jobs
			return l, fmt.Errorf("simcore: what-if: job %d cannot be placed on cluster %d", s.inst.Jobs[job.j].ID, p)
		}
		d := lp.depth
		lp.path[d] = rk
		lp.starts[d] = st
		lp.undoAt[d+1] = lp.nu
		lp.depth = d + 1
	}
	return l, nil
}

// rewind restores the state after the first d jobs of the path.
func (lp *levelPlanner) rewind(d int) {
	target := lp.undoAt[d]
	u, t, N := lp.undo, lp.t, lp.nodes
	nu := lp.nu
	for nu > target {
		h := u[nu-1]
		n, k := int(h>>16), int(h&0xffff)
		nu -= k + 1
		i := n
		for _, old := range u[nu : nu+k] {
			t[i] = old
			i += N
		}
	}
	lp.nu = nu
	lp.depth = d
}

// level is the row T_·(v) of every node.
func (lp *levelPlanner) level(v int) []int64 {
	return lp.t[(v-1)*lp.nodes : v*lp.nodes]
}

// earliest is the r-th smallest T_n(k·w) (never if there are fewer than r
// finite ones).
func (lp *levelPlanner) earliest(w, r int) int64 {
	g := lp.g
	if w > g || w < 1 {
		return never
	}
	if r == 1 {
		m := int64(never)
		for _, x := range lp.level(w) {
			m = min(m, x)
		}
		return m
	}
	// The r smallest so far, ascending: first over level w (each node's
	// smallest value), then over the higher levels of the nodes below the
	// r-th of those (a node's values ascend with the level, so no other
	// node has one below it).
	lp.best = lp.best[:0]
	for range r {
		lp.best = append(lp.best, never)
	}
	best := lp.best
	insert := func(x int64) {
		k := r - 1
		for k > 0 && best[k-1] > x {
			best[k] = best[k-1]
			k--
		}
		best[k] = x
	}
	row := lp.level(w)
	if r == 2 {
		// Branch-free: keep the two smallest in b0 ≤ b1.
		b0, b1 := int64(never), int64(never)
		for _, x := range row {
			b1 = min(b1, max(b0, x))
			b0 = min(b0, x)
		}
		best[0], best[1] = b0, b1
	} else if r == 4 {
		// The same in registers, for four.
		b0, b1, b2, b3 := int64(never), int64(never), int64(never), int64(never)
		for _, x := range row {
			b3 = min(b3, max(b2, x))
			b2 = min(b2, max(b1, x))
			b1 = min(b1, max(b0, x))
			b0 = min(b0, x)
		}
		best[0], best[1], best[2], best[3] = b0, b1, b2, b3
	} else if r <= 4 {
		// Branch-free insertion into the r smallest.
		for _, x := range row {
			for k := r - 1; k > 0; k-- {
				best[k] = min(best[k], max(best[k-1], x))
			}
			best[0] = min(best[0], x)
		}
	} else {
		for _, x := range row {
			if x < best[r-1] {
				insert(x)
			}
		}
	}
	theta := best[r-1]
	if 2*w > g {
		return theta // no higher multiple of w
	}
	N := lp.nodes
	for n, x := range row {
		if x >= theta {
			continue
		}
		for i := (2*w-1)*N + n; i < len(lp.t); i += w * N {
			y := lp.t[i]
			if y >= best[r-1] {
				break
			}
			insert(y)
		}
	}
	return best[r-1]
}

// fitsBy reports whether r workers of w GPUs fit at floor (the levels'
// time or later), that is whether at least r of the values T_n(k·w) are at
// most floor; it stops counting at r, so where most nodes are free it
// reads a few of them.
func (lp *levelPlanner) fitsBy(w, r int, floor int64) bool {
	if w > lp.g || w < 1 {
		return false
	}
	N := lp.nodes
	count := 0
	for n, x := range lp.level(w) {
		if x > floor {
			continue
		}
		count++
		for i := (2*w-1)*N + n; i < len(lp.t) && lp.t[i] <= floor; i += w * N {
			count++
		}
		if count >= r {
			return true
		}
	}
	return false
}

// freeAt is max(0, σ(n, st)) = #{v : T_n(v) ≤ st}, counted from level
// from, which the caller knows node n reaches by st, and stopping at stop.
func (lp *levelPlanner) freeAt(n int, st int64, from, stop int) int {
	f := from
	stop = min(stop, lp.g)
	for i := from*lp.nodes + n; f < stop && lp.t[i] <= st; i += lp.nodes {
		f++
	}
	return f
}

// occupyAt places r workers of w GPUs at st on max(0, σ(·, st)) with the
// placer and records them until end.
func (lp *levelPlanner) occupyAt(st int64, w, r int, end int64) {
	for _, sl := range lp.pickAt(st, w, r) {
		lp.occupy(int(sl.Node), int(sl.Workers)*w, end)
	}
}

// pickAt is the placer's choice for r workers of w GPUs at st on
// max(0, σ(·, st)), as slots (BestFit: in its fill order; otherwise in
// node order), valid until the next pick. st must be at least the time
// the levels were loaded at.
func (lp *levelPlanner) pickAt(st int64, w, r int) []Slot {
	lp.slots = lp.slots[:0]
	if lp.bestFit {
		return lp.bestFitAt(st, w, r)
	}
	for n, x := range lp.level(w) {
		// A node without w free GPUs at st is 0 to the placer.
		if x > st {
			lp.free[n] = 0
			continue
		}
		lp.free[n] = lp.freeAt(n, st, w, lp.g)
	}
	clear(lp.place)
	lp.placer.Place(lp.free, w, r, lp.place)
	for n, k := range lp.place {
		if k > 0 {
			lp.slots = append(lp.slots, Slot{Node: int32(n), Workers: int32(k)})
		}
	}
	return lp.slots
}

// bestFitOne is BestFit's earliest start of one worker of w GPUs and the
// node it takes then (never, −1 if it cannot be placed), with every level
// value at or below floor read as floor (the levels' time, or a later one
// they were carried to unchanged). The start m is the least T_n(w) (at
// least floor), and BestFit takes the first node, in index order, of the
// least free GPUs at m: walking up the levels from w, the first node with
// T_n(v) ≤ m < T_n(v+1), which has exactly v free.
func (lp *levelPlanner) bestFitOne(w int, floor int64) (int64, int) {
	g := lp.g
	if w > g || w < 1 {
		return never, -1
	}
	m := int64(never)
	for _, x := range lp.level(w) {
		if x <= floor {
			m = floor // nothing is read below floor
			break
		}
		m = min(m, x)
	}
	if m == never {
		return never, -1
	}
	for v := w; v < g; v++ {
		next := lp.level(v + 1)
		for n, x := range lp.level(v) {
			if x <= m && next[n] > m {
				return m, n
			}
		}
	}
	for n, x := range lp.level(g) {
		if x <= m {
			return m, n
		}
	}
	return m, -1 // unreachable: some node attains m at level w
}

// bestFitAt is pickAt for BestFit, read off the levels directly: BestFit
// fills the nodes holding a worker in ascending (free GPUs, index) order,
// each with as many workers as fit or remain (a node it fills can hold no
// more, so the order is the one before any fill). The nodes with exactly
// v free GPUs at st are those with T_n(v) ≤ st < T_n(v+1), so a walk up
// the levels from w visits them in that order, one row per free value
// (usually one to three).
func (lp *levelPlanner) bestFitAt(st int64, w, r int) []Slot {
	g := lp.g
	for v := w; v <= g; v++ {
		row := lp.level(v)
		per := v / w // workers on a node with exactly v free
		var next []int64
		if v < g {
			next = lp.level(v + 1)
		}
		for n, x := range row {
			if x > st || (next != nil && next[n] <= st) {
				continue
			}
			k := min(per, r)
			lp.slots = append(lp.slots, Slot{Node: int32(n), Workers: int32(k)})
			if r -= k; r == 0 {
				return lp.slots
			}
		}
	}
	return lp.slots // the caller guaranteed capacity; nothing more fits
}

// occupy lowers σ(n, τ) by c for τ < end (the update in the type's doc),
// level by level upwards, so T_n(v+c) is read before it is written. Only
// levels with T_n(v) < end change (above them T_n(v+c) ≥ end too), so the
// walk stops at the first other one; their old values go to the undo log.
func (lp *levelPlanner) occupy(n, c int, end int64) {
	N := lp.nodes
	t := lp.t
	top := (lp.g - c) * N // levels v with v + c ≤ g have indices below top
	if len(lp.undo)-lp.nu <= lp.g {
		lp.undo = append(lp.undo, make([]int64, len(lp.undo)+lp.g+1)...)
	}
	u := lp.undo[lp.nu : lp.nu+lp.g+1]
	k := 0
	i := n
	for ; i < top; i += N { // T'_n(v) = min(T_n(v+c), F)
		old := t[i]
		if old >= end {
			goto logged
		}
		u[k] = old
		k++
		t[i] = min(t[i+c*N], end)
	}
	for ; i < len(t); i += N { // no level v + c: T'_n(v) = F
		old := t[i]
		if old >= end {
			break
		}
		u[k] = old
		k++
		t[i] = end
	}
logged:
	if k > 0 {
		u[k] = int64(n)<<16 | int64(k)
		lp.nu += k + 1
	}
}

// levelPlanning reports whether the simulation's what-ifs may use the
// level planner: no backfilling (or greedy, whose what-ifs use the
// no-backfill rule), not the tests' replan-all reference mode, and a
// placer for which it is exact.
func levelPlanning(s *sim) bool {
	b := s.opts.Backfill
	return (b == BackfillNone || b == BackfillGreedy) && !s.replan && s.list != nil && levelPlacerOK(s.list.Placer)
}

// b2i is 1 for true, 0 for false.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

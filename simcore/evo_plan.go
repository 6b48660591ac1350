package simcore

import "fmt"

// levelPlanner is the no-backfill plan (Eq. 13) of one cluster for EVO's
// what-ifs, in a form that makes a placement and its undo cheap.
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
// previous set's. The per-prefix fitness contributions are kept too, and
// are summed job by job in ranking order as whatIf.plan sums them, so the
// result is the same to the last bit.
//
// The placer sees max(0, σ(n, S)) where the list scheduler's planner
// passes σ(n, S); levelPlacerOK admits only placers that never use a node
// with less than w free GPUs, for which the two are the same.
type levelPlanner struct {
	nodes, g int
	now      int64
	placer   Placer
	jobs     []levelJob // by rank position on this cluster

	t      []int64 // T_n(v) at n·G + v − 1
	undo   []levelUndo
	undoAt []int         // undoAt[d]: len(undo) after the first d jobs of path
	acc    []clusterEval // acc[d]: the contribution of the first d jobs of path
	path   []int32       // rank positions of the jobs placed, in order

	free, place []int
	best        []int64
	bestFit     bool     // the placer is BestFit: bestFitAt
	cand        []uint64 // scratch: bestFitAt's candidate nodes
}

// levelJob is what placing a job needs: its index, shape, remaining time
// on this cluster and queueing time so far.
type levelJob struct {
	j    int
	w, r int
	rem  int64
	q    int64
}

type levelUndo struct {
	i   int32
	old int64
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
	c := s.inst.Clusters[p]
	real := s.clusters[p]
	lp := &levelPlanner{nodes: c.Nodes, g: c.GPUsPerNode, now: s.now, placer: s.list.Placer}
	lp.t = make([]int64, lp.nodes*lp.g)
	level := make([]int, lp.nodes)
	for n := range lp.nodes {
		level[n] = lp.g - real.fixedUse[n]
		for v := 1; v <= lp.g; v++ {
			if v <= level[n] {
				lp.t[n*lp.g+v-1] = s.now
			} else {
				lp.t[n*lp.g+v-1] = never
			}
		}
	}
	for _, r := range real.fixedRels {
		if r.at <= s.now {
			continue
		}
		n := int(r.node)
		for v := max(level[n]+1, 1); v <= min(level[n]+int(r.gpus), lp.g); v++ {
			lp.t[n*lp.g+v-1] = r.at
		}
		level[n] += int(r.gpus)
	}
	for _, j := range order {
		job := &s.inst.Jobs[j]
		lp.jobs = append(lp.jobs, levelJob{j: j, w: job.PerWorker(), r: job.Workers, rem: s.remOn(j, p), q: s.queued(j)})
	}
	lp.undoAt = []int{0}
	lp.acc = []clusterEval{{maxF: s.now}}
	switch s.list.Placer.(type) {
	case BestFit, *BestFit:
		lp.bestFit = true
	}
	lp.free = make([]int, lp.nodes)
	lp.place = make([]int, lp.nodes)
	return lp
}

// plan returns the fitness contribution of the cluster holding the jobs at
// rank positions ranks (ascending) besides its fixed jobs.
func (lp *levelPlanner) plan(s *sim, p int, ranks []int32) (clusterEval, error) {
	l := 0
	for l < len(lp.path) && l < len(ranks) && lp.path[l] == ranks[l] {
		l++
	}
	lp.rewind(l)
	for _, rk := range ranks[l:] {
		job := &lp.jobs[rk]
		var st int64
		if job.r == 1 && lp.bestFit {
			st = lp.bestFitOne(job.w, job.rem)
		} else if st = lp.earliest(job.w, job.r); st != never {
			lp.occupyAt(st, job.w, job.r, st+job.rem)
		}
		if st == never {
			return clusterEval{}, fmt.Errorf("simcore: evo: job %d cannot be placed on cluster %d", s.inst.Jobs[job.j].ID, p)
		}
		c := lp.acc[len(lp.acc)-1]
		c.add(&s.inst.Jobs[job.j], job.q+st-lp.now, st, job.rem)
		lp.acc = append(lp.acc, c)
		lp.path = append(lp.path, rk)
		lp.undoAt = append(lp.undoAt, len(lp.undo))
	}
	return lp.acc[len(lp.acc)-1], nil
}

// rewind restores the state after the first d jobs of the path.
func (lp *levelPlanner) rewind(d int) {
	u := lp.undoAt[d]
	for i := len(lp.undo) - 1; i >= u; i-- {
		lp.t[lp.undo[i].i] = lp.undo[i].old
	}
	lp.undo = lp.undo[:u]
	lp.path = lp.path[:d]
	lp.undoAt = lp.undoAt[:d+1]
	lp.acc = lp.acc[:d+1]
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
		for i := w - 1; i < len(lp.t); i += g {
			m = min(m, lp.t[i])
		}
		return m
	}
	// The r smallest so far, ascending; each node's values ascend in k,
	// so its scan stops at the first one not below the current r-th.
	lp.best = lp.best[:0]
	for range r {
		lp.best = append(lp.best, never)
	}
	best := lp.best
	for n := range lp.nodes {
		base := n * g
		for v := w; v <= g; v += w {
			x := lp.t[base+v-1]
			if x >= best[r-1] {
				break
			}
			k := r - 1
			for k > 0 && best[k-1] > x {
				best[k] = best[k-1]
				k--
			}
			best[k] = x
		}
	}
	return best[r-1]
}

// occupyAt places r workers of w GPUs at st on max(0, σ(·, st)) with the
// placer and records them until end.
func (lp *levelPlanner) occupyAt(st int64, w, r int, end int64) {
	if lp.bestFit {
		lp.bestFitAt(st, w, r, end)
		return
	}
	g := lp.g
	for n := range lp.nodes {
		// A node without w free GPUs at st is 0 to the placer; else
		// count its levels reached by st, the first w known to be.
		t := lp.t[n*g : (n+1)*g]
		if t[w-1] > st {
			lp.free[n] = 0
			continue
		}
		f := w
		for f < g && t[f] <= st {
			f++
		}
		lp.free[n] = f
	}
	clear(lp.place)
	lp.placer.Place(lp.free, w, r, lp.place)
	for n, k := range lp.place {
		if k > 0 {
			lp.occupy(n, k*w, end)
		}
	}
}

// bestFitOne places one worker of w GPUs by BestFit at its earliest start
// and returns that start (never if it cannot be placed). The start is the
// least T_n(w); the nodes holding a worker then are those attaining it,
// so one pass finds both, counting a node's free GPUs only while it may
// still beat the best so far.
func (lp *levelPlanner) bestFitOne(w int, rem int64) int64 {
	g := lp.g
	if w > g || w < 1 {
		return never
	}
	m := int64(never)
	bestN, bestF := -1, g+1
	for n := range lp.nodes {
		t := lp.t[n*g : (n+1)*g]
		x := t[w-1]
		if x > m {
			continue
		}
		if x < m {
			m, bestN, bestF = x, -1, g+1
		}
		f := w
		for f < bestF && f < g && t[f] <= m {
			f++
		}
		if f < bestF {
			bestN, bestF = n, f
		}
	}
	if m == never {
		return never
	}
	lp.occupy(bestN, w, m+rem)
	return m
}

// bestFitAt is occupyAt for BestFit, read off the levels directly: BestFit
// fills the nodes holding a worker in ascending (free GPUs, index) order,
// each with as many workers as fit or remain. For one worker that is the
// first node of least free capacity ≥ w, and a node's count stops as soon
// as it reaches the best so far.
func (lp *levelPlanner) bestFitAt(st int64, w, r int, end int64) {
	g := lp.g
	if r == 1 {
		bestN, bestF := -1, g+1
		for n := range lp.nodes {
			t := lp.t[n*g : (n+1)*g]
			if t[w-1] > st {
				continue
			}
			f := w
			for f < bestF && f < g && t[f] <= st {
				f++
			}
			if f < bestF {
				bestN, bestF = n, f
			}
		}
		lp.occupy(bestN, w, end)
		return
	}
	cand := lp.cand[:0]
	for n := range lp.nodes {
		t := lp.t[n*g : (n+1)*g]
		if t[w-1] > st {
			continue
		}
		f := w
		for f < g && t[f] <= st {
			f++
		}
		// (free, index) packed so that integer order is BestFit's order.
		x := uint64(f)<<32 | uint64(n)
		k := len(cand)
		cand = append(cand, x)
		for k > 0 && cand[k-1] > x {
			cand[k] = cand[k-1]
			k--
		}
		cand[k] = x
	}
	lp.cand = cand
	for _, x := range cand {
		f, n := int(x>>32), int(uint32(x))
		k := min(f/w, r)
		lp.occupy(n, k*w, end)
		if r -= k; r == 0 {
			return
		}
	}
}

// occupy lowers σ(n, τ) by c for τ < end (the update in the type's doc).
func (lp *levelPlanner) occupy(n, c int, end int64) {
	g := lp.g
	t := lp.t[n*g : (n+1)*g]
	base := int32(n * g)
	for v := range g {
		var nv int64
		if v+c < g && t[v+c] < end {
			nv = t[v+c]
		} else {
			nv = max(end, t[v])
		}
		if nv != t[v] {
			lp.undo = append(lp.undo, levelUndo{i: base + int32(v), old: t[v]})
			t[v] = nv
		}
	}
}

// levelPlanners are one worker's planners, one per cluster.
func newLevelPlanners(s *sim, rankOrder [][]int, js []int) []*levelPlanner {
	out := make([]*levelPlanner, len(rankOrder))
	for p, order := range rankOrder {
		jobs := make([]int, len(order))
		for k, g := range order {
			jobs[k] = js[g]
		}
		out[p] = newLevelPlanner(s, p, jobs)
	}
	return out
}

// levelPlanning reports whether the simulation's what-ifs may use the
// level planner: no backfilling (or greedy, whose what-ifs use the
// no-backfill rule), not the tests' replan-all reference mode, and a
// placer for which it is exact.
func levelPlanning(s *sim) bool {
	b := s.opts.Backfill
	return (b == BackfillNone || b == BackfillGreedy) && !s.opts.alwaysReplan && s.list != nil && levelPlacerOK(s.list.Placer)
}

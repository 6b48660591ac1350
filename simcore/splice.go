package simcore

import "slices"

// Splicing the last plan into a rebuild (no backfilling, Eq. 13).
//
// When the last plan built can be neither extended nor rewound — a job
// ranked deep in it started on its user cluster and is now fixed, a job
// moved to another cluster, or the ranking reordered it — the plan is
// rebuilt from the fixed jobs, but a job whose decision provably does not
// change keeps it without being placed again.
//
// Let the old plan (built at an earlier operation) give job j the start
// S_old ≥ t' and the occupation O_j (its nodes over [t', F_j)), and let the
// new plan, built at t' in the fresh ranking, have placed the jobs ranked
// before j. Suppose
//
//	(a) the new plan's jobs before j are exactly the old plan's live jobs
//	    before j (the same set; a live job is one still on this cluster,
//	    neither finished nor fixed);
//	(b) the two states before j — fixed jobs plus those jobs' occupations —
//	    are equal at every τ ≥ T: every occupation in one state and not the
//	    other ends by T. The differences are the jobs whose new decision
//	    differs from the old one (both occupations), the jobs new to the
//	    cluster (their new one), the jobs that left it (their old one), and
//	    the jobs that became fixed since but were ranked after j in the old
//	    plan (held in the new state only);
//	(c) S_old ≥ T, and in the new state fewer than r_j workers of w_j GPUs
//	    fit at T − 1 (so, σ being non-decreasing in τ, at no τ ∈ [t', T)).
//
// Then the new earliest start is S_old: no τ < T fits by (c), no
// τ ∈ [T, S_old) fits because the old state did not fit there and equals
// the new one by (b), and at S_old the states are equal, so best fit picks
// the same nodes. Adding the same occupation to both states keeps (b), and
// since F_j > S_old ≥ T it covers [t', T), so (c) stays true for every
// shape checked before. A job that fails the test is placed afresh; if its
// decision differs, T grows to cover both occupations. Running jobs are
// always placed afresh (their old decision was made at an earlier time).
//
// Cost: the fresh placements, plus O(N + R) whenever T grows (σ at T − 1)
// and one merge of the kept occupations into the release list per run of
// kept jobs.
// TestSpliceMatchesRebuild compares with rebuilding every plan.

// planStats counts, for tests, the jobs the splice path kept and placed.
type planStats struct {
	Kept, Placed int
	// Deferred counts the jobs a plan left unplaced because none of them
	// could start before the next arrival (horizon.go); Ranked counts the
	// jobs of the plans that did so.
	Deferred, Ranked int
	// Levels counts the starts read off the cluster planners' levels
	// (planlevels.go): placements and MCT what-ifs.
	Levels int
	// RadixSorts counts the release batches sorted by radix (relsort.go).
	RadixSorts int
	// KeptLevels counts the what-if level planners' loads that kept the
	// levels of an unchanged fixed state (levelplan.go loadLevels).
	KeptLevels int
	// FlushedLoads counts the what-if level planners' deferred candidate
	// loads done before an Assign rescaled a remaining time
	// (levelSets.loadPending).
	FlushedLoads int
	// CopiedLoads counts the what-if level planners' candidate loads
	// copied from another planner of the same set (levelPlanner.loadJobs).
	CopiedLoads int
	// SeededKeys counts the batch keys offered to the allocation seam's
	// key memo (clusterblind.go: seedKeyMemo).
	SeededKeys int
	// ChangedRunning and ChangedQueued count the fresh placements whose
	// decision differs from the old plan's (running and queued jobs);
	// FirstRunning and FirstQueued count the splice runs whose first such
	// change is a running or a queued job's. Everything after a change
	// that starts before its finish is placed afresh.
	ChangedRunning, ChangedQueued, FirstRunning, FirstQueued int
}

// countChange counts a changed decision of a running or queued job, and
// whether it is its run's first.
func (st *planStats) countChange(running, first bool) {
	switch {
	case running:
		st.ChangedRunning++
		if first {
			st.FirstRunning++
		}
	default:
		st.ChangedQueued++
		if first {
			st.FirstQueued++
		}
	}
}

// spliceScratch holds the splice path's per-planner buffers.
type spliceScratch struct {
	// The run in progress: pending while the plan it builds stopped early
	// and may be carried on (spliceMore).
	pending      bool
	tChanged     int64
	live, maxPos int
	snapOK       bool
	snapT        int64
	oldRel       []release // the old plan's releases, offsets and starts
	oldOff       []int
	oldStart     []int64
	gen          uint32
	mark         []uint32 // mark[j] == gen: j is ranked in the new plan
	pos          []int32  // old live index of j (−1: not live in the old plan)
	lpos         []int32  // old live index → position in the old order
	sufE         []int64  // old live index → latest finish of the fixed-since jobs after it
	merged       []release
	snap         []int // σ(·, T − 1)
	old          []release
	kept         []release // occupations of kept jobs not yet in the state
	counts       [][2]int  // per worker size w in the current run: (w, count at T − 1)
	sortTmp      []release // sortReleases' scratch
}

// splice rebuilds the plan from the fixed state (already loaded by begin)
// in the fresh ranking p.jobs, keeping the decisions of the last plan
// (p.last.order) that provably hold. See the comment above. A lazy planner's
// run stops once no job left can start before the next arrival
// (horizon.go); spliceMore carries the same run on when an MCT what-if
// needs more of the plan, so the jobs past the stop keep their old
// decisions under the same rule.
func (p *planner) splice() error {
	s := p.s
	sc := &p.sc
	if len(sc.mark) < len(s.inst.Jobs) {
		sc.mark = make([]uint32, len(s.inst.Jobs))
		sc.pos = make([]int32, len(s.inst.Jobs))
	}
	sc.gen++
	if sc.gen == 0 { // wrapped: forget every mark
		clear(sc.mark)
		sc.gen = 1
	}
	for _, j := range p.jobs {
		sc.mark[j] = sc.gen
		sc.pos[j] = -1
	}
	// The old plan's arrays move aside; the new plan is built in place.
	// order[len(oldStart):] held nothing in the old plan (horizon.go).
	sc.oldRel, p.last.orderRel = p.last.orderRel, sc.oldRel[:0]
	sc.oldOff, p.last.orderOff = p.last.orderOff, append(sc.oldOff[:0], 0)
	sc.oldStart, p.last.orderStart = p.last.orderStart, sc.oldStart[:0]
	// Old live jobs, in old order; the jobs that left the cluster.
	sc.tChanged = int64(minTime)
	sc.lpos = sc.lpos[:0]
	for i, j := range p.last.order {
		switch {
		case s.state[j] == done:
		case s.isFixed(j):
		case sc.mark[j] != sc.gen: // moved to another cluster
			sc.tChanged = max(sc.tChanged, sc.finishOf(i))
		default:
			sc.pos[j] = int32(len(sc.lpos))
			sc.lpos = append(sc.lpos, int32(i))
		}
	}
	// sufE[k]: the latest finish of the jobs fixed since the old plan and
	// ranked after old live job k in it.
	sc.sufE = slices.Grow(sc.sufE[:0], len(sc.lpos))[:len(sc.lpos)]
	latest := int64(minTime)
	k := len(sc.lpos) - 1
	for i := len(p.last.order) - 1; i >= 0; i-- {
		j := p.last.order[i]
		if k >= 0 && int(sc.lpos[k]) == i {
			sc.sufE[k] = latest
			k--
			continue
		}
		if s.state[j] != done && s.isFixed(j) {
			latest = max(latest, sc.finishOf(i))
		}
	}
	sc.kept = sc.kept[:0]
	sc.live, sc.maxPos = 0, -1
	sc.snapOK, sc.snapT = false, 0
	sc.pending = true
	return p.spliceRun(len(p.jobs), p.lz.lazy)
}

// finishOf is the old plan's finish of its order[i] (minTime when it held
// nothing).
func (sc *spliceScratch) finishOf(i int) int64 {
	if i >= len(sc.oldStart) {
		return minTime
	}
	if sc.oldOff[i] == sc.oldOff[i+1] {
		return never
	}
	return sc.oldRel[sc.oldOff[i]].at
}

// spliceMore carries the splice run of the current plan on until its
// first k jobs are placed.
func (p *planner) spliceMore(k int) error { return p.spliceRun(k, false) }

// spliceRun places p.jobs[placed():k], keeping old decisions where the
// rule allows, and with lazy stops once no job left can start before the
// next arrival.
func (p *planner) spliceRun(k int, lazy bool) error {
	s := p.s
	now := s.now
	sc := &p.sc
	// sc.snap holds σ(·, snapT − 1) of an earlier state of this rebuild
	// (snapOK: there is one). States only lose capacity as jobs are added,
	// so its worker counts bound the current ones from above for any
	// T ≤ snapT.
	for idx := p.placed(); idx < k; idx++ {
		p.rankTo(idx + 1)
		j := p.jobs[idx]
		// Kept occupations not yet in the state would only lower σ, so
		// the stop test waits until they are.
		if lazy && len(sc.kept) == 0 && p.saturated(idx) {
			p.deferFrom(idx)
			break
		}
		k := int(sc.pos[j])
		job := &s.inst.Jobs[j]
		w, r := job.PerWorker(), job.Workers
		kept := false
		var i int
		if k >= 0 {
			i = int(sc.lpos[k])
		}
		if k >= 0 && i < len(sc.oldStart) && k == sc.live && sc.maxPos == sc.live-1 && s.state[j] != running {
			sOld := sc.oldStart[i]
			T := max(sc.tChanged, sc.sufE[k])
			if sOld != never && sOld >= T && sOld >= now {
				ok := true
				if T > now {
					if !sc.snapOK || T > sc.snapT {
						p.flushKept()
						p.sigmaBefore(T)
						sc.snapOK, sc.snapT = true, T
					}
					ok = p.countAtSnap(w) < r
				}
				if ok {
					kept = true
					rels := sc.oldRel[sc.oldOff[i]:sc.oldOff[i+1]]
					s.planStart[j] = sOld
					s.planPlace[j] = s.planPlace[j][:0]
					for _, rl := range rels {
						s.planPlace[j] = append(s.planPlace[j], Slot{Node: rl.node, Workers: rl.gpus / int32(w)})
					}
					sc.kept = append(sc.kept, rels...)
					p.last.orderRel = append(p.last.orderRel, rels...)
				}
			}
		}
		// Counted on the simulation's own planners only (EVO's what-if
		// planners may run on several goroutines).
		if st := s.hooks.stats; st != nil && s.clusters[p.index] == p {
			if kept {
				st.Kept++
			} else {
				st.Placed++
			}
		}
		if !kept {
			p.flushKept()
			sc.old = sc.old[:0]
			if k >= 0 && i < len(sc.oldStart) {
				sc.old = append(sc.old, sc.oldRel[sc.oldOff[i]:sc.oldOff[i+1]]...)
			}
			if err := p.placeJob(j); err != nil {
				return err
			}
			st := s.planStart[j]
			fNew := int64(never)
			if st != never {
				fNew = st + p.rem(j)
			}
			n0 := len(p.last.orderRel)
			if st != never {
				for _, sl := range s.planPlace[j] {
					p.last.orderRel = append(p.last.orderRel, release{at: fNew, node: sl.Node, gpus: sl.Workers * int32(w)})
				}
			}
			changed := k < 0 || !slices.Equal(sc.old, p.last.orderRel[n0:])
			if st := s.hooks.stats; changed && st != nil && s.clusters[p.index] == p {
				st.countChange(s.state[j] == running, sc.tChanged == minTime)
			}
			if changed {
				sc.tChanged = max(sc.tChanged, fNew)
				if k >= 0 {
					sc.tChanged = max(sc.tChanged, sc.finishOf(i))
				}
			}
		}
		if k >= 0 {
			sc.live++
			sc.maxPos = max(sc.maxPos, k)
		}
		p.last.orderStart = append(p.last.orderStart, s.planStart[j])
		p.last.orderOff = append(p.last.orderOff, len(p.last.orderRel))
	}
	p.flushKept()
	if p.placed() == len(p.jobs) {
		sc.pending = false
	}
	return nil
}

// minTime is below every time of a simulation.
const minTime = -1 << 62

// flushKept adds the occupations of the kept jobs in p.sc.kept to the state:
// σ from t, the start cache, and the sorted release list (one merge).
func (p *planner) flushKept() {
	sc := &p.sc
	if len(sc.kept) == 0 {
		return
	}
	for _, r := range sc.kept {
		p.sigma[r.node] -= int(r.gpus)
		p.held(r.node, int(r.gpus), r.at)
	}
	if len(sc.kept) <= 8 { // a few: insert each (as a placement does)
		for _, r := range sc.kept {
			i := relAfter(p.rel, r.at)
			p.rel = slices.Insert(p.rel, i, r)
		}
		sc.kept = sc.kept[:0]
		return
	}
	p.countRadix(sortReleases(sc.kept, &sc.sortTmp, p.s.hooks.refReleaseSort)) // relsort.go
	out := mergeReleases(sc.merged[:0], p.rel, sc.kept)
	sc.merged, p.rel = p.rel, out
	sc.kept = sc.kept[:0]
}

// sigmaBefore leaves σ(·, T − 1) of the current state in p.sc.snap and
// forgets the run's worker counts.
func (p *planner) sigmaBefore(T int64) {
	sc := &p.sc
	sc.snap = append(sc.snap[:0], p.sigma...)
	for _, r := range p.rel {
		if r.at >= T {
			break
		}
		sc.snap[r.node] += int(r.gpus)
	}
	sc.counts = sc.counts[:0]
}

// countAtSnap is Σ_n ⌊max(0, σ(n, T − 1))/w⌋ of the current run.
func (p *planner) countAtSnap(w int) int {
	sc := &p.sc
	for _, c := range sc.counts {
		if c[0] == w {
			return c[1]
		}
	}
	n := countFits(sc.snap, w)
	sc.counts = append(sc.counts, [2]int{w, n})
	return n
}

// mergeReleases appends the merge of the time-sorted a and b to out.
func mergeReleases(out, a, b []release) []release {
	i, k := 0, 0
	for i < len(a) && k < len(b) {
		if a[i].at <= b[k].at {
			out = append(out, a[i])
			i++
		} else {
			out = append(out, b[k])
			k++
		}
	}
	out = append(out, a[i:]...)
	return append(out, b[k:]...)
}

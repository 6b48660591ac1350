package simcore

import (
	"cmp"
	"slices"
)

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
}

// spliceScratch holds the splice path's per-planner buffers.
type spliceScratch struct {
	gen    uint32
	mark   []uint32 // mark[j] == gen: j is ranked in the new plan
	pos    []int32  // old live index of j (−1: not live in the old plan)
	lpos   []int32  // old live index → position in the old order
	sufE   []int64  // old live index → latest finish of the fixed-since jobs after it
	rel    []release
	off    []int
	start  []int64
	merged []release
	snap   []int // σ(·, T − 1)
	old    []release
	kept   []release // occupations of kept jobs not yet in the state
	counts [][2]int  // per worker size w in the current run: (w, count at T − 1)
}

// splice rebuilds the plan from the fixed state (already loaded by begin)
// in the fresh ranking p.jobs, keeping the decisions of the last plan
// (p.order) that provably hold. See the comment above.
func (p *planner) splice() error {
	s := p.s
	now := s.now
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
	oldPlaced := p.placed()         // order[oldPlaced:] held nothing in the old plan (horizon.go)
	finishOf := func(i int) int64 { // the old plan's finish of order[i]
		if i >= oldPlaced {
			return minTime
		}
		if p.orderOff[i] == p.orderOff[i+1] {
			return never
		}
		return p.orderRel[p.orderOff[i]].at
	}
	// Old live jobs, in old order; the jobs that left the cluster.
	tChanged := int64(minTime)
	sc.lpos = sc.lpos[:0]
	for i, j := range p.order {
		switch {
		case s.state[j] == done:
		case s.isFixed(j):
		case sc.mark[j] != sc.gen: // moved to another cluster
			tChanged = max(tChanged, finishOf(i))
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
	for i := len(p.order) - 1; i >= 0; i-- {
		j := p.order[i]
		if k >= 0 && int(sc.lpos[k]) == i {
			sc.sufE[k] = latest
			k--
			continue
		}
		if s.state[j] != done && s.isFixed(j) {
			latest = max(latest, finishOf(i))
		}
	}

	sc.rel = sc.rel[:0]
	sc.off = append(sc.off[:0], 0)
	sc.start = sc.start[:0]
	sc.kept = sc.kept[:0]
	live, maxPos := 0, -1 // old live jobs among the placed ones; their largest old index
	// sc.snap holds σ(·, snapT − 1) of an earlier state of this rebuild
	// (snap: there is one). States only lose capacity as jobs are added,
	// so its worker counts bound the current ones from above for any
	// T ≤ snapT.
	snap := false
	snapT := int64(0)
	for idx, j := range p.jobs {
		// Stop once no job left can start before the next arrival; kept
		// occupations not yet in the state would only lower σ, so the
		// test waits until they are.
		if p.lazy && len(sc.kept) == 0 && p.saturated(idx) {
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
		if k >= 0 && i < oldPlaced && k == live && maxPos == live-1 && s.state[j] != running {
			sOld := p.orderStart[i]
			T := max(tChanged, sc.sufE[k])
			if sOld != never && sOld >= T && sOld >= now {
				ok := true
				if T > now {
					if !snap || T > snapT {
						p.flushKept()
						p.sigmaBefore(T)
						snap, snapT = true, T
					}
					ok = p.countAtSnap(w) < r
				}
				if ok {
					kept = true
					rels := p.orderRel[p.orderOff[i]:p.orderOff[i+1]]
					s.planStart[j] = sOld
					s.planPlace[j] = s.planPlace[j][:0]
					for _, rl := range rels {
						s.planPlace[j] = append(s.planPlace[j], Slot{Node: rl.node, Workers: rl.gpus / int32(w)})
					}
					sc.kept = append(sc.kept, rels...)
					sc.rel = append(sc.rel, rels...)
				}
			}
		}
		// Counted on the simulation's own planners only (EVO's what-if
		// planners may run on several goroutines).
		if st := s.opts.stats; st != nil && s.clusters[p.index] == p {
			if kept {
				st.Kept++
			} else {
				st.Placed++
			}
		}
		if !kept {
			p.flushKept()
			sc.old = sc.old[:0]
			if k >= 0 && i < oldPlaced {
				sc.old = append(sc.old, p.orderRel[p.orderOff[i]:p.orderOff[i+1]]...)
			}
			if err := p.placeJob(j); err != nil {
				return err
			}
			st := s.planStart[j]
			fNew := int64(never)
			if st != never {
				fNew = st + p.rem(j)
			}
			n0 := len(sc.rel)
			if st != never {
				for _, sl := range s.planPlace[j] {
					sc.rel = append(sc.rel, release{at: fNew, node: sl.Node, gpus: sl.Workers * int32(w)})
				}
			}
			if k < 0 || !slices.Equal(sc.old, sc.rel[n0:]) {
				tChanged = max(tChanged, fNew)
				if k >= 0 {
					tChanged = max(tChanged, finishOf(i))
				}
			}
		}
		if k >= 0 {
			live++
			maxPos = max(maxPos, k)
		}
		sc.start = append(sc.start, s.planStart[j])
		sc.off = append(sc.off, len(sc.rel))
	}
	p.flushKept()
	p.orderRel, sc.rel = sc.rel, p.orderRel
	p.orderOff, sc.off = sc.off, p.orderOff
	p.orderStart, sc.start = sc.start, p.orderStart
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
	slices.SortFunc(sc.kept, func(a, b release) int { return cmp.Compare(a.at, b.at) })
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

package simcore

// The level planner in the list scheduler's cluster plans (no backfilling,
// and greedy's what-ifs, with best fit or round robin).
//
// A cluster planner's state is σ(·, t) after the placed jobs and the
// sorted releases, and the start cache (startcache.go) answers
// Eqs. 12–13 on it by resumable sweeps. Where the level planner is exact
// (levelPlanning: no backfilling or greedy, a placer that ignores nodes
// with less than w free GPUs, not the replan-all reference mode) the
// planner keeps the same state also as levels (levelplan.go: T_n(v), the
// first candidate time with σ(n, τ) ≥ v) and reads starts and placements
// off them instead:
//
//   - The levels are loaded from σ and the releases (loadLevels) the first
//     time a state is asked for a start, so they describe the same step
//     functions σ(n, τ) for τ ≥ t, releases at or before t left out as in
//     the start cache's sweep.
//   - Every placement on that state lowers σ through planner.held, as it
//     updates the start cache: the levels take the same occupation (the
//     update in levelPlanner's doc). Whatever raises capacity or replaces
//     the state (begin, rewind, the prefix state of an MCT what-if) drops
//     them, as it clears the start cache; they are loaded again on the
//     next query.
//   - Carrying a state to a later operation t' (advance: releases due by
//     t' join σ) leaves them as they are: a level value at or below t'
//     means "free at t'", so every read clamps to t'. The earliest start
//     is the r-th smallest T_n(k·w), clamped (clamping is monotone, so
//     the r-th smallest of the clamped values is the clamped r-th
//     smallest); a node's free GPUs at S ≥ t' count the values ≤ S, the
//     same clamped or not; an occupation until F > t' changes a level
//     exactly when its clamped value does.
//
// So the start is the start cache's (the level planner's argument, on the
// same σ) and the placer, given max(0, σ(·, S)), picks the nodes it picks
// on σ(·, S) (levelPlacerOK). Oracles: the same simulations with the
// levels off (testHooks.noListLevels) and the replan-all reference, in
// TestListLevelsMatchCache (the instance families of
// TestLazyPlansMatchFullPlans and TestSpliceMatchesRebuild) and in every
// test that compares with SimulateReplanning; the golden results.

// stateLevels is a planner's current state as levels, and the levels of
// its fixed state alone, from which begin and rewind start.
type stateLevels struct {
	lp      *levelPlanner // lp.t holds the state when ok
	ok      bool
	level   []int   // scratch: σ per node while loading
	fixed   []int64 // the levels of the fixed state alone, when fixedOK
	fixedAt int64   // the time they were loaded at
	fixedOK bool    // no fixed job started or finished since
}

// levelsMinQueue is the queue length from which a planner loads levels
// for a state: a few jobs are placed as cheaply by the start cache, whose
// bookkeeping is lighter, and a long queue gains from the levels'
// placements without sweeps. Both are exact on any state, so the choice
// changes only the cost (TestListLevelsMatchCache runs with every
// choice).
const levelsMinQueue = 32

// levelsOn reports whether this planner reads starts off the levels: they
// are loaded, or the queue is long enough to load them.
func (p *planner) levelsOn() bool {
	s := p.s
	return s.listLevels && (p.lv.ok || len(p.jobs) >= s.levelsMinQueue)
}

// levels returns the planner's levels for its current state, loading them
// if the state changed since (see the comment at the top of the file).
func (p *planner) levels() *levelPlanner {
	if st := p.s.hooks.stats; st != nil && p.s.clusters[p.index] == p {
		st.Levels++ // the simulation's own planners only (what-ifs may run concurrently)
	}
	p.allocLevels()
	if !p.lv.ok {
		p.lv.level = loadLevels(p.lv.lp.t, p.lv.level, p.nodes, p.g, p.s.now, p.sigma, p.rel)
		p.lv.ok = true
	}
	return p.lv.lp
}

func (p *planner) allocLevels() {
	if p.lv.lp != nil {
		return
	}
	s := p.s
	lp := &levelPlanner{nodes: p.nodes, g: p.g, placer: s.list.Placer}
	lp.t = make([]int64, p.nodes*p.g)
	lp.undo = make([]int64, 2*(p.g+1))
	lp.free = make([]int, p.nodes)
	lp.place = make([]int, p.nodes)
	switch s.list.Placer.(type) {
	case BestFit, *BestFit:
		lp.bestFit = true
	}
	p.lv.lp = lp
}

// loadLevels sets t (level-major, nodes × g) to the levels of σ(·, now)
// and the time-sorted releases rel later than now, and returns the
// per-node scratch it used.
func loadLevels(t []int64, level []int, nodes, g int, now int64, sigma []int, rel []release) []int {
	if cap(level) < nodes {
		level = make([]int, nodes)
	}
	level = level[:nodes]
	copy(level, sigma)
	for v := 1; v <= g; v++ {
		row := t[(v-1)*nodes : v*nodes]
		for n, l := range level {
			x := int64(never)
			if v <= l {
				x = now
			}
			row[n] = x
		}
	}
	for _, r := range rel[relAfter(rel, now):] {
		n := int(r.node)
		for v := max(level[n]+1, 1); v <= min(level[n]+int(r.gpus), g); v++ {
			t[(v-1)*nodes+n] = r.at
		}
		level[n] += int(r.gpus)
	}
	return level
}

// levelsFromFixed sets the levels, on the simulation's own planners, to
// those of the fixed state plus the occupations held (releases of jobs
// placed from t), when the planner's state is exactly that: at begin
// (held nil) and after a rewind (the kept jobs' releases). The fixed
// state's levels are kept across operations while no fixed job starts or
// finishes (addFixed, removeFixed) and no fixed release falls due between
// their load and now, so at a later time they are its levels (read
// clamped). What-if planners share the fixed state without seeing its
// changes, so they load their levels from σ instead.
func (p *planner) levelsFromFixed(held []release) {
	s := p.s
	if !s.listLevels || len(p.jobs) < s.levelsMinQueue || s.clusters[p.index] != p {
		return
	}
	p.allocLevels()
	lv := &p.lv
	if lv.fixedOK {
		if i := relAfter(p.fixedRels, lv.fixedAt); i < len(p.fixedRels) && p.fixedRels[i].at <= s.now {
			lv.fixedOK = false
		}
	}
	if !lv.fixedOK {
		if len(lv.fixed) != len(lv.lp.t) {
			lv.fixed = make([]int64, len(lv.lp.t))
		}
		level := lv.level
		if cap(level) < p.nodes {
			level = make([]int, p.nodes)
		}
		level = level[:p.nodes]
		for n := range level {
			level[n] = p.g - p.fixedUse[n]
		}
		lv.level = loadLevels(lv.fixed, lv.level, p.nodes, p.g, s.now, level, p.fixedRels)
		// A fixed release not later than now is left out of the load
		// (as the start cache's sweep leaves it out); such levels would
		// read it as free once carried past it, so they are not kept.
		lv.fixedAt, lv.fixedOK = s.now, len(p.fixedRels) == 0 || p.fixedRels[0].at > s.now
	}
	copy(lv.lp.t, lv.fixed)
	lv.ok = true
	for _, r := range held {
		p.levelsHeld(r.node, int(r.gpus), r.at)
	}
}

// fixedLevelsHeld records on the fixed state's levels, when loaded, a job
// that became fixed holding its nodes until its releases. It started at
// or before now, and the levels are read at now or later only, where
// holding from now or from its start is the same. A fixed job that
// finishes needs nothing (removeFixed): it finishes at its release, which
// the levels hold (loaded later than their time, or added here), and they
// are next read at an operation no earlier than that finish, where the
// release reads as free. (levelsFromFixed drops them should a fixed
// release fall due without its job leaving.)
func (p *planner) fixedLevelsHeld(rel []release) {
	lv := &p.lv
	if !lv.fixedOK {
		return
	}
	lp := lv.lp
	lp.t, lv.fixed = lv.fixed, lp.t
	for _, r := range rel {
		if r.at > p.s.now {
			lp.nu = 0
			lp.occupy(int(r.node), int(r.gpus), r.at)
		}
	}
	lp.t, lv.fixed = lv.fixed, lp.t
}

// levelsHeld records on the levels, when loaded, a placement holding gpus
// GPUs of node from t until end.
func (p *planner) levelsHeld(node int32, gpus int, end int64) {
	if !p.lv.ok || end <= p.s.now {
		return
	}
	lp := p.lv.lp
	lp.nu = 0 // no undo: a rewind reloads
	lp.occupy(int(node), gpus, end)
}

// levelStart is the earliest start of r workers of w GPUs (Eqs. 12–13)
// on the current state, read off the levels.
func (p *planner) levelStart(w, r int) int64 {
	return p.levelStartOn(p.levels(), w, r)
}

// levelStartOn is levelStart on the loaded levels lp.
func (p *planner) levelStartOn(lp *levelPlanner, w, r int) int64 {
	if lp.fitsBy(w, r, p.s.now) {
		return p.s.now
	}
	if st := lp.earliest(w, r); st != never {
		return max(st, p.s.now)
	}
	return never
}

// placeLevel is placeJob's no-backfill rule on the levels: job j's
// earliest start and its placer's nodes then, recorded as placed.
func (p *planner) placeLevel(j int) error {
	s := p.s
	job := &s.inst.Jobs[j]
	w, r := job.PerWorker(), job.Workers
	lp := p.levels()
	var start int64
	s.planPlace[j] = s.planPlace[j][:0]
	if r == 1 && lp.bestFit {
		var n int
		start, n = lp.bestFitOne(w, s.now)
		if start != never {
			s.planPlace[j] = append(s.planPlace[j], Slot{Node: int32(n), Workers: 1})
		}
	} else if start = p.levelStartOn(lp, w, r); start != never {
		slots := lp.pickAt(start, w, r)
		if len(slots) > 1 && lp.bestFit {
			sortSlotsByNode(slots) // planPlace lists nodes in index order
		}
		s.planPlace[j] = append(s.planPlace[j], slots...)
	}
	s.planStart[j] = start
	if start == never {
		return p.unplaceable(j)
	}
	p.occupy(j, start, start+p.rem(j), s.planPlace[j])
	return nil
}

// sortSlotsByNode sorts a few slots by node index (insertion sort).
func sortSlotsByNode(slots []Slot) {
	for i := 1; i < len(slots); i++ {
		for k := i; k > 0 && slots[k].Node < slots[k-1].Node; k-- {
			slots[k], slots[k-1] = slots[k-1], slots[k]
		}
	}
}

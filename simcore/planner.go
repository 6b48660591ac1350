package simcore

import (
	"fmt"
	"math/bits"
	"slices"
	"sort"
)

// release is a placed job giving back gpus GPUs on node at time at.
type release struct {
	at   int64
	node int32
	gpus int32
}

// relAfter is the index of the first release of the time-sorted rel
// later than x (len(rel) if none): sort.Search without the closure call
// on the placement hot path.
func relAfter(rel []release, x int64) int {
	lo, hi := 0, len(rel)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if rel[m].at > x {
			hi = m
		} else {
			lo = m + 1
		}
	}
	return lo
}

// reservation is a placed job holding gpus GPUs on node over [from, to).
type reservation struct {
	from, to int64
	node     int32
	gpus     int32
}

// planner builds the plan of one cluster at one operation (§4.3).
type planner struct {
	s     *sim
	index int
	// fixedGen counts the changes of the fixed state (addFixed,
	// removeFixed): the what-if level planners keep its levels across
	// operations while it does not change (levelPlanner.loadLevels).
	fixedGen uint64
	nodes    int
	g        int

	fixed   []int // Jn jobs on this cluster
	jobs    []int // Js jobs on this cluster (ranked by plan)
	valid   bool  // the plan below matches fixed, jobs and the current time
	changed bool  // fixed or jobs changed since the plan was built
	// keyMoved: a time-invariant ranking's key of a job of this cluster
	// was set or changed since jobs was last sorted or checked.
	keyMoved bool

	last lastPlan      // extend and rewind the last plan (extend.go, rewind.go)
	rw   rewindScratch // rewind's verification state (rewind.go)
	sc   spliceScratch // splice a reordered plan (splice.go)

	sigma []int         // σ(n, t) after the placed jobs (no backfill, greedy)
	rel   []release     // releases of placed jobs, sorted by time
	res   []reservation // reservations (conservative, reference path)
	tl    timelines     // reservations (conservative): per-node timelines
	cache startCache    // resumable earliest-start sweeps on sigma, rel
	lv    stateLevels   // the same state as levels (planlevels.go)

	sel     rankSelection // rank only as far as the plan reads (rankorder.go)
	lz      lazyPlan      // stop at the next arrival's horizon (horizon.go)
	strict  strictMode    // head-of-line blocking (modes.go)
	preempt preemptMode   // preemptive walk over running jobs (modes.go)
	pre     prefixBuffers // MCT what-ifs on a plan prefix (mctprefix.go)

	free  []int     // scratch: σ(n, τ)
	place []int     // scratch: workers per node
	times []int64   // scratch: candidate times
	batch []release // scratch: one job's releases

	// Persistent, across operations: the GPUs each node gives to fixed
	// jobs (running on their user cluster) and their releases sorted by
	// time, updated as jobs start and finish rather than rebuilt.
	fixedUse  []int
	fixedRels []release
}

func newPlanner(s *sim, index int, c Cluster) *planner {
	return &planner{
		s: s, index: index, nodes: c.Nodes, g: c.GPUsPerNode,
		sigma: make([]int, c.Nodes), free: make([]int, c.Nodes), place: make([]int, c.Nodes),
		fixedUse: make([]int, c.Nodes),
		changed:  true,
	}
}

// refilter brings the lists of a changed cluster up to date: jobs that
// finished leave them, and jobs that started on this (their user) cluster
// move from jobs to fixed. Arrivals and moves are added by Assign (add,
// remove), so the lists hold exactly the cluster's unfinished jobs.
func (p *planner) refilter() {
	s := p.s
	fixed := p.fixed[:0]
	for _, j := range p.fixed {
		if s.state[j] != done {
			fixed = append(fixed, j)
		}
	}
	jobs := p.jobs[:0]
	for _, j := range p.jobs {
		switch {
		case s.state[j] == done:
		case s.fixed[j]:
			fixed = append(fixed, j)
		default:
			jobs = append(jobs, j)
		}
	}
	p.fixed, p.jobs = fixed, jobs
	p.valid = false
}

// remove takes Js job j off this cluster's list.
func (p *planner) remove(j int) {
	if k := slices.Index(p.jobs, j); k >= 0 {
		p.jobs = slices.Delete(p.jobs, k, k+1)
	}
	p.valid = false
	p.changed = true
}

func (p *planner) add(j int) {
	p.jobs = append(p.jobs, j)
	p.valid = false
	p.changed = true
}

// reuse decides whether the plan built at an earlier operation t is still
// exactly the plan at the current time t' and, if so, keeps it. That holds
// when, on this cluster, no job finished in (t, t'], no job became fixed, no
// job was added (the caller tracks these in changed) and the ranking keys at
// t' still order the jobs as before (the key order is total, so a sorted
// check suffices): σ is then the same step function after t', every
// candidate start at or after t' is unchanged, and jobs that started in
// [t, t') keep starting "now" on the same nodes.
func (p *planner) reuse() bool {
	s := p.s
	if p.changed || !p.valid || s.opts.Backfill != BackfillNone || s.replan {
		return false
	}
	if p.placed() < len(p.jobs) {
		return false // stopped early: extend it to the new horizon (horizon.go)
	}
	if s.keyOn == nil || p.keyMoved {
		for i := 1; i < len(p.jobs); i++ {
			if s.rankLess(p.jobs[i], p.jobs[i-1]) {
				return false
			}
		}
		p.keyMoved = false
	}
	for _, j := range p.jobs {
		s.planStart[j] = max(s.planStart[j], s.now)
	}
	return true
}

// addFixed records job j, started at `at` on its user cluster, as a fixed
// job: it holds its nodes until at + rem.
func (p *planner) addFixed(j int, at int64) {
	s := p.s
	p.fixedGen++
	w := s.inst.Jobs[j].PerWorker()
	end := at + p.rem(j)
	p.batch = p.batch[:0]
	for _, sl := range s.placement[j] {
		gpus := int(sl.Workers) * w
		p.fixedUse[sl.Node] += gpus
		p.batch = append(p.batch, release{at: end, node: sl.Node, gpus: int32(gpus)})
	}
	i := relAfter(p.fixedRels, end)
	p.fixedRels = slices.Insert(p.fixedRels, i, p.batch...)
	p.fixedLevelsHeld(p.batch)
}

// removeFixed forgets fixed job j, which finished at end.
func (p *planner) removeFixed(j int, end int64) {
	s := p.s
	p.fixedGen++
	w := s.inst.Jobs[j].PerWorker()
	// The fixed state's levels need no change (fixedLevelsHeld).
	for _, sl := range s.placement[j] {
		gpus := int(sl.Workers) * w
		p.fixedUse[sl.Node] -= gpus
		i := sort.Search(len(p.fixedRels), func(i int) bool { return p.fixedRels[i].at >= end })
		for ; i < len(p.fixedRels) && p.fixedRels[i].at == end; i++ {
			if r := p.fixedRels[i]; r.node == sl.Node && int(r.gpus) == gpus {
				p.fixedRels = slices.Delete(p.fixedRels, i, i+1)
				break
			}
		}
	}
}

// begin loads the fixed jobs: they occupy their nodes from t to t + rem.
func (p *planner) begin() {
	s := p.s
	p.rel = p.rel[:0]
	p.res = p.res[:0]
	p.tl.reset(p.nodes)
	p.cache.clear()
	p.lv.ok = false
	p.lz.hz.valid = false
	p.strict.blocked = false
	if s.opts.Backfill == BackfillConservative && !s.replan {
		p.tl.loadFixed(s.now, p.fixedUse, p.fixedRels)
		return
	}
	if s.opts.Backfill != BackfillConservative && !s.replan {
		for n := range p.sigma {
			p.sigma[n] = p.g - p.fixedUse[n]
		}
		p.rel = append(p.rel, p.fixedRels...)
		p.levelsFromFixed(nil)
		return
	}
	// Reference path (conservative reservations, and the tests' replan-all
	// mode): rebuild the fixed state from the fixed jobs.
	for n := range p.sigma {
		p.sigma[n] = p.g
	}
	for _, j := range p.fixed {
		w := s.inst.Jobs[j].PerWorker()
		end := s.now + p.rem(j)
		for _, sl := range s.placement[j] {
			gpus := int32(int(sl.Workers) * w)
			if s.opts.Backfill == BackfillConservative {
				p.reserve(s.now, end, sl.Node, gpus)
				continue
			}
			p.sigma[sl.Node] -= int(gpus)
			p.rel = append(p.rel, release{at: end, node: sl.Node, gpus: gpus})
		}
	}
	slices.SortFunc(p.rel, func(a, b release) int { return cmpInt64(a.at, b.at) })
}

// occupy records job j on its slots: from t to end (no backfill, greedy) or
// over [from, end) (conservative).
func (p *planner) occupy(j int, from, end int64, slots []Slot) {
	w := p.s.inst.Jobs[j].PerWorker()
	if p.s.opts.Backfill == BackfillConservative {
		for _, sl := range slots {
			p.reserve(from, end, sl.Node, int32(int(sl.Workers)*w))
		}
		return
	}
	p.batch = p.batch[:0]
	for _, sl := range slots {
		gpus := int32(int(sl.Workers) * w)
		p.sigma[sl.Node] -= int(gpus)
		p.held(sl.Node, int(gpus), end)
		p.batch = append(p.batch, release{at: end, node: sl.Node, gpus: gpus})
	}
	i := relAfter(p.rel, end)
	p.rel = slices.Insert(p.rel, i, p.batch...)
}

// reserve records a conservative reservation of gpus GPUs on node over
// [from, to): in the per-node timelines, or in the flat list the reference
// path (the tests' replan-all mode) rescans.
func (p *planner) reserve(from, to int64, node, gpus int32) {
	if p.s.replan {
		p.res = append(p.res, reservation{from: from, to: to, node: node, gpus: gpus})
		return
	}
	p.tl.add(int(node), from, to, gpus)
}

// plan ranks the cluster's schedulable jobs and places them in order,
// setting planStart and planPlace for each.
func (p *planner) plan() error {
	if p.valid {
		return nil
	}
	s := p.s
	p.sc.pending = false // a stopped splice run belongs to the last plan only
	p.rankInit()
	p.keyMoved = false
	keepAt, kept := 0, 0 // the last plan's jobs kept: order[keepAt : keepAt+kept]
	p.lz.resetFrom = 0
	if _, ok := p.extendable(); ok {
		// A plan that stopped early (horizon.go) holds only its first
		// placed() jobs; the rest of the kept jobs are placed below.
		keepAt = p.goneLead()
		kept = p.placed() - keepAt
		p.lz.resetFrom = p.placed()
		p.advance()
	} else if m, c, ok := p.rewindable(); ok {
		keepAt, kept = m, c
		p.lz.resetFrom = m + c
		p.advance()
		p.rewind(m, c)
	} else {
		spliceable := p.last.built
		p.begin()
		if !p.fixedFromUse() {
			p.pre.fixedSigma = append(p.pre.fixedSigma[:0], p.sigma...)
			p.pre.fixedRel = append(p.pre.fixedRel[:0], p.rel...)
			p.pre.fixedRes = append(p.pre.fixedRes[:0], p.res...)
			if s.opts.Backfill == BackfillConservative {
				p.pre.fixedTL.copyFrom(&p.tl)
			}
		}
		if spliceable {
			if err := p.splice(); err != nil {
				return err
			}
			p.finish()
			return nil
		}
	}
	// Shift the kept jobs' releases and offsets to the front.
	if kept > 0 {
		from := p.last.orderOff[keepAt]
		p.last.orderRel = p.last.orderRel[:copy(p.last.orderRel, p.last.orderRel[from:p.last.orderOff[keepAt+kept]])]
		for i := 0; i <= kept; i++ {
			p.last.orderOff[i] = p.last.orderOff[keepAt+i] - from
		}
		p.last.orderOff = p.last.orderOff[:kept+1]
		p.last.orderStart = p.last.orderStart[:copy(p.last.orderStart, p.last.orderStart[keepAt:keepAt+kept])]
	} else {
		p.last.orderRel = p.last.orderRel[:0]
		p.last.orderOff = append(p.last.orderOff[:0], 0)
		p.last.orderStart = p.last.orderStart[:0]
	}
	if s.opts.Backfill == BackfillPreemptive {
		p.initPending()
	}
	if err := p.placeFrom(kept); err != nil {
		return err
	}
	p.finish()
	return nil
}

// finish records the plan just built as the last plan.
func (p *planner) finish() {
	s := p.s
	p.last.order = append(p.last.order[:0], p.jobs...)
	p.lz.lastPlaced = p.placed()
	p.last.built = s.opts.Backfill == BackfillNone && !s.replan
	p.last.completed = false
	p.valid = true
	p.changed = false
}

// fixedFromUse reports whether the state after the fixed jobs alone is the
// persistent fixed state (σ(n, t) = G − fixedUse[n], releases fixedRels),
// as begin loads it outside conservative backfilling and the tests'
// replan-all mode. The persistent state changes only when a job of the
// cluster starts on it as a fixed job or finishes, and both mark the
// cluster changed, so a valid plan's fixed state is the persistent one.
// Otherwise plan keeps a snapshot of it (fixedSigma, fixedRel, fixedRes,
// fixedTL) for finishIfAdded.
func (p *planner) fixedFromUse() bool {
	return p.s.opts.Backfill != BackfillConservative && !p.s.replan
}

// placeJob finds S_j and the placement of j given the jobs placed so far,
// and records j as placed.
func (p *planner) placeJob(j int) error {
	s := p.s
	job := &s.inst.Jobs[j]
	w, r := job.PerWorker(), job.Workers
	var start int64
	keep := false
	var snap []int // σ(·, start) when p.free does not hold it
	switch s.opts.Backfill {
	case BackfillConservative:
		start = p.earliestReserved(w, r, p.rem(j))
	case BackfillGreedy:
		start = p.earliestNow(w, r)
	case BackfillStrict:
		start = p.startStrict(w, r)
	case BackfillPreemptive:
		start, keep = p.startPreemptive(j)
	default:
		if p.levelsOn() {
			return p.placeLevel(j)
		}
		if p.s.replan {
			start = p.earliest(w, r)
		} else {
			start, snap = p.earliestSnap(w, r)
		}
	}
	s.planStart[j] = start
	s.planPlace[j] = s.planPlace[j][:0]
	if keep {
		s.planPlace[j] = append(s.planPlace[j], s.placement[j]...)
		p.occupy(j, start, start+p.rem(j), s.planPlace[j])
		return nil
	}
	if start == never {
		return p.unplaceable(j)
	}
	free := p.free
	if snap != nil {
		free = snap
	}
	if s.one != nil && r == 1 {
		if n := s.one.PickOne(free, w); n >= 0 {
			s.planPlace[j] = append(s.planPlace[j], Slot{Node: int32(n), Workers: 1})
		}
	} else {
		if snap != nil {
			copy(p.free, snap)
		}
		clear(p.place)
		s.list.Placer.Place(p.free, w, r, p.place)
		for n, k := range p.place {
			if k > 0 {
				s.planPlace[j] = append(s.planPlace[j], Slot{Node: int32(n), Workers: int32(k)})
			}
		}
	}
	p.occupy(j, start, start+p.rem(j), s.planPlace[j])
	return nil
}

// unplaceable is the outcome of job j having no start: it waits where
// jobs start only now, and is an error otherwise.
func (p *planner) unplaceable(j int) error {
	s := p.s
	if s.opts.Backfill.startsNowOnly() {
		return nil // waits for a later operation
	}
	job := &s.inst.Jobs[j]
	return fmt.Errorf("simcore: instance %q: job %d (%d workers × %d GPUs) cannot be placed on cluster %d", s.inst.Name, job.ID, job.Workers, job.PerWorker(), p.index)
}

func fits(free int, w int) int {
	if free <= 0 {
		return 0
	}
	return free / w
}

// countFits is Σ_n ⌊max(0, free[n])/w⌋, by shifts when w is a power of two.
func countFits(free []int, w int) int {
	count := 0
	if k := log2Exact(w); k >= 0 {
		for _, f := range free {
			count += max(f, 0) >> k
		}
		return count
	}
	for _, f := range free {
		count += fits(f, w)
	}
	return count
}

// earliest is Eq. 12–13: the first τ ∈ {t} ∪ {F_w} at which
// Σ_n ⌊max(0, σ(n, τ))/w⌋ ≥ r. It leaves σ(·, τ) in p.free.
func (p *planner) earliest(w, r int) int64 {
	if !p.s.replan {
		return p.earliestCached(w, r)
	}
	if w&(w-1) == 0 { // Table II demands are powers of two: shift, not divide
		return p.earliestShift(uint(bits.TrailingZeros(uint(w))), r)
	}
	copy(p.free, p.sigma)
	count := 0
	for _, f := range p.free {
		count += fits(f, w)
	}
	if count >= r {
		return p.s.now
	}
	for i := 0; i < len(p.rel); {
		at := p.rel[i].at
		for ; i < len(p.rel) && p.rel[i].at == at; i++ {
			n := p.rel[i].node
			old := p.free[n]
			p.free[n] += int(p.rel[i].gpus)
			count += fits(p.free[n], w) - fits(old, w)
		}
		if count >= r {
			return at
		}
	}
	return never
}

// earliestShift is earliest for w = 2^shift.
func (p *planner) earliestShift(shift uint, r int) int64 {
	copy(p.free, p.sigma)
	count := 0
	for _, f := range p.free {
		if count += max(f, 0) >> shift; count >= r {
			return p.s.now // the sweep below needs the full count only when it is short
		}
	}
	for i := 0; i < len(p.rel); {
		at := p.rel[i].at
		for ; i < len(p.rel) && p.rel[i].at == at; i++ {
			n := p.rel[i].node
			old := p.free[n]
			p.free[n] += int(p.rel[i].gpus)
			count += max(p.free[n], 0)>>shift - max(old, 0)>>shift
		}
		if count >= r {
			return at
		}
	}
	return never
}

// earliestNow is the greedy rule: start now if the job fits now.
func (p *planner) earliestNow(w, r int) int64 {
	copy(p.free, p.sigma)
	if countFits(p.free, w) >= r {
		return p.s.now
	}
	return never
}

// earliestReserved is conservative backfilling: the first τ ∈ {t} ∪ {F}
// such that r workers fit on nodes whose free capacity stays ≥ w over the
// whole of [τ, τ + d). It leaves the minimum free capacity per node over
// that window in p.free.
func (p *planner) earliestReserved(w, r int, d int64) int64 {
	if !p.s.replan {
		return p.tl.earliest(p.s.now, p.g, w, r, d, p.free)
	}
	return p.earliestReservedScan(w, r, d)
}

// earliestReservedScan is earliestReserved by rescanning every reservation
// per node and candidate: the reference the timelines are tested against.
func (p *planner) earliestReservedScan(w, r int, d int64) int64 {
	now := p.s.now
	p.times = append(p.times[:0], now)
	for _, rv := range p.res {
		if rv.to > now {
			p.times = append(p.times, rv.to)
		}
	}
	slices.Sort(p.times)
	p.times = slices.Compact(p.times)
	for _, tau := range p.times {
		end := tau + d
		count := 0
		for n := range p.free {
			p.free[n] = p.g - p.peakUse(int32(n), tau, end)
			count += fits(p.free[n], w)
		}
		if count >= r {
			return tau
		}
	}
	return never
}

// peakUse is the largest number of GPUs reserved on node n at any instant
// of [from, to). The peak is reached at from or at a reservation's start.
func (p *planner) peakUse(n int32, from, to int64) int {
	peak := 0
	at := func(x int64) int {
		use := 0
		for _, rv := range p.res {
			if rv.node == n && rv.from <= x && x < rv.to {
				use += int(rv.gpus)
			}
		}
		return use
	}
	peak = at(from)
	for _, rv := range p.res {
		if rv.node == n && rv.from > from && rv.from < to {
			peak = max(peak, at(rv.from))
		}
	}
	return peak
}

// rem is job j's remaining time on this cluster.
func (p *planner) rem(j int) int64 { return p.s.remOn(j, p.index) }

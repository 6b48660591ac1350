package simcore

// Planning only as far as the next operation can see (no backfilling,
// Eq. 13).
//
// Execution (SPEC §4.4) reads a plan only up to the next operation t'': a
// Js job starts, keeps running or moves when S_j < t'', and otherwise waits
// (a running one is preempted) and is planned again at t''. The next
// operation is never later than the next arrival H. So once no job left
// in the ranking can start before H, the rest of the plan changes nothing
// that execution does, and the planner stops there: those jobs wait
// (planStart = never, no placement) exactly as they would with their
// far-off starts.
//
// The stop is exact. Let σ_H(n) = σ(n, H − 1) of the state after the jobs
// placed so far, and let w_min and r_min be the smallest worker size and
// worker count of any job of the instance (so of any job left). If
//
//	Σ_n ⌊max(0, σ_H(n)) / w_min⌋ < r_min
//
// then every job (w, r) left has Σ_n ⌊max(0, σ_H(n)) / w⌋ < r (w ≥ w_min,
// r ≥ r_min); σ(n, τ) ≤ σ_H(n) for every τ < H (σ is non-decreasing in τ),
// and placing more jobs only lowers σ (each holds its GPUs from t). So no
// job left starts before H, whatever the jobs before it do.
//
// The plan built is therefore a prefix of the full plan. Everything that
// reads more of it extends that prefix first: MCT's what-if for a job
// ranked at k places the cluster's plan up to rank k (ensure), and the
// next operation's extend, rewind and splice paths treat the jobs past the
// prefix as not yet placed (they held nothing in the last plan). A plan
// that stopped early is not reused as it stands at a later operation
// (reuse): it is extended, which carries it to that time and places on
// to the new horizon. The sum above is kept up to date as jobs are
// placed, like a start-cache entry, so a check is O(1) until the state is
// rebuilt or carried to another time.
//
// Only the simulation's own planners stop early (planner.lazy): EVO's
// what-if planners score whole plans. The replan-all reference mode and
// the tests that compare with it (TestLazyPlansMatchFullPlans and every
// planner differential test) build full plans.

// horizon is σ(·, at) of a planner's current state for at = H − 1, with
// the count of workers of size w that fit in it.
type horizon struct {
	valid bool
	at    int64
	w     int
	shift int
	snap  []int
	count int
}

func (h *horizon) fits(f int) int {
	if h.shift >= 0 {
		return max(f, 0) >> h.shift
	}
	return fits(f, h.w)
}

// nextArrival is H: the time of the next arrival (never after the last).
func (s *sim) nextArrival() int64 {
	if s.next < len(s.order) {
		return s.inst.Jobs[s.order[s.next]].joins()
	}
	return never
}

// held records, in the start cache and the horizon, a placement holding
// gpus GPUs of node from t until end.
func (p *planner) held(node int32, gpus int, end int64) {
	p.cache.occupied(node, gpus, end)
	p.levelsHeld(node, gpus, end)
	if h := &p.lz.hz; h.valid && end > h.at {
		old := h.snap[node]
		h.snap[node] -= gpus
		h.count += h.fits(h.snap[node]) - h.fits(old)
	}
}

// saturated reports whether no job of p.jobs[i:] can start before the next
// arrival on the current state (see the comment at the top of the file),
// with w_min and r_min taken over every job of the instance (a job left
// has w ≥ w_min and r ≥ r_min all the same).
func (p *planner) saturated(i int) bool {
	s := p.s
	if i >= len(p.jobs) {
		return false
	}
	H := s.nextArrival()
	if H == never {
		return false
	}
	w := s.minShape[0]
	h := &p.lz.hz
	if !h.valid || h.at != H-1 {
		h.at = H - 1
		h.snap = append(h.snap[:0], p.sigma...)
		for k := relAfter(p.rel, s.now); k < len(p.rel) && p.rel[k].at <= h.at; k++ {
			h.snap[p.rel[k].node] += int(p.rel[k].gpus)
		}
		h.valid = true
		h.w = 0
	}
	if h.w != w {
		h.w, h.shift = w, log2Exact(w)
		h.count = 0
		for _, f := range h.snap {
			h.count += h.fits(f)
		}
	}
	return h.count < s.minShape[1]
}

// deferFrom leaves p.jobs[i:] unplaced: they wait at this operation
// (planStart never, no placement).
//
// Only the jobs that the last plan placed can hold anything else: a job
// joins a cluster's list on arrival or on a move, and both set it waiting
// (arrive, Allocation.Assign), and a job that a plan leaves unplaced
// keeps waiting until a plan places it. So this walks the last plan's
// placed jobs from p.lz.resetFrom on (those before it are known to be in the
// new plan's prefix: extend keeps them all, rewind its first c) and the
// new plan's placed ones, not the whole queue.
func (p *planner) deferFrom(i int) {
	s := p.s
	if st := s.hooks.stats; st != nil {
		st.Deferred += len(p.jobs) - i
		st.Ranked += len(p.jobs)
	}
	old := p.last.order[min(p.lz.resetFrom, p.lz.lastPlaced):p.lz.lastPlaced]
	if len(old) == 0 {
		return
	}
	if len(p.lz.inPlan) < len(s.inst.Jobs) {
		p.lz.inPlan = make([]uint32, len(s.inst.Jobs))
	}
	p.lz.planGen++
	if p.lz.planGen == 0 { // wrapped: forget every mark
		clear(p.lz.inPlan)
		p.lz.planGen = 1
	}
	for _, j := range p.jobs[:i] {
		p.lz.inPlan[j] = p.lz.planGen
	}
	for _, j := range old {
		if p.lz.inPlan[j] != p.lz.planGen && s.assigned[j] == p.index && s.state[j] != done && !s.fixed[j] {
			s.wait(j)
		}
	}
}

// wait leaves job j without a start or placement in the current plan.
func (s *sim) wait(j int) {
	s.planStart[j] = never
	s.planPlace[j] = s.planPlace[j][:0]
}

// placed is the number of leading jobs of the plan that are placed.
func (p *planner) placed() int { return len(p.last.orderStart) }

// placeFrom places p.jobs[i:] in order on the current state, recording
// each in the plan, and stops early (lazy planners) once no job left can
// start before the next arrival.
func (p *planner) placeFrom(i int) error {
	for ; i < len(p.jobs); i++ {
		if p.lz.lazy && p.saturated(i) {
			p.deferFrom(i)
			return nil
		}
		p.rankTo(i + 1)
		if err := p.placeNext(p.jobs[i]); err != nil {
			return err
		}
	}
	return nil
}

// placeNext places job j after the jobs placed so far and records it.
func (p *planner) placeNext(j int) error {
	s := p.s
	if err := p.placeJob(j); err != nil {
		return err
	}
	if st := s.planStart[j]; st != never {
		end := st + p.rem(j)
		w := s.inst.Jobs[j].PerWorker()
		for _, sl := range s.planPlace[j] {
			p.last.orderRel = append(p.last.orderRel, release{at: end, node: sl.Node, gpus: int32(int(sl.Workers) * w)})
		}
	}
	p.last.orderOff = append(p.last.orderOff, len(p.last.orderRel))
	p.last.orderStart = append(p.last.orderStart, s.planStart[j])
	return nil
}

// ensure extends a valid plan that stopped early so that its first k jobs
// are placed.
func (p *planner) ensure(k int) error {
	if p.sc.pending {
		if err := p.spliceMore(k); err != nil {
			return err
		}
	}
	p.rankTo(k)
	for i := p.placed(); i < k; i++ {
		if err := p.placeNext(p.jobs[i]); err != nil {
			return err
		}
	}
	// The last plan's order is the queue as now ranked: ranking further
	// may have reordered the jobs past the old stop (rankorder.go).
	p.last.order = append(p.last.order[:0], p.jobs...)
	p.lz.lastPlaced = p.placed()
	return nil
}

// lazyPlan is the state of a plan that stops at the next arrival's
// horizon.
type lazyPlan struct {
	lazy       bool     // plans stop once no job left can start before the next arrival
	hz         horizon  // the horizon test's state
	lastPlaced int      // order[:lastPlaced] were placed in the last plan
	resetFrom  int      // order[:resetFrom] are all placed in the plan being built
	inPlan     []uint32 // inPlan[j] == planGen: j is placed in the plan being built
	planGen    uint32
}

package simcore

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
)

// never is the start time of a job that no plan can place.
const never = math.MaxInt64

type jobState uint8

const (
	future jobState = iota
	queued
	running
	done
)

// sim is the state of one simulation. All per-job slices are indexed by the
// job's position in Instance.Jobs.
type sim struct {
	ctx   context.Context
	inst  *Instance
	sched Scheduler
	list  *ListScheduler // sched, when it is the built-in list scheduler
	one   OnePlacer      // list's placer, when it places one worker by itself
	opts  Options
	hooks testHooks // tests only (testhooks.go)
	// replan disables plan reuse across operations: with estimates (which
	// change the remaining times every operation) and in the tests'
	// replan-all mode (testHooks.alwaysReplan).
	replan bool
	// listLevels: the cluster planners read starts off levels
	// (planlevels.go).
	listLevels     bool
	levelsMinQueue int // from this queue length on (planlevels.go)
	now            int64

	state      []jobState
	fixed      []bool  // running on its user cluster (Jn); kept dense for the hot loops
	assigned   []int   // c_j, −1 while unset
	rem        []int64 // remaining duration on the assigned cluster at the last update
	ranSecs    []int64 // seconds run so far
	updated    []int64 // time at which rem is exact
	segStart   []int64 // start of the current execution segment
	firstStart []int64
	finish     []int64
	preempts   []int
	migrates   []int
	placement  [][]Slot // current placement of a running job
	runOn      []int    // the cluster a running job runs on (c_j may change first)

	planStart []int64  // S_j of the current plan
	minShape  [2]int   // the smallest worker size and worker count of any job
	planPlace [][]Slot // planned placement
	key       []float64
	keyOn     []int32 // time-invariant rankings: the cluster key[j] is for (−1 none)
	decided   []bool  // an external scheduler planned the job at this operation

	// Heterogeneous instances (SPEC §12) only, nil otherwise: the duration
	// of each job on each cluster (job-major, 0 = cannot run), each
	// cluster's GPU-type index, and the seconds each job ran per type.
	dur    []int64
	typeOf []int
	exec   []int64
	types  int

	// estimated: some job carries a duration estimate (SPEC §14).
	// Schedulers then plan on estimates while the engine runs the truth,
	// so a planned start later than the operation cannot be trusted (the
	// job it waits for may overrun): operations run at every completion,
	// only starts at the operation time execute, and plans are rebuilt at
	// every operation from the jobs' current estimates.
	estimated bool

	// Cluster state at the operation start for ClusterAware rankings.
	aware    bool
	freeNow  [][]int // free GPUs per cluster and node at t
	queueLen []int   // queued jobs assigned to each cluster at t

	order    []int   // jobs in (arrival, id) order
	pos      []int32 // a job's index in order
	next     int     // first job of order not yet arrived
	active   []int   // arrived, unfinished jobs, in order
	open     []int   // Js: the active jobs not in Jn, in order
	arrivals []int   // jobs arriving at this operation
	running  []int   // the running jobs not left lagging (lazyJn), in no particular order
	runAt    []int32 // a job's index in running, −1 when not in it
	// lazyJn: a job in Jn is not brought up to each operation time; its
	// rem, ranSecs and updated stay as of its start (updated), and readers
	// go through trueRemOn and queued, which add the lag. Only where
	// remaining time is a plain counter (homogeneous, no estimates) and
	// outside the tests' replan-all mode.
	lazyJn   bool
	ends     finishHeap // the finish times of the jobs in Jn
	ending   []int      // scratch: the jobs finishing in one execute
	stale    []int      // time-invariant keys forgotten since the last operation
	batch    *keyBatch  // a KeyBatcher ranking's batch evaluation (nil: one by one)
	js       []int      // scratch: Js for State.Schedulable
	events   []capEvent // scratch: plan validation
	clusters []*planner

	segments     []Segment
	opLog        []OpRecord
	done         doneStats   // settled jobs' objective terms, for StopAbove
	workUB       float64     // upper bound of Σ g_j d_j, for StopAbove
	whatIfPool   []*whatIf   // the allocation seam's what-if planners, kept across operations
	levelSets    levelSets   // the allocation seam's level planners, kept across operations (whatif.go)
	allocScratch any         // the allocator's buffers, kept across operations (Allocation.Scratch)
	keys         keyMemo     // the allocation seam's keys, once per job and operation (clusterblind.go)
	feasMask     []uint64    // per job, its feasible clusters (feasmask.go); nil: ask FitsOn
	rankScratch  rankScratch // RankOrders' buffers (whatif.go)
	ops          int
}

// Simulate runs inst online under sched and returns per-job results and
// metrics (SPEC §4–6). It is pure and re-entrant: parallel calls share
// nothing but the read-only instance and scheduler values.
func Simulate(ctx context.Context, inst *Instance, sched Scheduler, opts Options) (Result, error) {
	return simulate(ctx, inst, sched, opts, testHooks{})
}

// simulate is Simulate with the test-only switches hooks (testhooks.go),
// zero outside tests.
func simulate(ctx context.Context, inst *Instance, sched Scheduler, opts Options, hooks testHooks) (Result, error) {
	if sched == nil {
		return Result{}, errors.New("simcore: no scheduler")
	}
	if ls, ok := sched.(*ListScheduler); ok {
		if err := ls.validate(); err != nil {
			return Result{}, err
		}
	}
	if err := inst.Validate(); err != nil {
		return Result{}, err
	}
	if err := checkMode(inst, sched, opts); err != nil {
		return Result{}, err
	}
	if opts.Objective.isZero() {
		opts.Objective = DefaultObjective()
	}
	s := newSim(ctx, inst, sched, opts, hooks)
	if err := s.run(); err != nil {
		return Result{}, err
	}
	return s.result(), nil
}

func newSim(ctx context.Context, inst *Instance, sched Scheduler, opts Options, hooks testHooks) *sim {
	n := len(inst.Jobs)
	s := &sim{
		ctx: ctx, inst: inst, sched: sched, opts: opts, hooks: hooks, replan: hooks.alwaysReplan,
		state:      make([]jobState, n),
		fixed:      make([]bool, n),
		assigned:   make([]int, n),
		rem:        make([]int64, n),
		ranSecs:    make([]int64, n),
		decided:    make([]bool, n),
		updated:    make([]int64, n),
		segStart:   make([]int64, n),
		firstStart: make([]int64, n),
		finish:     make([]int64, n),
		preempts:   make([]int, n),
		migrates:   make([]int, n),
		placement:  make([][]Slot, n),
		runOn:      make([]int, n),
		planStart:  make([]int64, n),
		planPlace:  make([][]Slot, n),
		key:        make([]float64, n),
		order:      make([]int, n),
		pos:        make([]int32, n),
		runAt:      make([]int32, n),
	}
	for i, j := range inst.Jobs {
		s.assigned[i] = -1
		s.runAt[i] = -1
		s.rem[i] = j.Duration
		s.firstStart[i] = -1
		s.order[i] = i
	}
	slices.SortFunc(s.order, func(a, b int) int {
		ja, jb := &inst.Jobs[a], &inst.Jobs[b]
		if ja.joins() != jb.joins() {
			return cmpInt64(ja.joins(), jb.joins())
		}
		if ja.Arrival != jb.Arrival {
			return cmpInt64(ja.Arrival, jb.Arrival)
		}
		return cmpInt64(ja.ID, jb.ID)
	})
	applyArrivalTies(opts.ArrivalTies, inst.Jobs, s.order)
	for i, j := range s.order {
		s.pos[j] = int32(i)
	}
	for p, c := range inst.Clusters {
		s.clusters = append(s.clusters, newPlanner(s, p, c))
	}
	s.list, _ = sched.(*ListScheduler)
	if s.list != nil {
		s.one, _ = s.list.Placer.(OnePlacer)
		if ca, ok := s.list.Ranking.(ClusterAware); ok && ca.NeedsClusterState() {
			s.aware = true
			s.queueLen = make([]int, len(inst.Clusters))
			for _, c := range inst.Clusters {
				s.freeNow = append(s.freeNow, make([]int, c.Nodes))
			}
		}
	}
	for i := range inst.Jobs {
		if inst.Jobs[i].Estimate > 0 {
			s.estimated = true
			s.replan = true // estimates are revised at every operation
			break
		}
	}
	s.initTypes()
	s.initFeasMask()
	s.minShape = [2]int{1 << 30, 1 << 30}
	for i := range inst.Jobs {
		s.minShape[0] = min(s.minShape[0], inst.Jobs[i].PerWorker())
		s.minShape[1] = min(s.minShape[1], inst.Jobs[i].Workers)
	}
	s.lazyJn = s.dur == nil && !s.estimated && !s.replan
	s.listLevels = levelPlanning(s) && !s.hooks.noListLevels
	s.levelsMinQueue = levelsMinQueue
	if s.hooks.alwaysListLevels {
		s.levelsMinQueue = 0
	}
	if s.list != nil && s.opts.Backfill == BackfillNone && !s.replan && !s.hooks.fullPlans {
		for _, p := range s.clusters {
			p.lz.lazy = true // plan only as far as the next arrival can see (horizon.go)
		}
	}
	s.initKeys()
	s.initKeyMemo()
	s.initBatch()
	return s
}

func cmpInt64(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// run executes scheduling operations until every job is done.
func (s *sim) run() error {
	greedy := s.opts.Backfill.startsNowOnly() && s.list != nil
	completions := s.opts.Trigger == TriggerArrivalCompletion || greedy || s.estimated
	if ct, ok := s.sched.(CompletionTriggered); ok && ct.OnCompletions() {
		completions = true
	}
	t := s.inst.Jobs[s.order[0]].joins()
	for {
		if err := s.ctx.Err(); err != nil {
			return err
		}
		if err := s.operation(t); err != nil {
			return err
		}
		nextArrival := int64(never)
		if s.next < len(s.order) {
			nextArrival = s.inst.Jobs[s.order[s.next]].joins()
		}
		tNext := nextArrival
		if completions {
			tNext = min(tNext, s.earliestCompletion())
		}
		if tNext == never && len(s.active) > 0 && s.hasUnplaced() {
			return fmt.Errorf("simcore: instance %q: scheduler %q left jobs unplaceable with no further event", s.inst.Name, s.sched.Name())
		}
		s.execute(t, tNext)
		if s.opts.OnOperation != nil {
			s.opts.OnOperation(t, s.next, s.next-len(s.active))
		}
		if len(s.active) == 0 && s.next == len(s.order) {
			return nil
		}
		t = tNext
	}
}

// hasUnplaced reports whether an active job has no start in the plan.
func (s *sim) hasUnplaced() bool {
	for _, j := range s.open {
		if s.planStart[j] == never {
			return true
		}
	}
	return false
}

// earliestCompletion is the first finish time of a job running after the
// current operation's plan took effect (jobs starting now included).
func (s *sim) earliestCompletion() int64 {
	e := int64(never)
	if s.ends.len() > 0 {
		e = s.ends.min() // Jn
	}
	for _, j := range s.open {
		if s.planStart[j] == s.now {
			e = min(e, s.now+s.rem[j])
		}
	}
	return e
}

// operation performs one scheduling operation at time t (§4.2): it brings
// the running jobs' remaining work up to t, queues the arrivals, asks the
// scheduler for a plan and validates it.
func (s *sim) operation(t int64) error {
	s.ops++
	s.now = t
	// Bring the remaining durations of running jobs up to t (of Jn jobs
	// only without lazyJn).
	for _, j := range s.running {
		s.ran(j, t-s.updated[j])
		s.updated[j] = t
	}
	// 1. New arrivals become queued.
	s.arrivals = s.arrivals[:0]
	for s.next < len(s.order) && s.inst.Jobs[s.order[s.next]].joins() == t {
		j := s.order[s.next]
		s.state[j] = queued
		s.active = append(s.active, j)
		s.open = append(s.open, j)
		s.arrivals = append(s.arrivals, j)
		s.wait(j) // until a plan places it (deferFrom)
		s.next++
	}
	if s.opts.StopAbove > 0 {
		if lb := s.lowerBound(); lb > s.opts.StopAbove*(1+1e-9)+1e-12 {
			return &BoundExceeded{LowerBound: lb, Time: t}
		}
	}
	// 2–5. The scheduler plans; the engine checks the plan.
	if s.list != nil {
		if err := s.list.operation(s); err != nil {
			return err
		}
		if s.opts.CheckPlans {
			return s.validatePlan()
		}
		return nil
	}
	st := State{s: s}
	for _, j := range st.Schedulable() {
		s.decided[j] = false
	}
	pl := Plan{s: s}
	if err := s.sched.Plan(&st, &pl); err != nil {
		return fmt.Errorf("simcore: instance %q: scheduler %q at t=%d: %w", s.inst.Name, s.sched.Name(), t, err)
	}
	if err := pl.Err(); err != nil {
		return fmt.Errorf("simcore: instance %q: scheduler %q at t=%d: invalid plan: %w", s.inst.Name, s.sched.Name(), t, err)
	}
	return s.validatePlan()
}

// isFixed reports whether j belongs to Jn: running on its user cluster.
func (s *sim) isFixed(j int) bool { return s.fixed[j] }

// priority evaluates the ranking of job j on cluster p at the current time.
func (s *sim) priority(j, p int) float64 {
	var v JobView
	s.view(&v, j, p)
	return s.list.Ranking.Priority(v)
}

// view sets v to job j as the ranking sees it on cluster p at the current
// time.
func (s *sim) view(v *JobView, j, p int) {
	job := &s.inst.Jobs[j]
	*v = JobView{
		ID:        job.ID,
		Arrival:   job.Arrival,
		Now:       s.now,
		Duration:  s.durationOn(j, p),
		Remaining: s.remOn(j, p),
		Queued:    s.queued(j),
		GPUs:      job.GPUs,
		Workers:   job.Workers,
		PerWorker: job.PerWorker(),
		Priority:  job.Priority,
		Deadline:  job.Deadline,
		Cluster:   p,
		User:      job.Cluster,
		Speed:     s.speed(j, p),
	}
	if s.aware {
		w := job.PerWorker()
		fit := 0
		for _, f := range s.freeNow[p] {
			v.FreeGPUs += f
			fit += f / w
		}
		v.QueueLen = s.queueLen[p]
		v.FitsNow = fit >= job.Workers
	}
}

// rankLess is the ranking key order (f, a_j, id) with NaN last.
func (s *sim) rankLess(a, b int) bool {
	ka, kb := s.key[a], s.key[b]
	if ka != kb && !(math.IsNaN(ka) && math.IsNaN(kb)) {
		return lessKey(ka, kb)
	}
	ja, jb := &s.inst.Jobs[a], &s.inst.Jobs[b]
	if ja.Arrival != jb.Arrival {
		return ja.Arrival < jb.Arrival
	}
	return ja.ID < jb.ID
}

// execute carries out the plan from t until the next operation tNext (§4.4).
//
// Only Js jobs (open) can start, move or be preempted; a job in Jn only
// runs to its finish, known when it started, so the jobs of Jn that finish
// before tNext come off a heap instead of a walk over every running job.
// The jobs that finish are then completed in (arrival, id) order, as a walk
// over the active jobs would meet them, so the per-job results, segments
// and the early-stop sums are accumulated in the same order.
func (s *sim) execute(t, tNext int64) {
	startBy := tNext // planned starts before this run
	if s.estimated {
		startBy = t + 1
	}
	ending := s.ending[:0]
	open := s.open[:0] // Js after this execute: compacted in place
	openEnds := false  // a job kept in open finishes below
	for _, j := range s.open {
		st := s.planStart[j]
		wasRunning := s.state[j] == running
		switch {
		case wasRunning && st == t:
			if s.runOn[j] != s.assigned[j] || !slices.Equal(s.placement[j], s.planPlace[j]) {
				s.clusters[s.assigned[j]].changed = true
				s.clusters[s.runOn[j]].changed = true
				s.migrates[j]++
				s.payOverhead(j)
				s.closeSegment(j, t)
				s.segStart[j] = t
				s.placement[j] = append(s.placement[j][:0], s.planPlace[j]...)
				s.runOn[j] = s.assigned[j]
			}
		case wasRunning:
			s.clusters[s.assigned[j]].changed = true
			s.clusters[s.runOn[j]].changed = true
			s.closeSegment(j, t)
			s.preempts[j]++
			s.payOverhead(j)
			s.state[j] = queued
			s.stopRunning(j)
			if st < startBy {
				s.start(j, st)
			}
		case st < startBy:
			s.start(j, st)
		}
		if s.fixed[j] {
			continue // joined Jn just now: its finish is on the heap
		}
		open = append(open, j)
		if s.state[j] == running && s.updated[j]+s.rem[j] <= tNext {
			ending = append(ending, j)
			openEnds = true
		}
	}
	clear(s.open[len(open):])
	s.open = open
	for s.ends.len() > 0 && s.ends.min() <= tNext {
		ending = append(ending, s.ends.pop())
	}
	if len(ending) > 1 {
		slices.SortFunc(ending, func(a, b int) int { return int(s.pos[a] - s.pos[b]) })
	}
	for _, j := range ending {
		f := s.updated[j] + s.rem[j]
		c := s.clusters[s.assigned[j]]
		c.changed = true
		c.last.completed = true
		settled := s.fixed[j] // its terms were settled when it started
		if settled {
			c.removeFixed(j, f)
			s.fixed[j] = false
		}
		s.ran(j, s.rem[j])
		s.closeSegment(j, f)
		s.finish[j] = f
		s.state[j] = done
		s.stopRunning(j)
		if s.opts.StopAbove > 0 && !settled {
			s.done.add(s, j, f, s.ranSecs[j]) // only the early-stop bound reads these terms
		}
	}
	s.ending = ending
	if openEnds {
		s.open = s.dropDone(s.open)
	}
	if len(ending) > 0 {
		s.active = s.dropDone(s.active)
	}
}

// dropDone removes the finished jobs from list, in place, keeping the
// order of the others.
func (s *sim) dropDone(list []int) []int {
	kept := list[:0]
	for _, j := range list {
		if s.state[j] != done {
			kept = append(kept, j)
		}
	}
	clear(list[len(kept):])
	return kept
}

// stopRunning takes j off the running set (swap with the last), if it is
// in it.
func (s *sim) stopRunning(j int) {
	i := s.runAt[j]
	if i < 0 {
		return
	}
	last := s.running[len(s.running)-1]
	s.running[i] = last
	s.runAt[last] = i
	s.running = s.running[:len(s.running)-1]
	s.runAt[j] = -1
}

func (s *sim) start(j int, at int64) {
	s.state[j] = running
	s.segStart[j] = at
	s.updated[j] = at
	if s.firstStart[j] < 0 {
		s.firstStart[j] = at
	}
	s.placement[j] = append(s.placement[j][:0], s.planPlace[j]...)
	s.runOn[j] = s.assigned[j]
	if s.assigned[j] == s.inst.Jobs[j].Cluster && s.opts.Backfill != BackfillPreemptive {
		c := s.clusters[s.assigned[j]]
		c.changed = true // j joins Jn
		c.addFixed(j, at)
		s.fixed[j] = true
		s.ends.push(at+s.rem[j], j)
		if s.opts.StopAbove > 0 {
			s.done.add(s, j, at+s.rem[j], s.ranSecs[j]+s.rem[j])
		}
	}
	if !s.fixed[j] || !s.lazyJn {
		s.runAt[j] = int32(len(s.running))
		s.running = append(s.running, j)
	}
}

// closeSegment records the execution of j from its segment start to end.
func (s *sim) closeSegment(j int, end int64) {
	if !s.opts.RecordSegments || end <= s.segStart[j] {
		return
	}
	c := s.inst.Clusters[s.runOn[j]]
	workers := make([]int, c.Nodes)
	for _, sl := range s.placement[j] {
		workers[sl.Node] += int(sl.Workers)
	}
	s.segments = append(s.segments, Segment{Job: j, Cluster: s.runOn[j], Start: s.segStart[j], End: end, Workers: workers})
}

func (s *sim) result() Result {
	res := Result{Instance: s.inst.Name, Scheduler: s.sched.Name(), Operations: s.ops, Segments: s.segments, Ops: s.opLog}
	res.Jobs = make([]JobResult, len(s.inst.Jobs))
	for i, j := range s.inst.Jobs {
		res.Jobs[i] = JobResult{
			ID: j.ID, Arrival: j.Arrival, Duration: s.ranSecs[i], GPUs: j.GPUs, Priority: j.Priority,
			User: j.Cluster, Cluster: s.assigned[i], Start: s.firstStart[i], Finish: s.finish[i],
			Queue: s.finish[i] - j.Arrival - s.ranSecs[i], Preemptions: s.preempts[i], Migrations: s.migrates[i],
			Deadline: j.Deadline,
		}
	}
	res.Metrics = ComputeMetrics(s.inst.Clusters, res.Jobs, s.opts.Objective)
	return res
}

package rule

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/simcore"
)

// Rule is the rule allocator of SPEC §16. At an operation it decides, one
// job at a time, the cluster of each job in its scope: the feasible cluster
// with the smallest routing value R(j, p); ties go to the job's current
// cluster, then to its user cluster s_j, then to the lowest index, and NaN
// ranks after every number. Each assignment adds the job to the cluster's
// bookkeeping (W and n) before the next job is decided.
//
// The terminals are kept per cluster, so a decision costs one tree
// evaluation per (job, feasible cluster) and nothing plans unless the tree
// uses m:
//   - f, N, C: from the Jn jobs and the cluster's shape, once per operation;
//   - W, n: running sums, updated at every assignment. They start from the
//     Jn jobs on p plus, in scope arrivals, the Js jobs that keep their
//     cluster (they are assigned to p in this operation before the
//     arrivals are); in scope all from the Jn jobs alone. W adds g·rem_{j,p}
//     for every job on p and divides by C;
//   - x: the earliest candidate time τ ∈ {t} ∪ {F_w : w ∈ Jn on p} at which
//     Σ_n ⌊σ_Jn(n, τ) / w_j⌋ ≥ r_j, where σ_Jn(n, τ) is the GPUs of node n
//     not held at τ by Jn jobs (each holds its nodes until its finish
//     t + rem); x = τ − t. The capacities per candidate time are built once
//     per (operation, cluster, GPUs per worker), and a query is a binary
//     search over them;
//   - m: in scope arrivals simcore's MCT what-if, Allocation.FinishOn(j,
//     p) − t, the very finish MCT compares; in scope all the finish of j in
//     the what-if plan of the Jn jobs on p and the jobs assigned to p so
//     far in this operation (allFinish, incremental).
//
// Times are hours unless Params.Seconds.
type Rule struct {
	params Params
	prog   *expr.Program
	usesX  bool
	usesM  bool
	// incM: the tree uses m and is non-decreasing in it, so a cluster
	// whose value at a lower bound of m cannot beat the best so far is
	// not asked its what-if (mbound.go); noBound turns that off (tests:
	// the reference).
	incM, noBound bool
	// span: the tree compiled for interval evaluation (box.go); noBox
	// turns the box bound off (tests: the reference).
	span     []spanInstr
	noBox    bool
	stats    *mStats      // tests only: the what-ifs asked and skipped
	queryLog func(uint64) // studies only (WithQueryLog): each scope-all m query's key
	// decisionLog: studies only (WithDecisionLog), every decision.
	decisionLog func(Decision)
	perHour     float64 // seconds per time unit of the terminals
}

// New returns the allocator with validated parameters.
func New(p Params) (Rule, error) {
	if err := p.Validate(); err != nil {
		return Rule{}, err
	}
	t := p.routing()
	p.Routing, p.Scope = t, p.scope()
	unit := 3600.0
	if p.Seconds {
		unit = 1
	}
	usesM := t.Uses(expr.OpRouteMCT)
	return Rule{params: p, prog: expr.Compile(t), usesX: t.Uses(expr.OpRouteFit), usesM: usesM, incM: usesM && nonDecreasingInM(t), span: compileSpan(t), perHour: unit}, nil
}

// Params are the allocator's parameters (defaults filled in).
func (r Rule) Params() Params { return r.params }

// NewScheduler composes the list scheduler rule(routing, scope) + ranking +
// placer under label (SPEC §16) — what a learner scores a multi-tree
// individual as.
func NewScheduler(label string, p Params, ranking simcore.Ranking, placer simcore.Placer) (*simcore.ListScheduler, error) {
	r, err := New(p)
	if err != nil {
		return nil, err
	}
	return simcore.NewListScheduler(label, r, ranking, placer), nil
}

// CheckBackfill implements simcore.BackfillChecker: m needs MCT's what-if,
// and scope all moves jobs between clusters, which the start-now-only
// strict and preemptive modes do not plan.
func (r Rule) CheckBackfill(b simcore.Backfill) error {
	switch {
	case r.usesM && (b == simcore.BackfillStrict || b == simcore.BackfillPreemptive):
		return fmt.Errorf("the rule allocator's routing tree %q uses m, MCT's what-if finish, which backfill %v cannot give", r.params.Routing, b)
	case r.params.Scope == ScopeAll && (b == simcore.BackfillStrict || b == simcore.BackfillPreemptive):
		return fmt.Errorf("the rule allocator's scope all does not support backfill %v (use scope arrivals)", b)
	}
	return nil
}

// book is one cluster's bookkeeping during an operation. Its buffers are
// kept across the simulation's operations (scratch).
type book struct {
	nodes, gpn int
	freeJn     float64 // GPUs not held by Jn jobs at t
	work       float64 // Σ g·rem (seconds) of the jobs on the cluster so far
	count      float64 // jobs on the cluster so far, Jn included
	jnUse      []int   // GPUs held at t by Jn jobs finishing after t, per node
	releases   []release
	sorted     bool  // releases are in (at, node) order
	fits       []fit // per GPUs per worker w (index w): the capacity steps
	op         int   // the operation fits was last valid at
}

// release is a Jn job's GPUs on one node, freed at its finish (after t).
type release struct {
	at         int64
	node, gpus int
}

// step is Σ_n ⌊σ_Jn(n, at)/w⌋ from time at on.
type step struct {
	at  int64
	cap int
}

// fit is x's capacity for one GPUs-per-worker w on one cluster, built
// lazily: cap0, the capacity at t, at the first query of w in the
// operation; the steps after t only when a query needs more than cap0.
type fit struct {
	op    int // the operation cap0 (and steps, if full) belong to
	cap0  int
	full  bool
	steps []step
}

// reset empties the book for an operation on a cluster of the given shape,
// keeping its buffers.
func (b *book) reset(op, nodes, gpn int, usesX bool) {
	*b = book{nodes: nodes, gpn: gpn, freeJn: float64(nodes * gpn),
		jnUse: b.jnUse, releases: b.releases[:0], fits: b.fits, op: op}
	if usesX {
		if cap(b.jnUse) < nodes {
			b.jnUse = make([]int, nodes)
		}
		b.jnUse = b.jnUse[:nodes]
		clear(b.jnUse)
		if len(b.fits) < gpn+1 {
			b.fits = make([]fit, gpn+1)
		}
	}
}

// fitTime is the earliest candidate time at which r workers of w GPUs fit
// beside the Jn jobs.
//
// It is lazy, and exact: the capacity steps are non-decreasing in time
// (a release only frees GPUs), so the first step with capacity ≥ r is the
// step at t whenever cap0 ≥ r, and otherwise the binary search over the
// full steps of buildSteps, which is what every query did before. A Jn
// job finishing at t is never in jnUse or the releases: buildSteps folded
// such releases into the step at t, which is the same capacity. Oracle:
// TestFitTimeLazyIsFull (random books, every w and r, against the full
// steps) and the quick learn run's outputs, byte-identical old vs new
// (docs/PERFORMANCE.md).
func (b *book) fitTime(now int64, w, r int) int64 {
	if w > b.gpn { // no node holds a worker: capacity 0 at every step
		if r <= 0 {
			return now
		}
		return math.MaxInt64
	}
	f := &b.fits[w]
	if f.op != b.op {
		c := 0
		for _, u := range b.jnUse {
			c += max(0, b.gpn-u) / w
		}
		*f = fit{op: b.op, cap0: c, steps: f.steps[:0]}
	}
	if r <= f.cap0 {
		return now
	}
	if !f.full {
		if !b.sorted {
			slices.SortFunc(b.releases, func(x, y release) int {
				if x.at != y.at {
					if x.at < y.at {
						return -1
					}
					return 1
				}
				return x.node - y.node
			})
			b.sorted = true
		}
		f.steps = b.buildSteps(now, w, f.steps[:0])
		f.full = true
	}
	steps := f.steps
	k, _ := slices.BinarySearchFunc(steps, r, func(s step, r int) int {
		if s.cap >= r {
			return 1
		}
		return -1
	})
	if k == len(steps) { // cannot happen for a feasible job: every Jn job finishes
		return math.MaxInt64
	}
	return steps[k].at
}

// buildSteps appends to steps the capacity at t and after each release
// time (the releases sorted by time), and returns it.
func (b *book) buildSteps(now int64, w int, steps []step) []step {
	free := make([]int, b.nodes)
	capacity := 0
	for n := range free {
		free[n] = b.gpn - b.jnUse[n]
		capacity += max(0, free[n]) / w
	}
	steps = append(steps, step{at: now, cap: capacity})
	for i := 0; i < len(b.releases); {
		at := b.releases[i].at
		for ; i < len(b.releases) && b.releases[i].at == at; i++ {
			rl := b.releases[i]
			capacity -= max(0, free[rl.node]) / w
			free[rl.node] += rl.gpus
			capacity += max(0, free[rl.node]) / w
		}
		if at == now {
			steps[len(steps)-1].cap = capacity
			continue
		}
		steps = append(steps, step{at: at, cap: capacity})
	}
	return steps
}

// scratch is the allocator's per-simulation buffers, kept across
// operations in Allocation.Scratch (a Rule value is shared by parallel
// simulations, so it holds none).
type scratch struct {
	books  []book
	jobs   []int
	decide []int
	keys   []float64
	finish *allFinish // m's what-ifs in scope all, buffers kept across operations
	visit  []int      // the clusters in the order one job visits them
	stack  []span     // the box bound's operand stack
	spans  clusterSpans
	gate   boxGate
}

// Allocate implements simcore.Allocator.
func (r Rule) Allocate(a *simcore.Allocation) error {
	st := a.State()
	inst := a.Instance()
	now := a.Now()
	P := a.Clusters()
	sp := a.Scratch()
	sc, _ := (*sp).(*scratch)
	if sc == nil {
		sc = &scratch{}
		*sp = sc
	}
	if len(sc.books) < P {
		sc.books = make([]book, P)
	}
	books := sc.books[:P]
	// The bound of m (mbound.go) in scope all; it is used only where m's
	// what-ifs are the level planner's (set below), whose queries evaluate
	// no ranking key, so skipping one changes no call a recording ranking
	// sees (learn's behaviour samples).
	bound := r.incM && !r.noBound && r.params.Scope == ScopeAll
	fits := r.usesX || bound // the books keep the Jn jobs' GPUs for x
	for p, c := range inst.Clusters {
		books[p].reset(a.Op(), c.Nodes, c.GPUsPerNode, fits)
	}
	var jobs []int // the jobs to decide (Js in scope all, else the arrivals)
	if r.params.Scope == ScopeAll {
		sc.jobs = append(sc.jobs[:0], a.Schedulable()...)
		jobs = sc.jobs
	} else {
		jobs = a.Arrivals()
	}
	// The books start from the jobs not decided here: an arrival has no
	// cluster yet (c_j = −1 until this operation sets it), and in scope
	// all every active job that is not in Jn is in Js.
	for _, j := range st.Active() {
		p := a.Assigned(j)
		if p < 0 {
			continue
		}
		fixed := st.IsFixed(j)
		if !fixed && r.params.Scope == ScopeAll {
			continue
		}
		job := &inst.Jobs[j]
		rem := a.RemainingOn(j, p)
		b := &books[p]
		b.work += float64(job.GPUs) * float64(rem)
		b.count++
		if !fixed {
			continue
		}
		b.freeJn -= float64(job.GPUs)
		if fits && rem > 0 { // a job finishing at t holds nothing for x (fitTime)
			w := job.PerWorker()
			for _, sl := range st.Placement(j) {
				g := int(sl.Workers) * w
				b.jnUse[sl.Node] += g
				b.releases = append(b.releases, release{at: now + rem, node: int(sl.Node), gpus: g})
			}
		}
	}
	var decide []int // indices into jobs, in decision order
	if len(sc.decide) < len(jobs) {
		sc.decide = make([]int, len(jobs))
	}
	decide = sc.decide[:len(jobs)]
	for i := range decide {
		decide[i] = i
	}
	if r.params.Scope == ScopeAll {
		if len(sc.keys) < len(jobs) {
			sc.keys = make([]float64, len(jobs))
		}
		keys := sc.keys[:len(jobs)]
		for i, j := range jobs {
			c := a.Assigned(j)
			if c < 0 {
				c = inst.Jobs[j].Cluster
			}
			keys[i] = a.RankKey(j, c)
		}
		slices.SortStableFunc(decide, func(x, y int) int { return cmpKey(keys[x], keys[y]) }) // jobs are in (arrival, id) order
	}
	var finishes *allFinish // m in scope all
	if r.usesM && r.params.Scope == ScopeAll && len(jobs) > 0 {
		sc.finish = newAllFinish(sc.finish, a, jobs)
		finishes = sc.finish
	}
	level := finishes != nil && len(finishes.planners) > 0 && finishes.planners[0].Level()
	bound = bound && level
	// The box bound (box.go) where skipping a cluster skips no ranking
	// key: in scope all, m's what-ifs on the level planner or no m.
	box := !r.noBound && !r.noBox && r.params.Scope == ScopeAll && len(r.span) > 0 && (!r.usesM || level)
	if box {
		if len(sc.stack) < len(r.span) {
			sc.stack = make([]span, len(r.span))
		}
		sc.spans.start(books, r.perHour)
	}
	var fixedSig uint64
	if r.decisionLog != nil {
		fixedSig = fixedHash(a)
	}
	var vars expr.Vars
	for _, i := range decide {
		j := jobs[i]
		if err := a.Context().Err(); err != nil {
			return err
		}
		job := &inst.Jobs[j]
		cur := a.Assigned(j)
		vars[expr.OpQ] = float64(st.Queued(j)) / r.perHour
		vars[expr.OpU] = float64(job.Priority)
		vars[expr.OpG] = float64(job.GPUs)
		vars[4] = float64(now-job.Arrival) / r.perHour // a
		vars[5] = float64(job.Workers)                 // r
		vars[6] = float64(job.PerWorker())             // w
		best, bestR := -1, 0.0
		visit := identity(&sc.visit, P)
		if bound || box {
			visit = tieOrder(sc.visit, cur, job.Cluster)
		}
		for k, p := range visit {
			if !a.Feasible(j, p) {
				continue
			}
			b := &books[p]
			rem := a.RemainingOn(j, p)
			vars[expr.OpD] = float64(rem) / r.perHour
			vars[expr.OpRouteFree] = b.freeJn
			vars[expr.OpRouteAssigned] = b.count
			vars[expr.OpRouteNodes] = float64(b.nodes)
			cap := float64(b.nodes * b.gpn)
			vars[expr.OpRouteGPUs] = cap
			vars[expr.OpRouteWork] = b.work / cap / r.perHour
			vars[expr.OpRouteHome] = b2f(p == job.Cluster)
			vars[expr.OpRouteCurrent] = b2f(p == cur)
			var fit int64
			if r.usesX || bound && best >= 0 {
				fit = b.fitTime(now, job.PerWorker(), job.Workers)
				vars[expr.OpRouteFit] = float64(fit-now) / r.perHour
			}
			if bound && best >= 0 && r.cannotWin(&vars, now, fit, rem, bestR) {
				continue
			}
			if r.usesM {
				var f int64
				var err error
				if finishes != nil {
					if r.queryLog != nil {
						r.queryLog(queryKey(a, finishes, i, p))
					}
					f, err = finishes.finish(i, p, rem)
				} else {
					f, err = a.FinishOn(j, p)
				}
				if err != nil {
					return err
				}
				if r.stats != nil {
					r.stats.asked.Add(1)
				}
				vars[expr.OpRouteMCT] = float64(f-now) / r.perHour
			}
			v := r.prog.EvalVars(&vars)
			if best < 0 || better(v, p, bestR, best, cur, job.Cluster) {
				best, bestR = p, v
			}
			if box && k < 2 && (p == cur || p == job.Cluster) && !math.IsNaN(bestR) && sc.gate.try() {
				won := r.noneWins(a, sc.stack, &vars, &sc.spans, visit[k+1:], j, cur, job.Cluster, rem, bestR)
				sc.gate.record(won)
				if won {
					if r.stats != nil {
						r.stats.boxed.Add(1)
					}
					break
				}
			}
		}
		if best < 0 {
			return errors.New("rule: job feasible nowhere")
		}
		if r.decisionLog != nil {
			r.decisionLog(Decision{Op: a.Op(), Now: now, Job: j, Cluster: best, Current: cur, Fixed: fixedSig})
		}
		a.Assign(j, best)
		if finishes != nil {
			finishes.assign(i, best)
		}
		b := &books[best]
		b.work += float64(job.GPUs) * float64(a.RemainingOn(j, best))
		b.count++
		if box {
			sc.spans.assigned(b, r.perHour)
		}
	}
	return nil
}

// better reports whether cluster p with value v beats cluster q with value
// w: the smaller value (NaN after every number), then the current cluster,
// then the user cluster, then the lower index.
func better(v float64, p int, w float64, q, cur, user int) bool {
	if c := cmpKey(v, w); c != 0 {
		return c < 0
	}
	if pr, qr := preference(p, cur, user), preference(q, cur, user); pr != qr {
		return pr < qr
	}
	return p < q
}

func preference(p, cur, user int) int {
	switch p {
	case cur:
		return 0
	case user:
		return 1
	}
	return 2
}

// cmpKey orders values ascending with NaN after every number (NaNs equal).
func cmpKey(x, y float64) int {
	xn, yn := math.IsNaN(x), math.IsNaN(y)
	switch {
	case xn && yn:
		return 0
	case xn:
		return 1
	case yn:
		return -1
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

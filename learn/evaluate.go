package learn

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"

	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/internal/parallel"
	"github.com/evogp/evogp/policies"
	"github.com/evogp/evogp/simcore"
	"github.com/evogp/evogp/simcore/evo"
)

// cacheKey identifies one fitness term: a candidate (by the canonical hash
// of its simplified tree) on one training instance (by index).
type cacheKey struct {
	hash uint64
	inst int32
}

// cacheEntry is one cached term, in the order it was computed: the exact
// term, or (bound) a lower bound of it — proved by an early-stopped
// simulation, or 0 for a term of a pruned candidate that was never
// simulated (gp.early_stop). A later exact entry of the same key replaces
// a bound.
type cacheEntry struct {
	key   cacheKey
	value float64
	bound bool
}

// evaluator scores candidates by simulation. It owns the SRSF baselines, the
// fitness cache and the worker pool. Only the goroutine that runs the
// generation loop touches the cache; the workers write into disjoint result
// slots, so the outcome does not depend on the number of workers or on the
// order in which they finish.
type evaluator struct {
	train, val   []simcore.Instance
	opts         simcore.Options
	seconds      bool
	workers      int
	baseTrain    []float64 // O_SRSF,i of every training instance
	baseVal      []float64 // … and validation instance
	srsf         simcore.Scheduler
	alloc, place string                          // the candidate scheduler is alloc+formula+place
	scope        string                          // with routing trees: the rule allocator's scope (setRule)
	evo          evo.Params                      // when alloc is evo
	cache        map[cacheKey]float64            // exact terms
	bounds       map[cacheKey]float64            // lower bounds of terms seen but not known exactly (early stop)
	log          []cacheEntry                    // every entry in insertion order (checkpointed)
	onSimulation func()                          // test hook: called before each candidate term is computed
	traces       *traceStore                     // order-equivalence traces (nil: off); see equivalence.go
	answered     int                             // tasks answered by a trace instead of simulated, in total
	onTerm       func(cacheKey, simcore.Metrics) // called for every training term simulated to the end (gp.selection: nsga2)
	pooled       bool                            // gp.fitness: pooled (termWeights)
}

func newEvaluator(train, val []simcore.Instance, opts simcore.Options, seconds bool, workers int, alloc, place string, ep evo.Params) (*evaluator, error) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	e := &evaluator{
		train: train, val: val, opts: opts, seconds: seconds, workers: workers,
		alloc: alloc, place: place, evo: ep, cache: map[cacheKey]float64{}, bounds: map[cacheKey]float64{},
	}
	srsf, err := e.parse(alloc+"+srsf+"+place, nil)
	if err != nil {
		return nil, fmt.Errorf("gp.allocator/gp.placer: %w", err)
	}
	e.srsf = srsf
	if _, err := e.candidate(simcore.SRSF{}); err != nil {
		return nil, fmt.Errorf("gp.allocator/gp.placer: %w", err)
	}
	return e, nil
}

// candidateSpec is the scheduler spec of a candidate ranking registered as
// "formula": gp.allocator + formula + gp.placer (mct+formula+bestfit by
// default).
func candidateSpec(alloc, place string) string { return alloc + "+formula+" + place }

// candidate is the scheduler alloc + r + place for a priority function r,
// built by policies.ParseWith.
func (e *evaluator) candidate(r simcore.Ranking) (simcore.Scheduler, error) {
	return e.parse(candidateSpec(e.alloc, e.place), map[string]simcore.Ranking{"formula": r})
}

// parse builds a scheduler with the run's EVO parameters (used when the
// allocator is evo).
func (e *evaluator) parse(spec string, rankings map[string]simcore.Ranking) (simcore.Scheduler, error) {
	return policies.Parse(spec, simcore.Params{Rankings: rankings, Sections: map[string]any{"evo": e.evo}})
}

// task is one simulation: a scheduler on one instance, stopped early once
// a lower bound of its objective exceeds stopAbove (> 0; 0 = run to the
// end, see simcore.Options.StopAbove).
type task struct {
	sched     simcore.Scheduler
	inst      *simcore.Instance
	stopAbove float64
	// For order equivalence (training terms of formula candidates only):
	// the candidate's ranking and simplified tree, and the instance index.
	form    *FormulaRanking
	tree    *expr.Tree
	instIdx int32
	parents [2]uint64
	hash    uint64
}

// outcome is a task's result: the objective, or exceeded when the
// simulation stopped because its objective provably exceeds the task's
// stopAbove.
type outcome struct {
	objective float64
	exceeded  bool
	answered  bool            // by an order-equivalent trace, without simulating
	matched   *viewTrace      // that trace (until the store has it)
	trace     *viewTrace      // recorded by this task's simulation (until the store has it)
	outgrew   int             // the recording stopped at this many views (0: it did not)
	metrics   simcore.Metrics // of a simulation run to the end
}

// simulate runs the tasks on the worker pool and returns their outcomes in
// task order. It stops early when ctx is cancelled (Simulate checks ctx) and
// returns the error of the lowest-indexed failed task.
func (e *evaluator) simulate(ctx context.Context, tasks []task, hook func()) ([]outcome, error) {
	out := make([]outcome, len(tasks))
	// With order equivalence the batch runs in waves of waveSize tasks (at
	// least 4 per worker), so that a task can use the traces of the waves
	// before it. Which terms a trace answers then depends on the worker
	// count, but no outcome does.
	wave := len(tasks)
	if e.traces != nil {
		wave = max(waveSize, 4*e.workers)
	}
	for lo := 0; lo < len(tasks); lo += wave {
		hi := min(lo+wave, len(tasks))
		if err := e.simulateWave(ctx, tasks[lo:hi], out[lo:hi], hook); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// waveSize is the number of tasks per wave of a batch with order
// equivalence: large enough that the workers rarely wait for the wave's
// last task, small enough that later waves find the earlier ones' traces.
const waveSize = 64

// simulateWave runs one wave of tasks, writing their outcomes to out.
func (e *evaluator) simulateWave(ctx context.Context, tasks []task, out []outcome, hook func()) error {
	// Order equivalence (equivalence.go): the traces each task tries, taken
	// before the wave so that no task depends on another one of the same
	// wave, and the tasks that record a trace — in task order, while
	// twice the wave's estimated traces fit in half the store's budget (all
	// of a wave's traces are alive until it ends; a recording stops at
	// twice its estimate).
	cands := make([][]*viewTrace, len(tasks))
	hints := make([]int, len(tasks))
	allot := make([]int, len(tasks)) // bytes a task's recording may take (0: no recording)
	if e.traces != nil {
		room := e.traces.budget / 2
		for i, t := range tasks {
			if t.form != nil && e.traces.covers(t.tree) {
				cands[i] = e.traces.candidates(t.instIdx, t.parents)
				hints[i] = e.traces.hint[t.instIdx]
				// Twice the expected size: a recording that outgrows it
				// stops (newRecording), so the wave never holds more than
				// half the budget in recordings.
				if a := 2 * e.traces.estimate(t.instIdx); a <= room {
					allot[i] = a
					room -= a
				}
			}
		}
	}
	err := parallel.For(ctx, len(tasks), e.workers, func(i int) error {
		if hook != nil {
			hook()
		}
		t := tasks[i]
		for _, c := range cands[i] {
			if traceMatches(c, t.form.Prog, e.traces.terms) {
				out[i] = outcome{objective: c.objective, answered: true, matched: c}
				return nil
			}
		}
		sched := t.sched
		var rec *recording
		if allot[i] > 0 {
			rec = newRecording(e.traces.terms, len(t.inst.Clusters), hints[i]+hints[i]/4, allot[i])
			s, err := e.candidate(viewRecorder{f: *t.form, terms: e.traces.terms, unit: unitOf(t.form.Seconds), rec: rec})
			if err != nil {
				return err
			}
			sched = s
		}
		opts := e.opts
		opts.StopAbove = t.stopAbove
		res, err := simcore.Simulate(ctx, t.inst, sched, opts)
		var be *simcore.BoundExceeded
		if errors.As(err, &be) && t.stopAbove > 0 {
			out[i] = outcome{exceeded: true}
			return nil
		}
		if err != nil {
			return fmt.Errorf("simulate %s on instance %q: %w", t.sched.Name(), t.inst.Name, err)
		}
		out[i] = outcome{objective: res.Metrics.Objective, metrics: res.Metrics}
		if rec != nil {
			out[i].trace = rec.trace(res.Metrics.Objective, unitOf(t.form.Seconds))
			if rec.outgrew {
				out[i].outgrew = rec.maxRows
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if e.traces != nil {
		for i, o := range out {
			switch {
			case o.matched != nil:
				e.answered++
				e.traces.used(tasks[i].instIdx, o.matched, tasks[i].hash)
			case o.trace != nil:
				e.traces.add(tasks[i].instIdx, o.trace, tasks[i].hash)
			case o.outgrew > 0:
				e.traces.outgrown(tasks[i].instIdx, o.outgrew)
			}
			// Only the store keeps traces: one it evicts can be freed
			// before the batch ends.
			out[i].matched, out[i].trace = nil, nil
		}
	}
	return nil
}

// unitOf is the time unit of d, q and the other time terminals, in
// seconds.
func unitOf(seconds bool) float64 {
	if seconds {
		return 1
	}
	return 3600
}

// objectives runs tasks that are never stopped early and returns their
// objectives.
func (e *evaluator) objectives(ctx context.Context, tasks []task, hook func()) ([]float64, error) {
	out, err := e.simulate(ctx, tasks, hook)
	if err != nil {
		return nil, err
	}
	obj := make([]float64, len(out))
	for i, o := range out {
		obj[i] = o.objective
	}
	return obj, nil
}

// baselines computes O_SRSF,i once for every training and validation
// instance.
func (e *evaluator) baselines(ctx context.Context) error {
	tasks := make([]task, 0, len(e.train)+len(e.val))
	for i := range e.train {
		tasks = append(tasks, task{sched: e.srsf, inst: &e.train[i]})
	}
	for i := range e.val {
		tasks = append(tasks, task{sched: e.srsf, inst: &e.val[i]})
	}
	obj, err := e.objectives(ctx, tasks, nil)
	if err != nil {
		return fmt.Errorf("SRSF baseline: %w", err)
	}
	e.baseTrain, e.baseVal = obj[:len(e.train)], obj[len(e.train):]
	return nil
}

// normalise is O_c,i / O_SRSF,i (Eqs. 14–15). An instance on which SRSF
// scores exactly 0 (possible with weights such as 1,0,0 when nobody queues)
// cannot be divided by; there the term is 1 when the candidate also scores
// 0 and 1 + O_c,i otherwise, so it stays finite, equals SRSF's 1 on a tie
// and grows with the candidate's objective.
func normalise(obj, base float64) float64 {
	if base == 0 {
		if obj == 0 {
			return 1
		}
		return 1 + obj
	}
	return obj / base
}

// scored is a candidate with its fitness on one generation's subset.
type scored struct {
	tree    *expr.Tree // the ranking tree f
	routing *expr.Tree // the routing tree R (gp.learn: [routing, ranking]), else nil
	hash    uint64     // individualHash(routing, tree)
	parents [2]uint64  // hashes of the parents an offspring was bred from (0: none)
	fitness float64
	pheno   uint64    // behaviour on the sampled decisions (gp.dedup: behaviour), else 0
	objs    []float64 // objective vector (gp.selection: nsga2), else nil
	// cases are the terms O_i/O_SRSF,i of the last fitness (weighted by
	// gp.fitness, termWeights), in subset order (their float sum in that
	// order is fitness); nil when pruned.
	// Parent selection may read them (gp.parent_selection: lexicase).
	cases []float64
}

// batchStats counts the terms of one fitness batch: evals terms seen for
// the first time in the run, hits terms seen before (cached, bounded by an
// earlier early-stopped simulation, or earlier in the same batch). evals +
// hits = candidates × |subset|, and both are the same with and without
// early stopping (a term bounded earlier counts as a hit even when it is
// simulated again). sims counts the simulations actually run and pruned the
// candidates proved unable to survive (their fitness is +Inf).
type batchStats struct {
	evals, hits  int
	sims, pruned int
	matched      int // terms answered by an order-equivalent trace instead of a simulation
}

func (a batchStats) add(b batchStats) batchStats {
	return batchStats{a.evals + b.evals, a.hits + b.hits, a.sims + b.sims, a.pruned + b.pruned, a.matched + b.matched}
}

// termWeights gives, for each position of subset, the weight w and shift
// z of its term v = O_c,i / O_SRSF,i (normalise) in the fitness
// Σ_c (v_c − z_c)·w_c, summed in subset order.
//
// gp.fitness mean (the default): w = 1, z = 0, so the fitness is Σ v
// exactly (v − 0 and v·1 are exact in floating point).
//
// gp.fitness pooled: the fitness is n·Σ_i O_c,i / S, S = Σ_i O_SRSF,i over
// the subset's n instances — the ratio of means, on the mean's scale (SRSF
// scores n). Since O_c,i = v·O_SRSF,i, w = n·O_SRSF,i / S and z = 0; on an
// instance where SRSF scores 0, normalise gives v = 1 + O_c,i (or 1 when
// O_c,i = 0), so z = 1 and w = n / S recover n·O_c,i / S. When S = 0 (SRSF
// scores 0 on every instance of the subset) there is nothing to pool by
// and the weights are the mean's.
//
// Either way each term's contribution is nondecreasing in v, with w ≥ 0,
// so a lower bound of v gives a lower bound of the contribution and the
// early stop's proofs (fitness) carry over.
func (e *evaluator) termWeights(subset []int) (w, z []float64) {
	w, z = make([]float64, len(subset)), make([]float64, len(subset))
	for c := range subset {
		w[c] = 1
	}
	if !e.pooled {
		return w, z
	}
	sum := 0.0
	for _, i := range subset {
		sum += e.baseTrain[i]
	}
	if sum == 0 {
		return w, z
	}
	n := float64(len(subset))
	for c, i := range subset {
		if base := e.baseTrain[i]; base == 0 {
			w[c], z[c] = n/sum, 1
		} else {
			w[c] = n * base / sum
		}
	}
	return w, z
}

// stopMargin is the relative margin of the early-stop thresholds: a task
// stops only when its term exceeds what would bring the fitness to
// threshold·(1 + stopMargin), so the floating-point sum of the terms is
// surely above threshold.
const stopMargin = 1e-9

// fitness sets the fitness of every candidate to Σ_{i ∈ subset} O_c,i /
// O_SRSF,i, summing in subset order (gp.fitness: pooled weighs each term,
// termWeights; below, "term" is then its weighted contribution and a
// bound of v is turned into one of the contribution the same way). Terms are looked up in the cache by
// (hash of the simplified tree, instance); the missing ones are simulated
// once each, with the simplified tree compiled into the ranking (Simplify
// is exact, so any tree with that hash gives the same simulation).
//
// Early stop: with a finite threshold T, a candidate whose fitness is
// proved to exceed T gets fitness +Inf instead of its exact value (the
// caller guarantees that such a candidate cannot survive). The missing
// terms are then simulated in waves: each wave simulates, for every
// candidate not yet decided, its first missing term in subset order, so
// later terms see the exact values of earlier ones. For a candidate whose
// known terms — exact ones, and strict lower bounds left by early-stopped
// simulations — sum to K, term i is simulated with simcore's StopAbove set
// to (T·(1+stopMargin) − K_¬i) · O_SRSF,i, K_¬i being K without term i's
// own bound; every unknown term is ≥ 0, so if the simulation stops, the
// exact fitness exceeds T·(1+stopMargin). The stopped term is stored as a
// bound (T·(1+stopMargin) − K_¬i < term), never as an exact value. A
// candidate is pruned when the float sum, in subset order, of its exact
// terms and bounds exceeds T (addition is monotone, so its exact fitness
// would too); a candidate with a bound that does not prove it (a rounding
// corner) has its bounded terms simulated to the end. An instance whose
// SRSF objective is 0 is never stopped early (normalise is not a ratio
// there). With T = +Inf every missing term is simulated to the end in one
// wave and every fitness is exact.
func (e *evaluator) fitness(ctx context.Context, pop []scored, subset []int, threshold float64) (batchStats, error) {
	var st batchStats
	weight, shift := e.termWeights(subset)
	contrib := func(c int, v float64) float64 { return (v - shift[c]) * weight[c] }
	prune := !math.IsInf(threshold, 1) && !math.IsNaN(threshold)
	limit := threshold * (1 + stopMargin)
	// The counts do not depend on how the terms are computed.
	counted := map[cacheKey]bool{}
	for _, c := range pop {
		for _, i := range subset {
			k := cacheKey{c.hash, int32(i)}
			_, exact := e.cache[k]
			_, bounded := e.bounds[k]
			if exact || bounded || counted[k] {
				st.hits++
			} else {
				st.evals++
			}
			counted[k] = true
		}
	}
	type prog struct {
		sched simcore.Scheduler
		form  *FormulaRanking
		tree  *expr.Tree
	}
	progs := map[uint64]prog{}
	newTask := func(c scored, i int) (task, error) {
		p, ok := progs[c.hash]
		if !ok {
			tree := expr.Simplify(c.tree)
			form := NewFormulaRanking(tree, e.seconds)
			s, err := e.individualScheduler(simplifyRouting(c.routing), form)
			if err != nil {
				return task{}, err
			}
			p = prog{s, &form, tree}
			progs[c.hash] = p
		}
		return task{sched: p.sched, inst: &e.train[i], form: p.form, tree: p.tree, instIdx: int32(i), parents: c.parents, hash: c.hash}, nil
	}
	// known is the float sum, in subset order, of a candidate's exact terms
	// and bounds; exact says whether every term is known exactly.
	known := func(h uint64) (sum float64, exact bool) {
		exact = true
		for c, i := range subset {
			k := cacheKey{h, int32(i)}
			if v, ok := e.cache[k]; ok {
				sum += contrib(c, v)
			} else {
				sum += contrib(c, e.bounds[k])
				exact = false
			}
		}
		return sum, exact
	}
	attempted := map[cacheKey]bool{} // stopped early in this batch
	for {
		var tasks []task
		var keys []cacheKey
		var limits []float64
		planned := map[cacheKey]bool{}
		for _, c := range pop {
			sum, exact := known(c.hash)
			if exact || prune && sum > threshold {
				continue
			}
			for ci, i := range subset {
				k := cacheKey{c.hash, int32(i)}
				if _, ok := e.cache[k]; ok || attempted[k] {
					continue
				}
				if planned[k] {
					break // a candidate with the same hash has it in this wave
				}
				t, err := newTask(c, i)
				if err != nil {
					return st, err
				}
				// lim: the room left for this term's contribution, turned
				// into a bound of v (the mean's weight 1 leaves it as is).
				lim := 0.0
				if base := e.baseTrain[i]; prune && base > 0 {
					if lim = limit - (sum - contrib(ci, e.bounds[k])); lim > 0 {
						lim /= weight[ci]
						t.stopAbove = lim * base
					}
				}
				planned[k] = true
				tasks = append(tasks, t)
				keys = append(keys, k)
				limits = append(limits, lim)
				if prune {
					break // one term per candidate and wave
				}
			}
		}
		if len(tasks) == 0 {
			break
		}
		if err := e.run(ctx, tasks, keys, limits, &st, attempted); err != nil {
			return st, err
		}
	}
	// A rounding corner: bounds that do not prove the candidate worse than
	// T. Its bounded terms are simulated to the end.
	var tasks []task
	var keys []cacheKey
	planned := map[cacheKey]bool{}
	for _, c := range pop {
		if sum, exact := known(c.hash); exact || sum > threshold {
			continue
		}
		for _, i := range subset {
			k := cacheKey{c.hash, int32(i)}
			if _, ok := e.cache[k]; ok || planned[k] {
				continue
			}
			t, err := newTask(c, i)
			if err != nil {
				return st, err
			}
			planned[k] = true
			tasks = append(tasks, t)
			keys = append(keys, k)
		}
	}
	if err := e.run(ctx, tasks, keys, make([]float64, len(tasks)), &st, nil); err != nil {
		return st, err
	}
	// Every term a pruned candidate never simulated is recorded as the
	// bound 0 (terms are ≥ 0), so that it counts as seen later — as it
	// would after a full evaluation — and the counts stay the same.
	for _, c := range pop {
		for _, i := range subset {
			k := cacheKey{c.hash, int32(i)}
			if _, ok := e.cache[k]; ok {
				continue
			}
			if _, ok := e.bounds[k]; !ok {
				e.bounds[k] = 0
				e.log = append(e.log, cacheEntry{key: k, value: 0, bound: true})
			}
		}
	}
	for p := range pop {
		sum, exact := known(pop[p].hash)
		if !exact {
			pop[p].fitness, pop[p].cases = math.Inf(1), nil
			st.pruned++
			continue
		}
		pop[p].fitness = sum
		pop[p].cases = make([]float64, len(subset))
		for c, i := range subset {
			pop[p].cases[c] = contrib(c, e.cache[cacheKey{pop[p].hash, int32(i)}])
		}
	}
	return st, nil
}

// run simulates tasks and records their terms: exact values in the cache,
// or, for a task stopped early, the bound limits[j] < term.
func (e *evaluator) run(ctx context.Context, tasks []task, keys []cacheKey, limits []float64, st *batchStats, attempted map[cacheKey]bool) error {
	if len(tasks) == 0 {
		return nil
	}
	out, err := e.simulate(ctx, tasks, e.onSimulation)
	if err != nil {
		return err
	}
	for _, o := range out {
		if o.answered {
			st.matched++
		} else {
			st.sims++
		}
	}
	for j, k := range keys {
		if out[j].exceeded {
			attempted[k] = true
			if b, ok := e.bounds[k]; !ok || limits[j] > b {
				e.bounds[k] = limits[j]
				e.log = append(e.log, cacheEntry{key: k, value: limits[j], bound: true})
			}
			continue
		}
		v := normalise(out[j].objective, e.baseTrain[k.inst])
		e.cache[k] = v
		if e.onTerm != nil {
			e.onTerm(k, out[j].metrics)
		}
		delete(e.bounds, k)
		e.log = append(e.log, cacheEntry{key: k, value: v})
	}
	return nil
}

// restoreCache refills the cache from checkpointed entries, in order (an
// exact term replaces an earlier bound of it).
func (e *evaluator) restoreCache(entries []cacheEntry) {
	for _, c := range entries {
		if c.bound {
			if _, ok := e.cache[c.key]; !ok {
				e.bounds[c.key] = max(e.bounds[c.key], c.value)
			}
			continue
		}
		e.cache[c.key] = c.value
		delete(e.bounds, c.key)
	}
	e.log = entries
}

// validationTasks is one task per tree (in order) and validation instance
// (in the order of insts), each tree simplified first when simplify is set.
// With order equivalence on, the tasks carry what it needs, validation
// instance i being trace instance len(train) + i.
func (e *evaluator) validationTasks(inds []individual, insts []int, simplify bool) ([]task, error) {
	tasks := make([]task, 0, len(inds)*len(insts))
	for _, ind := range inds {
		t, routing := ind.ranking, ind.routing
		if simplify {
			t, routing = expr.Simplify(t), simplifyRouting(routing)
		}
		form := NewFormulaRanking(t, e.seconds)
		sched, err := e.individualScheduler(routing, form)
		if err != nil {
			return nil, err
		}
		for _, i := range insts {
			tk := task{sched: sched, inst: &e.val[i]}
			if e.traces != nil && routing == nil {
				tk.form, tk.tree, tk.instIdx, tk.hash = &form, t, int32(len(e.train)+i), t.Hash()
			}
			tasks = append(tasks, tk)
		}
	}
	return tasks, nil
}

// validate returns, for each individual, the validation score: the mean
// over the validation instances of O_c,i / O_SRSF,i. Individuals with the
// same hash are simulated once.
func (e *evaluator) validate(ctx context.Context, inds []individual) ([]float64, error) {
	obj, err := e.validationObjectives(ctx, inds)
	if err != nil {
		return nil, err
	}
	out := make([]float64, len(inds))
	for j := range inds {
		out[j] = pickScore("mean", obj[j], e.baseVal)
	}
	return out, nil
}

// validationObjectives returns, for each individual, its objective O_c,i
// on every validation instance, in instance order. Individuals with the
// same hash are simulated once (and share their slice).
func (e *evaluator) validationObjectives(ctx context.Context, inds []individual) ([][]float64, error) {
	if len(e.val) == 0 {
		return nil, errors.New("no validation instances")
	}
	index := map[uint64]int{}
	var uniq []individual
	for _, t := range inds {
		if _, ok := index[t.hash()]; !ok {
			index[t.hash()] = len(uniq)
			uniq = append(uniq, t)
		}
	}
	all := make([]int, len(e.val))
	for i := range all {
		all[i] = i
	}
	tasks, err := e.validationTasks(uniq, all, true)
	if err != nil {
		return nil, err
	}
	obj, err := e.objectives(ctx, tasks, nil)
	if err != nil {
		return nil, fmt.Errorf("validation: %w", err)
	}
	out := make([][]float64, len(inds))
	for j, t := range inds {
		u := index[t.hash()]
		out[j] = obj[u*len(e.val) : (u+1)*len(e.val)]
	}
	return out, nil
}

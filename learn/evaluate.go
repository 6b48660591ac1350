package learn

import (
	"context"
	"errors"
	"fmt"
	"runtime"

	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/internal/parallel"
	"github.com/evogp/evogp/simcore"
)

// cacheKey identifies one fitness term: a candidate (by the canonical hash
// of its simplified tree) on one training instance (by index).
type cacheKey struct {
	hash uint64
	inst int32
}

// cacheEntry is one cached term, in the order it was computed.
type cacheEntry struct {
	key   cacheKey
	value float64
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
	alloc, place string // the candidate scheduler is alloc+formula+place
	cache        map[cacheKey]float64
	log          []cacheEntry // every entry in insertion order (checkpointed)
	onSimulation func()       // test hook: called before each candidate simulation
}

func newEvaluator(train, val []simcore.Instance, opts simcore.Options, seconds bool, workers int, alloc, place string) (*evaluator, error) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	e := &evaluator{
		train: train, val: val, opts: opts, seconds: seconds, workers: workers,
		alloc: alloc, place: place, cache: map[cacheKey]float64{},
	}
	srsf, err := simcore.ParseScheduler(alloc+"+srsf+"+place, nil)
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
// built by simcore.ParseScheduler.
func (e *evaluator) candidate(r simcore.Ranking) (simcore.Scheduler, error) {
	return simcore.ParseScheduler(candidateSpec(e.alloc, e.place), map[string]simcore.Ranking{"formula": r})
}

// task is one simulation: a scheduler on one instance.
type task struct {
	sched simcore.Scheduler
	inst  *simcore.Instance
}

// simulate runs the tasks on the worker pool and returns their objectives in
// task order. It stops early when ctx is cancelled (Simulate checks ctx) and
// returns the error of the lowest-indexed failed task.
func (e *evaluator) simulate(ctx context.Context, tasks []task, hook func()) ([]float64, error) {
	out := make([]float64, len(tasks))
	err := parallel.For(ctx, len(tasks), e.workers, func(i int) error {
		if hook != nil {
			hook()
		}
		res, err := simcore.Simulate(ctx, tasks[i].inst, tasks[i].sched, e.opts)
		if err != nil {
			return fmt.Errorf("simulate %s on instance %q: %w", tasks[i].sched.Name(), tasks[i].inst.Name, err)
		}
		out[i] = res.Metrics.Objective
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// baselines computes O_SRSF,i once for every training and validation
// instance.
func (e *evaluator) baselines(ctx context.Context) error {
	tasks := make([]task, 0, len(e.train)+len(e.val))
	for i := range e.train {
		tasks = append(tasks, task{e.srsf, &e.train[i]})
	}
	for i := range e.val {
		tasks = append(tasks, task{e.srsf, &e.val[i]})
	}
	obj, err := e.simulate(ctx, tasks, nil)
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
	tree    *expr.Tree
	hash    uint64
	fitness float64
	pheno   uint64 // behaviour on the sampled decisions (gp.dedup: behaviour), else 0
}

// batchStats counts the terms of one fitness batch: evals simulations run,
// hits terms answered by the cache (or by an identical term earlier in the
// same batch). evals + hits = candidates × |subset|.
type batchStats struct {
	evals, hits int
}

// fitness sets the fitness of every candidate to Σ_{i ∈ subset} O_c,i /
// O_SRSF,i, summing in subset order. Terms are looked up in the cache by
// (hash of the simplified tree, instance); the missing ones are simulated
// once each, with the simplified tree compiled into the ranking (Simplify
// is exact, so any tree with that hash gives the same simulation).
func (e *evaluator) fitness(ctx context.Context, pop []scored, subset []int) (batchStats, error) {
	var st batchStats
	var tasks []task
	var keys []cacheKey
	pending := map[cacheKey]int{}
	progs := map[uint64]simcore.Scheduler{}
	for _, c := range pop {
		for _, i := range subset {
			k := cacheKey{c.hash, int32(i)}
			if _, ok := e.cache[k]; ok {
				st.hits++
				continue
			}
			if _, ok := pending[k]; ok {
				st.hits++
				continue
			}
			sched, ok := progs[c.hash]
			if !ok {
				var err error
				if sched, err = e.candidate(NewFormulaRanking(expr.Simplify(c.tree), e.seconds)); err != nil {
					return st, err
				}
				progs[c.hash] = sched
			}
			pending[k] = len(tasks)
			tasks = append(tasks, task{sched, &e.train[i]})
			keys = append(keys, k)
		}
	}
	st.evals = len(tasks)
	obj, err := e.simulate(ctx, tasks, e.onSimulation)
	if err != nil {
		return st, err
	}
	for j, k := range keys {
		v := normalise(obj[j], e.baseTrain[k.inst])
		e.cache[k] = v
		e.log = append(e.log, cacheEntry{k, v})
	}
	for p := range pop {
		sum := 0.0
		for _, i := range subset {
			sum += e.cache[cacheKey{pop[p].hash, int32(i)}]
		}
		pop[p].fitness = sum
	}
	return st, nil
}

// restoreCache refills the cache from checkpointed entries.
func (e *evaluator) restoreCache(entries []cacheEntry) {
	for _, c := range entries {
		e.cache[c.key] = c.value
	}
	e.log = entries
}

// validate returns, for each tree, the validation score: the mean over the
// validation instances of O_c,i / O_SRSF,i. Trees with the same hash are
// simulated once.
func (e *evaluator) validate(ctx context.Context, trees []*expr.Tree) ([]float64, error) {
	if len(e.val) == 0 {
		return nil, errors.New("no validation instances")
	}
	index := map[uint64]int{}
	var uniq []*expr.Tree
	for _, t := range trees {
		if _, ok := index[t.Hash()]; !ok {
			index[t.Hash()] = len(uniq)
			uniq = append(uniq, t)
		}
	}
	tasks := make([]task, 0, len(uniq)*len(e.val))
	for _, t := range uniq {
		sched, err := e.candidate(NewFormulaRanking(expr.Simplify(t), e.seconds))
		if err != nil {
			return nil, err
		}
		for i := range e.val {
			tasks = append(tasks, task{sched, &e.val[i]})
		}
	}
	obj, err := e.simulate(ctx, tasks, nil)
	if err != nil {
		return nil, fmt.Errorf("validation: %w", err)
	}
	score := make([]float64, len(uniq))
	for u := range uniq {
		sum := 0.0
		for i := range e.val {
			sum += normalise(obj[u*len(e.val)+i], e.baseVal[i])
		}
		score[u] = sum / float64(len(e.val))
	}
	out := make([]float64, len(trees))
	for j, t := range trees {
		out[j] = score[index[t.Hash()]]
	}
	return out, nil
}

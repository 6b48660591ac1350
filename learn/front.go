package learn

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/internal/parallel"
	"github.com/evogp/evogp/internal/pareto"
	"github.com/evogp/evogp/policies"
	"github.com/evogp/evogp/simcore"
)

// Multi-objective learning (gp.selection: nsga2, SPEC §17).
//
// Each simulated objective of a candidate on an instance is divided by
// SRSF's on the same instance (normalise, as Eq. 15 per component) and the
// terms are averaged over the training subset (the sum of Eq. 14 divided
// by α, which changes no dominance and no crowding distance); with
// gp.fitness: pooled each objective is instead the ratio of the raw sums,
// Σ O_c,i / Σ O_SRSF,i (front_pooled.go). size is the number of nodes of
// the simplified tree, not normalised. The scalar
// fitness of the config's objective is still computed from the same
// simulations (the generation rows, the hall of fame and the convergence
// plot read it), but selection only reads the objective vectors.
//
// The archive holds the candidates that no other candidate dominates on
// the same instances. Each generation every entry is re-scored on that
// generation's training subset — its terms come from the component cache,
// the missing ones are simulated (front_archive.go) — and the archive
// becomes the non-dominated set of those entries and the generation's
// members, all vectors over the same α instances. (Comparing each entry's
// vector of the generation it was last evaluated in with vectors of
// another subset kept members that are dominated on the same data.) An
// entry that leaves the archive goes to a pool of retired entries (the
// most recent gp.population; front_archive.go). Every individual of rank
// 0 among a generation's members is kept too (the most recent
// 2 × gp.population), and so are the final population's first two fronts
// (front_history.go). At the end the archive, the pool, the rank-0
// history and those fronts are scored on the validation set, each
// individual once; their non-dominated members,
// without exact duplicates of an objective vector (the smaller tree, then
// the lower hash, stays), sorted by the first objective (then the others),
// are the front. The config's member minimises the weighted sum of its
// validation objectives with weights (ω, 1 − ω) for two objectives
// (Eq. 16's ω = objective.omega) or objective.weights for three (Eq. 5).
//
// Hypervolume is exact (internal/pareto), in the normalised objectives,
// with the reference point 1.1 × the worst value per objective among the
// named baselines and SRSF (which scores 1) on the same instances; for
// size, 1.1 × the largest tree gp.max_depth allows (2^max_depth − 1
// nodes). A generation's hypervolume is that of its population's
// non-dominated members on the generation's training subset.
//
// Early stop (gp.early_stop) is exact on the dominance test: an offspring
// stops being simulated only once its partial objectives prove that
// gp.population parents dominate it (front_earlystop.go). Order
// equivalence is off under nsga2.
type frontState struct {
	names   []string  // gp.objectives
	weights []float64 // the config's ω as weights over names
	maxSize float64   // nodes of the largest tree gp.max_depth allows
	// comp holds the normalised simulated components of a term (the size
	// slot is unused). It is checkpointed with the archive, so a resumed
	// run simulates exactly what an uninterrupted one does; a term the
	// scalar cache holds but comp does not (a checkpoint of an older
	// layout) is simulated again, to the same values.
	comp      map[cacheKey][]float64
	sizes     map[uint64]int
	srsfTrain []simcore.Metrics
	srsfVal   []simcore.Metrics
	baseNames []string
	baseTrain [][][]float64 // [baseline][training instance] normalised components
	baseVal   [][]float64   // [baseline] mean normalised validation objectives
	archive   []ArchiveEntry
	// retired is the pool of entries that left the archive, the most
	// recent retiredCap of them (front_archive.go).
	retired    []ArchiveEntry
	retiredCap int
	// rank0 is every individual ever of rank 0 among a generation's
	// evaluated members, the most recent rank0Cap (front_history.go).
	rank0    []ArchiveEntry
	rank0Cap int
	hv       []float64 // per generation, training subset
	// pooled: gp.fitness pooled, objectives are ratios of means
	// (objectiveVector).
	pooled bool
}

// ArchiveEntry is a member of the archive: its trees (Routing only with
// gp.learn: [routing, ranking]) and its objectives — means over the
// training subset of the last generation done, the same instances for
// every entry; size as is. Generation is the last generation in which it
// was a member of the population or an offspring.
type ArchiveEntry struct {
	Tree       *expr.Tree  `json:"tree"`
	Routing    RoutingTree `json:"routing,omitzero"`
	Objectives []float64   `json:"objectives"`
	Generation int         `json:"generation"`
	hash       uint64
}

// frontCheckpoint is the multi-objective part of a checkpoint.
type frontCheckpoint struct {
	Archive     []ArchiveEntry `json:"archive"`
	Retired     []ArchiveEntry `json:"retired,omitempty"`
	RankZero    []ArchiveEntry `json:"rank_zero,omitempty"`
	Hypervolume []float64      `json:"hypervolume"`
	// Components is the per-term component cache (frontState.comp),
	// sorted by tree hash, then instance.
	Components []componentEntry `json:"components,omitempty"`
}

// componentEntry is one term of the component cache: the normalised
// components of tree Hash on training instance Instance.
type componentEntry struct {
	Hash     uint64    `json:"hash"`
	Instance int32     `json:"instance"`
	Values   []float64 `json:"values"`
}

// components lists the component cache in (hash, instance) order, so the
// checkpoint bytes do not depend on map order.
func (f *frontState) components() []componentEntry {
	out := make([]componentEntry, 0, len(f.comp))
	for k, v := range f.comp {
		out = append(out, componentEntry{Hash: k.hash, Instance: k.inst, Values: v})
	}
	slices.SortFunc(out, func(a, b componentEntry) int {
		return cmp.Or(cmp.Compare(a.Hash, b.Hash), cmp.Compare(a.Instance, b.Instance))
	})
	return out
}

// componentValue is the raw value of a simulated objective (util is
// minimised as 1 − util).
func componentValue(name string, m simcore.Metrics) float64 {
	switch name {
	case "cq_avg":
		return m.CQAvg
	case "cq_max":
		return m.CQMax
	case "util":
		return 1 - m.Util
	case "avg_jct":
		return m.AvgJCT
	case "max_qt":
		return m.MaxQT
	case "tardiness":
		return m.TotalTardiness
	}
	panic("learn: unknown front objective " + name) // configs.Validate rejects it first
}

// frontWeights are the config's weights over the objectives: (ω, 1 − ω)
// for two, objective.weights for three.
func frontWeights(cfg configs.Config) []float64 {
	if len(cfg.GP.Objectives) == 2 {
		return []float64{cfg.Objective.Omega, 1 - cfg.Objective.Omega}
	}
	return cfg.Objective.Weights[:]
}

// newFrontState simulates what multi-objective selection needs beyond the
// scalar baselines: SRSF's metrics and the named baselines' on every
// training and validation instance.
func newFrontState(ctx context.Context, cfg configs.Config, ev *evaluator) (*frontState, error) {
	f := &frontState{
		names: cfg.GP.Objectives, weights: frontWeights(cfg),
		maxSize: math.Exp2(float64(cfg.GP.MaxDepth)) - 1,
		comp:    map[cacheKey][]float64{}, sizes: map[uint64]int{},
		retiredCap: cfg.GP.Population, rank0Cap: rankZeroCapFactor * cfg.GP.Population,
		pooled: cfg.GP.Fitness == "pooled",
	}
	scheds := []simcore.Scheduler{ev.srsf}
	for _, name := range policies.Baselines() {
		s, err := policies.ParseWith(name, nil)
		if err != nil {
			return nil, err
		}
		scheds = append(scheds, s)
		f.baseNames = append(f.baseNames, name)
	}
	train, err := simulateMetrics(ctx, scheds, ev.train, ev.opts, ev.workers)
	if err != nil {
		return nil, fmt.Errorf("front baselines: %w", err)
	}
	val, err := simulateMetrics(ctx, scheds, ev.val, ev.opts, ev.workers)
	if err != nil {
		return nil, fmt.Errorf("front baselines: %w", err)
	}
	f.srsfTrain, f.srsfVal = train[0], val[0]
	for b := range f.baseNames {
		terms := make([][]float64, len(ev.train))
		for i := range ev.train {
			terms[i] = f.terms(train[b+1][i], f.srsfTrain[i])
		}
		f.baseTrain = append(f.baseTrain, terms)
		f.baseVal = append(f.baseVal, f.meanVector(val[b+1], f.srsfVal, 0))
	}
	ev.onTerm = f.record
	return f, nil
}

// simulateMetrics runs every scheduler on every instance.
func simulateMetrics(ctx context.Context, scheds []simcore.Scheduler, insts []simcore.Instance, opts simcore.Options, workers int) ([][]simcore.Metrics, error) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	n := len(insts)
	flat := make([]simcore.Metrics, len(scheds)*n)
	err := parallel.For(ctx, len(flat), workers, func(k int) error {
		s, i := k/n, k%n
		res, err := simcore.Simulate(ctx, &insts[i], scheds[s], opts)
		if err != nil {
			return fmt.Errorf("simulate %s on instance %q: %w", scheds[s].Name(), insts[i].Name, err)
		}
		flat[k] = res.Metrics
		return nil
	})
	if err != nil {
		return nil, err
	}
	out := make([][]simcore.Metrics, len(scheds))
	for s := range scheds {
		out[s] = flat[s*n : (s+1)*n]
	}
	return out, nil
}

// terms is the normalised component vector of metrics m against SRSF's
// (the size slot is 0).
func (f *frontState) terms(m, srsf simcore.Metrics) []float64 {
	v := make([]float64, len(f.names))
	for k, name := range f.names {
		if name != "size" {
			v[k] = normalise(componentValue(name, m), componentValue(name, srsf))
		}
	}
	return v
}

// meanVector is the objective vector (objectiveVector: the mean over
// instances of the normalised components, or their pooled ratio) of
// metrics ms against SRSF's, with size in its slot.
func (f *frontState) meanVector(ms, srsf []simcore.Metrics, size int) []float64 {
	terms := make([][]float64, len(ms))
	for i := range ms {
		terms[i] = f.terms(ms[i], srsf[i])
	}
	return f.objectiveVector(terms, srsf, srsf, size)
}

// record is the evaluator's hook for a simulated training term.
func (f *frontState) record(k cacheKey, m simcore.Metrics) {
	f.comp[k] = f.terms(m, f.srsfTrain[k.inst])
}

// size is the number of nodes of an individual's simplified trees (the
// routing tree's too with gp.learn: [routing, ranking]); h is its hash.
func (f *frontState) size(routing, t *expr.Tree, h uint64) int {
	s, ok := f.sizes[h]
	if !ok {
		s = expr.Simplify(t).Size()
		if routing != nil {
			s += expr.Simplify(routing).Size()
		}
		f.sizes[h] = s
	}
	return s
}

// evaluate sets the scalar fitness and the objective vector of every
// member of all (np parents, then offspring) on subset. With earlyStop
// (gp.early_stop without behavioural dedup) offspring proved dominated by
// n parents are not simulated to the end (front_earlystop.go); otherwise
// every term is simulated to the end. Counts are those of the scalar
// evaluator either way.
func (f *frontState) evaluate(ctx context.Context, ev *evaluator, all []scored, np, n int, subset []int, earlyStop bool) (batchStats, error) {
	st, err := f.evaluateMembers(ctx, ev, all, np, n, subset, earlyStop)
	if err != nil {
		return st, err
	}
	ast, err := f.rescoreArchive(ctx, ev, all, subset)
	return st.add(ast), err
}

// evaluateMembers is evaluate without the archive.
func (f *frontState) evaluateMembers(ctx context.Context, ev *evaluator, all []scored, np, n int, subset []int, earlyStop bool) (batchStats, error) {
	if earlyStop && np >= n && np < len(all) && len(subset) > 1 {
		return f.evaluateEarlyStop(ctx, ev, all, np, n, subset)
	}
	st, err := ev.fitness(ctx, all, subset, math.Inf(1))
	if err != nil {
		return st, err
	}
	if err := f.fill(ctx, ev, all, subset); err != nil {
		return st, err
	}
	for p := range all {
		all[p].objs = f.trainVector(all[p], subset)
	}
	return st, nil
}

// fill simulates the terms of all on subset that the scalar cache
// answered but whose components are unknown (a checkpoint of an older
// layout), to the same values.
func (f *frontState) fill(ctx context.Context, ev *evaluator, all []scored, subset []int) error {
	var tasks []task
	var keys []cacheKey
	planned := map[cacheKey]bool{}
	for _, c := range all {
		for _, i := range subset {
			k := cacheKey{c.hash, int32(i)}
			if _, ok := f.comp[k]; ok || planned[k] {
				continue
			}
			tree := expr.Simplify(c.tree)
			s, err := ev.individualScheduler(simplifyRouting(c.routing), NewFormulaRanking(tree, ev.seconds))
			if err != nil {
				return err
			}
			planned[k] = true
			tasks = append(tasks, task{sched: s, inst: &ev.train[i]})
			keys = append(keys, k)
		}
	}
	if len(tasks) > 0 {
		out, err := ev.simulate(ctx, tasks, ev.onSimulation)
		if err != nil {
			return err
		}
		for j, k := range keys {
			f.record(k, out[j].metrics)
		}
	}
	return nil
}

// trainVector is a member's objective vector on subset (its terms known).
func (f *frontState) trainVector(c scored, subset []int) []float64 {
	// ascending instance order, as the fitness sums
	return f.subsetVector(func(i int) []float64 { return f.comp[cacheKey{c.hash, int32(i)}] },
		subset, len(subset), f.size(c.routing, c.tree, c.hash))
}

// reference is the hypervolume reference point on the training subset:
// 1.1 × the worst of SRSF (1) and the named baselines per objective.
func (f *frontState) reference(subset []int) []float64 {
	ref := make([]float64, len(f.names))
	for k, name := range f.names {
		if name == "size" {
			ref[k] = 1.1 * f.maxSize
			continue
		}
		worst := 1.0
		for b := range f.baseTrain {
			v := f.subsetVector(func(i int) []float64 { return f.baseTrain[b][i] }, subset, len(subset), 0)
			worst = max(worst, v[k])
		}
		ref[k] = 1.1 * worst
	}
	return ref
}

// validationReference is the reference point on the validation set.
func (f *frontState) validationReference() []float64 {
	ref := make([]float64, len(f.names))
	for k, name := range f.names {
		if name == "size" {
			ref[k] = 1.1 * f.maxSize
			continue
		}
		worst := 1.0
		for _, b := range f.baseVal {
			worst = max(worst, b[k])
		}
		ref[k] = 1.1 * worst
	}
	return ref
}

// generation updates the archive with the members evaluated in generation
// g (all, parents and offspring) and records the hypervolume of the
// survivors' non-dominated members on subset.
func (f *frontState) generation(g int, all, pop []scored, subset []int) error {
	old := f.archive
	f.archive = updateArchive(f.archive, all, g)
	f.retire(old)
	f.recordRankZero(all, g)
	var pts [][]float64
	for _, i := range pareto.NonDominated(vectors(pop)) {
		pts = append(pts, pop[i].objs)
	}
	hv, err := pareto.Hypervolume(pts, f.reference(subset))
	if err != nil {
		return fmt.Errorf("generation %d: %w", g, err)
	}
	f.hv = append(f.hv[:g], hv)
	return nil
}

func vectors(pop []scored) [][]float64 {
	pts := make([][]float64, len(pop))
	for i, c := range pop {
		pts[i] = c.objs
	}
	return pts
}

// updateArchive offers a generation's evaluated members to the archive:
// the result is the non-dominated set of the old entries whose tree was
// not evaluated again and the members (first of each hash), sorted by
// (objectives, hash). The old entries' objectives must be on the members'
// instances (rescoreArchive), or the comparison means nothing.
func updateArchive(archive []ArchiveEntry, all []scored, g int) []ArchiveEntry {
	now := map[uint64]bool{}
	var cand []ArchiveEntry
	for _, c := range all {
		if !now[c.hash] {
			now[c.hash] = true
			cand = append(cand, ArchiveEntry{Tree: c.tree, Routing: RoutingTree{Tree: c.routing}, Objectives: c.objs, Generation: g, hash: c.hash})
		}
	}
	for _, a := range archive {
		if !now[a.hash] {
			cand = append(cand, a)
		}
	}
	pts := make([][]float64, len(cand))
	for i, a := range cand {
		pts[i] = a.Objectives
	}
	var out []ArchiveEntry
	for _, i := range pareto.NonDominated(pts) {
		out = append(out, cand[i])
	}
	slices.SortStableFunc(out, func(a, b ArchiveEntry) int {
		return cmp.Or(slices.Compare(a.Objectives, b.Objectives), cmp.Compare(a.hash, b.hash))
	})
	return out
}

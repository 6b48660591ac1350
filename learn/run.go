package learn

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/internal/atomicio"
	"github.com/evogp/evogp/internal/progress"
	"github.com/evogp/evogp/runfile"
	"github.com/evogp/evogp/simcore"
	"github.com/evogp/evogp/simcore/evo"
)

// Settings is what a learning run needs.
type Settings struct {
	// Config is the resolved experiment config (GP, objective, simulator
	// options, seed). It is written to the run directory as config.yaml.
	Config configs.Config
	// Train and Validation are the instance sets D and V (see LoadData).
	Train, Validation []simcore.Instance
	// Out is the run directory Run creates. It must not exist, or be an
	// empty directory. Resume ignores it.
	Out string
	// Progress configures the progress report (bar on a terminal, slog
	// lines otherwise, nothing when Quiet).
	Progress progress.Options
	// Test is the held-out test split the chosen formula is finally scored
	// on (ScoreOnTest); nil means LoadTest(Config). With no test instances
	// (data.test = 0 and no data.test_dir) there is no test table.
	Test []simcore.Instance
	// OnGeneration, if set, is called after each generation has been
	// checkpointed (generation 0 is the evaluation of the initial
	// population). It must not keep the snapshot's slices.
	OnGeneration func(Snapshot)
	// ReduceTolerance > 0 (percent) also searches, after the exact
	// reduction, for a shorter approximation whose validation score is
	// within ReduceTolerance % of the evolved one's (reduce_approx.go);
	// it is reported as approximate and never replaces the exact one.
	ReduceTolerance float64

	// onSimulation is a test hook called before every candidate simulation.
	onSimulation func()
	// onBatch is a test hook called with each generation's fitness counts.
	onBatch func(batchStats)
	// noEquivalence turns off answering order-equivalent candidates from
	// traces (equivalence.go), for tests and timing; results are the same.
	noEquivalence bool
}

// Snapshot describes a finished generation.
type Snapshot struct {
	Row        GenerationRow
	Subset     []int    // D_sub: indices into Settings.Train, ascending
	Population []Member // after survival, best first
}

// Member is a population member and its fitness on the generation's subset.
type Member struct {
	Tree    *expr.Tree
	Routing *expr.Tree // gp.learn: [routing, ranking], else nil
	Fitness float64
}

// Result is the outcome of a finished run.
type Result struct {
	Dir        string
	Best       *expr.Tree // the chosen individual's ranking tree as evolved
	Simplified *expr.Tree // Simplify(Best), which computes exactly the same values
	// Routing is the chosen individual's routing tree as evolved and
	// RoutingSimplified its simplification (gp.learn: [routing, ranking];
	// nil otherwise).
	Routing, RoutingSimplified *expr.Tree
	Scope                      string  // the rule allocator's scope (with a routing tree)
	Validation                 float64 // mean normalised objective on V (SRSF = 1; lower is better)
	Generations                []GenerationRow
	HallOfFame                 []HallEntry // with validation scores
	Evaluations                int64       // simulations run over all generations
	CacheHits                  int64
	// ValidationBaselines are the named baselines' validation scores (same
	// scale as Validation); ValidationCurve the best individual's
	// validation score every gp.validate_every generations.
	ValidationBaselines []BaselineScore
	ValidationCurve     []CurvePoint
	// Test is the table of the chosen formula on the held-out test split
	// against every baseline (nil without test instances).
	Test *TestTable
	// Warnings say when the formula is constant on the simulator's inputs
	// or ranks exactly like a reference ranking on validation decisions.
	Warnings []string
	// Front is the front of formulas of gp.selection: nsga2 (nil with
	// scalar selection); Best is then its member for the config's ω.
	Front *Front
	// Reduced is the chosen individual reduced to the smallest trees
	// found with the same schedule on every training and validation
	// instance (reduce.go); the fields after it score it.
	Reduced     *Reduction
	reducedInfo // reduce_run.go
}

// CurvePoint is the validation score of the best individual of a
// generation.
type CurvePoint struct {
	Generation int     `json:"generation"`
	Score      float64 `json:"score"`
	Formula    string  `json:"formula"`
	hash       uint64
}

// InterruptedError is returned when the context is cancelled after at least
// one generation was checkpointed, or when writing the run directory fails
// (a full disk) after that: the run directory exists and holds the last good
// checkpoint, and Resume continues it. Err is the context's error or the
// write's.
type InterruptedError struct {
	Dir        string
	Generation int // last checkpointed generation
	Err        error
}

func (e *InterruptedError) Error() string {
	if !errors.Is(e.Err, context.Canceled) && !errors.Is(e.Err, context.DeadlineExceeded) {
		return fmt.Sprintf("writing the run failed after generation %d: %v; the last good checkpoint is kept in %s — fix the cause (for example free disk space), then resume with: evogp learn --resume %s",
			e.Generation, e.Err, e.Dir, e.Dir)
	}
	return fmt.Sprintf("interrupted after generation %d (%v); checkpoint saved in %s — resume with: evogp learn --resume %s",
		e.Generation, e.Err, e.Dir, e.Dir)
}

func (e *InterruptedError) Unwrap() error { return e.Err }

// RunConfig reads the resolved config of a run directory (config.yaml).
func RunConfig(dir string) (configs.Config, error) {
	if err := adoptInterrupted(dir); err != nil {
		return configs.Config{}, err
	}
	path := filepath.Join(dir, ConfigFile)
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return configs.Config{}, fmt.Errorf("run %s: no %s and no checkpoint there, nor an interrupted work directory .%s.tmp-* beside it (%w)", dir, ConfigFile, filepath.Base(dir), err)
	}
	c, err := configs.Load(path)
	if err != nil {
		return configs.Config{}, fmt.Errorf("run %s: %w", dir, err)
	}
	return c, nil
}

// Run learns a priority function (Algorithm 3) and writes the run directory
// s.Out. Everything is validated and the SRSF baselines are simulated before
// anything is created; the directory is then built under a temporary
// sibling name and renamed to s.Out when the run is complete, so a failed
// run leaves nothing. A cancelled run is different: once a generation has
// been checkpointed, cancellation renames the partial directory (config.yaml
// and checkpoint/) to s.Out and returns an *InterruptedError, so the work is
// not lost and Resume(s.Out) continues it.
func Run(ctx context.Context, s Settings) (*Result, error) {
	if err := CheckRunDir(s.Out); err != nil {
		return nil, err
	}
	r, err := prepare(ctx, s)
	if err != nil {
		return nil, err
	}
	work, cleanup, err := makeWorkDir(s.Out)
	if err != nil {
		return nil, err
	}
	r.dir = work
	res, err := r.start(ctx)
	if err == nil {
		err = r.finish(ctx, res)
	}
	if err != nil {
		err = r.keepOnWriteFailure(err)
		var intr *InterruptedError
		if errors.As(err, &intr) {
			if rerr := moveInto(work, s.Out); rerr != nil {
				return nil, fmt.Errorf("%w; moving the checkpoint into place failed, it stays in %s: %w", err, work, rerr)
			}
			releaseWorkDir(s.Out)
			intr.Dir = s.Out
			return nil, intr
		}
		cleanup()
		return nil, err
	}
	if err := moveInto(work, s.Out); err != nil {
		return nil, fmt.Errorf("learn: the run is complete but stays in %s: %w", work, err)
	}
	releaseWorkDir(s.Out)
	res.Dir = s.Out
	return res, nil
}

// Resume continues the run in dir from its checkpoint, in place. s.Config
// must be the run's config up to gp.workers and gp.generations, and
// s.Train/s.Validation its data, else it is an error naming the first key
// that differs and nothing is touched. The result is identical, byte for
// byte except for wall times, to that of an uninterrupted run.
//
// A larger gp.generations extends the run: a finished run (or an
// interrupted one) continues from its last checkpoint — the last
// generation's checkpoint is kept when a run finishes — to the new
// generation count, and its outputs equal those of a single run with that
// many generations (see extendRun). A finished run resumed with its own
// gp.generations is an error ("already complete"), and a smaller
// gp.generations than the generations already run is one too.
func Resume(ctx context.Context, dir string, s Settings) (*Result, error) {
	stored, err := RunConfig(dir) // adopts a run killed before it was moved into place
	if err != nil {
		return nil, fmt.Errorf("resume: %w", err)
	}
	if key, a, b, ok := configDiff(stored, s.Config, "gp.workers", "gp.early_stop", "gp.generations"); ok {
		return nil, fmt.Errorf("resume %s: the given config differs from the run's %s in %s (run: %s, given: %s); only gp.generations (to extend the run), gp.workers and gp.early_stop may change — resume with only --resume to use the run's config", dir, ConfigFile, key, a, b)
	}
	_, bestErr := os.Stat(filepath.Join(dir, BestFile))
	complete := bestErr == nil
	newGens := s.Config.GP.Generations
	if complete && newGens == stored.GP.Generations {
		return nil, fmt.Errorf("resume %s: the run is already complete (%s exists); to extend it, give a larger gp.generations (it has %d)", dir, BestFile, stored.GP.Generations)
	}
	storedHash, err := ConfigHash(stored)
	if err != nil {
		return nil, err
	}
	r, err := prepare(ctx, s)
	if err != nil {
		return nil, err
	}
	// The run's config with the given generation count: the only
	// difference configDiff lets through (besides gp.workers, which the
	// hash ignores).
	asStored := s.Config
	asStored.GP.Generations = stored.GP.Generations
	if h, err := ConfigHash(asStored); err != nil {
		return nil, err
	} else if h != storedHash {
		return nil, fmt.Errorf("resume %s: the given config differs from the run's %s (hash %.12s… vs %.12s…); resume with only --resume to use the run's config", dir, ConfigFile, h, storedHash)
	}
	ck, entries, err := openCheckpoint(dir)
	if err != nil {
		return nil, fmt.Errorf("resume %s: %w", dir, err)
	}
	if ck != nil {
		if ck.ConfigHash != storedHash && !isPreSelectionHash(stored, ck.ConfigHash) {
			return nil, fmt.Errorf("resume %s: the checkpoint belongs to another config (hash %.12s…, config.yaml has %.12s…)", dir, ck.ConfigHash, storedHash)
		}
		if ck.DataHash != r.dataHash {
			return nil, fmt.Errorf("resume %s: the training/validation instances differ from the ones the run started with", dir)
		}
		if newGens < ck.Generation {
			return nil, fmt.Errorf("resume %s: gp.generations = %d is less than the %d generations the run has already done", dir, newGens, ck.Generation)
		}
		if complete && ck.Generation != stored.GP.Generations {
			return nil, fmt.Errorf("resume %s: %s exists but the checkpoint is at generation %d of %d", dir, BestFile, ck.Generation, stored.GP.Generations)
		}
	}
	r.dir = dir
	if ck != nil {
		if err := r.restore(ck, entries); err != nil {
			return nil, fmt.Errorf("resume %s: %w", dir, err)
		}
	}
	if newGens != stored.GP.Generations {
		extended := stored
		extended.GP.Generations = newGens
		if err := extendRun(dir, extended); err != nil {
			return nil, fmt.Errorf("resume %s: %w", dir, err)
		}
		// The checkpoint now belongs to the rewritten config.yaml: when the
		// loop has no generation left to run (a run shortened to the
		// generation it was interrupted at) it writes no checkpoint, and
		// one still tagged with the old hash could never be resumed or
		// extended again.
		if ck != nil {
			if err := retagCheckpoint(dir, ck, r.configHash); err != nil {
				return nil, fmt.Errorf("resume %s: %w", dir, err)
			}
		}
	}
	res, err := r.loop(ctx)
	if err == nil {
		err = r.finish(ctx, res)
	}
	if err != nil {
		err = r.keepOnWriteFailure(err)
		var intr *InterruptedError
		if errors.As(err, &intr) {
			intr.Dir = dir
		}
		return nil, err
	}
	res.Dir = dir
	return res, nil
}

// extendRun turns the run directory dir into that of a run with cfg's
// (larger) gp.generations: it removes the finished run's outputs —
// best.json first, since its presence marks a complete run — and then
// rewrites config.yaml. The checkpoint stays as it is; the next checkpoint
// carries the new config's hash. A crash between the two steps leaves an
// incomplete run with the old generation count, which --resume finishes
// (or extends) as usual.
func extendRun(dir string, cfg configs.Config) error {
	for _, f := range []string{BestFile, GenerationsFile, HallFile, FormulaGoFile, FormulaTeXFile, PlotName + ".png", PlotName + ".svg", FrontFile, FrontPlotName + ".png", FrontPlotName + ".svg", HypervolumePlotName + ".png", HypervolumePlotName + ".svg"} {
		if err := os.Remove(filepath.Join(dir, f)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("extend: %w", err)
		}
	}
	b, err := cfg.Marshal()
	if err != nil {
		return fmt.Errorf("extend: %w", err)
	}
	return runfile.WriteConfig(dir, b)
}

// runner is the state of one run.
type runner struct {
	s      Settings
	cfg    configs.Config
	ev     *evaluator
	master *rand.Rand
	pcg    *rand.PCG
	gs     expr.GenSettings
	vary   variation
	terms  expr.Terminals // gp.terminals
	seeds  []*expr.Tree   // gp.seed_formulas
	// With gp.learn: [routing, ranking]: the routing terminal set, the
	// routing seeds (gp.seed_routing) and the routing generator settings.
	routingTerms expr.Terminals
	routingSeeds []*expr.Tree
	routingGen   expr.GenSettings
	decisions    []decision // the phenotype sample (gp.dedup: behaviour)
	phenos       map[uint64]uint64
	configHash   string
	dataHash     string
	dir          string
	curve        []CurvePoint // validation score of the best, every gp.validate_every generations
	flushed      int          // cache entries already in checkpoint/cache.bin
	saved        int          // generation of the last checkpoint written or restored; −1 if none
	selection    Selection    // gp.selection's method
	front        *frontState  // a method reading objective vectors (nsga2); nil: scalar
	sur          *surrogate   // gp.surrogate: knn (nil: off)
	subset       []int        // the generation's training subset D_sub (simEvaluator)
	// Loop is the generation loop with this run's operators; the
	// population, rows, hall of fame and last generation are its state.
	Loop
}

// prepare validates the settings and simulates the SRSF baselines.
func prepare(ctx context.Context, s Settings) (*runner, error) {
	cfg := s.Config
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("learn: config: %w", err)
	}
	if err := cfg.CheckMemory(); err != nil { // before the population is allocated
		return nil, fmt.Errorf("learn: %w", err)
	}
	gp := cfg.GP
	switch {
	case len(s.Train) == 0:
		return nil, errors.New("learn: the training set is empty")
	case gp.Subset > len(s.Train):
		return nil, fmt.Errorf("learn: gp.subset = %d is larger than the training set (%d instances)", gp.Subset, len(s.Train))
	case len(s.Validation) == 0:
		return nil, errors.New("learn: the validation set is empty (data.validation must be ≥ 1)")
	}
	for _, split := range []struct {
		name  string
		insts []simcore.Instance
	}{{"training", s.Train}, {"validation", s.Validation}} {
		for i := range split.insts {
			if err := split.insts[i].Validate(); err != nil {
				return nil, fmt.Errorf("learn: %s set: %w", split.name, err)
			}
		}
	}
	opts, err := SimOptions(cfg)
	if err != nil {
		return nil, fmt.Errorf("learn: %w", err)
	}
	terms, err := expr.ParseTerminals(gp.Terminals)
	if err != nil {
		return nil, fmt.Errorf("learn: gp.terminals: %w", err)
	}
	if bad := terms.Minus(SupportedTerminals()); bad != 0 {
		return nil, fmt.Errorf("learn: gp.terminals: the simulator cannot supply %s", bad)
	}
	var seeds []*expr.Tree
	for i, src := range gp.SeedFormulas {
		t, err := expr.Parse(src)
		if err != nil {
			return nil, fmt.Errorf("learn: gp.seed_formulas[%d] %s: %w", i, expr.Quote(src, err), err)
		}
		if err := CheckTerminals(t, terms); err != nil {
			return nil, fmt.Errorf("learn: gp.seed_formulas[%d]: %w", i, err)
		}
		if t.Depth() > gp.MaxDepth {
			return nil, fmt.Errorf("learn: gp.seed_formulas[%d] %q: depth %d exceeds gp.max_depth = %d", i, src, t.Depth(), gp.MaxDepth)
		}
		seeds = append(seeds, t)
	}
	if len(seeds) > gp.Population {
		return nil, fmt.Errorf("learn: gp.seed_formulas has %d formulas, more than gp.population = %d", len(seeds), gp.Population)
	}
	routing, err := prepareRouting(gp)
	if err != nil {
		return nil, fmt.Errorf("learn: %w", err)
	}
	ev, err := newEvaluator(s.Train, s.Validation, opts, gp.TimeUnit == "seconds", gp.Workers, gp.Allocator, gp.Placer, EVOParams(s.Config))
	if err != nil {
		return nil, fmt.Errorf("learn: %w", err)
	}
	if routing != nil {
		if err := ev.setRule(routing.scope); err != nil {
			return nil, fmt.Errorf("learn: %w", err)
		}
	}
	ev.onSimulation = s.onSimulation
	ev.pooled = gp.Fitness == "pooled"
	sel, err := newSelection(gp, Selections(), gp.Dedup == "behaviour")
	if err != nil {
		return nil, fmt.Errorf("learn: %w", err)
	}
	// Order equivalence answers a candidate from another's trace of
	// ranking decisions; with a routing tree the allocation differs too,
	// so it is off.
	if !s.noEquivalence && routing == nil && comparesKeysOnly(ev.srsf) && !sel.Objectives {
		ev.traces = newTraceStore(termSlots(gp.Terminals))
	}
	hash, err := ConfigHash(cfg)
	if err != nil {
		return nil, err
	}
	master, pcg := masterRand(cfg.GPSeed())
	r := &runner{
		s: s, cfg: cfg, ev: ev, master: master, pcg: pcg,
		gs: expr.GenSettings{MinDepth: gp.InitDepth[0], MaxDepth: gp.InitDepth[1], Constants: gp.Constants, Terminals: terms},
		vary: variation{
			tournament: gp.Tournament, crossover: gp.Crossover, mutation: gp.Mutation,
			vary: expr.VarSettings{MaxDepth: gp.MaxDepth, InternalProb: gp.InternalProb, Constants: gp.Constants, Terminals: terms},
		},
		terms: terms, seeds: seeds,
		configHash: hash, dataHash: dataHash(s.Train, s.Validation), saved: -1, selection: sel,
	}
	if gp.InternalProb == 0 {
		// expr reads 0 as "default"; a config asking for leaf-only points
		// gets the smallest positive probability instead.
		r.vary.vary.InternalProb = math.SmallestNonzeroFloat64
	}
	if routing != nil {
		r.routingTerms, r.routingSeeds = routing.terms, routing.seeds
		r.routingGen = r.gs
		r.routingGen.Terminals = routing.terms
		r.vary.routingVary = r.vary.vary
		r.vary.routingVary.Terminals = routing.terms
		r.vary.treeSwap = gp.TreeSwap
	}
	if err := ev.baselines(ctx); err != nil {
		return nil, fmt.Errorf("learn: %w", err)
	}
	if err := r.setSelection(ctx); err != nil {
		return nil, fmt.Errorf("learn: %w", err)
	}
	if gp.Dedup == "behaviour" {
		// The phenotype sample: decisions of the SRSF scheduler on the
		// training instances, in order (deterministic).
		ds, err := sampleDecisions(ctx, s.Train, opts, ev.candidate, simcore.SRSF{}, gp.DedupSample)
		if err != nil {
			return nil, fmt.Errorf("learn: sampling decisions for gp.dedup: %w", err)
		}
		r.decisions, r.phenos = ds, map[uint64]uint64{}
	}
	if err := r.setSurrogate(ctx, opts); err != nil {
		return nil, fmt.Errorf("learn: %w", err)
	}
	r.Loop = Loop{
		Size: gp.Population, Offspring: r.breedCount(), Generations: gp.Generations,
		HallOfFame: gp.HallOfFame, Alpha: gp.Subset, RNG: master,
		Init: r.initial, Parents: sel.Parents, Variations: r.vary.operators(),
		Evaluator: simEvaluator{r}, Survival: sel.Survival,
		Screen: surrogateScreen{r}, Archives: []Archive{surrogateTraining{r}, frontArchive{r}},
		gen: -1,
	}
	return r, nil
}

// behaviour is the phenotype of a tree on the run's decision sample, or
// nil when the run has none (gp.dedup other than behaviour).
func (r *runner) behaviour() func(*expr.Tree) uint64 {
	if r.decisions == nil {
		return nil
	}
	return func(t *expr.Tree) uint64 { return phenotype(NewFormulaRanking(t, r.ev.seconds), r.decisions) }
}

// setPhenotypes fills the phenotype of every member (gp.dedup: behaviour),
// computing each distinct tree's once.
func (r *runner) setPhenotypes(pop []scored) {
	if r.decisions == nil {
		return
	}
	for i := range pop {
		p, ok := r.phenos[pop[i].hash]
		if !ok {
			p = phenotype(NewFormulaRanking(pop[i].tree, r.ev.seconds), r.decisions)
			if pop[i].routing != nil {
				// Two trees: the ranking's behaviour on the sampled
				// decisions and the routing tree's canonical hash (two
				// routing trees that simplify alike route alike).
				p = pairHash(pop[i].routing.Hash(), p)
			}
			r.phenos[pop[i].hash] = p
		}
		pop[i].pheno = p
	}
}

// SimOptions is configs.SimOptions: the simulator options the learner
// scores candidates with.
func SimOptions(cfg configs.Config) (simcore.Options, error) { return configs.SimOptions(cfg) }

// start writes config.yaml into the fresh run directory and runs the loop.
func (r *runner) start(ctx context.Context) (*Result, error) {
	b, err := r.cfg.Marshal()
	if err != nil {
		return nil, fmt.Errorf("learn: %w", err)
	}
	if err := runfile.WriteConfig(r.dir, b); err != nil {
		return nil, err
	}
	if err := os.Mkdir(filepath.Join(r.dir, CheckpointDir), 0o755); err != nil {
		return nil, fmt.Errorf("learn: %w", err)
	}
	return r.loop(ctx)
}

// restore loads a checkpoint into the runner.
func (r *runner) restore(ck *checkpoint, entries []cacheEntry) error {
	if err := r.pcg.UnmarshalBinary(ck.RNG); err != nil {
		return fmt.Errorf("checkpoint RNG state: %w", err)
	}
	if len(ck.Population) != r.cfg.GP.Population {
		return fmt.Errorf("checkpoint population has %d members, config says %d", len(ck.Population), r.cfg.GP.Population)
	}
	if ck.Generation < 0 || ck.Generation > r.cfg.GP.Generations || len(ck.Rows) != ck.Generation+1 {
		return fmt.Errorf("checkpoint generation %d with %d rows does not fit gp.generations = %d", ck.Generation, len(ck.Rows), r.cfg.GP.Generations)
	}
	if k := r.cfg.GP.ValidateEvery; k > 0 && ck.Generation < r.cfg.GP.Generations && ck.Generation%k != 0 {
		// The checkpoint of a finished run being extended: its last
		// generation got a validation point only because it was the last
		// (see loop); a longer run has none there.
		if n := len(ck.Curve); n > 0 && ck.Curve[n-1].Generation == ck.Generation {
			ck.Curve = ck.Curve[:n-1]
		}
	}
	st := LoopState{Generation: ck.Generation, Rows: ck.Rows, Hall: ck.HallOfFame}
	for _, m := range ck.Population {
		st.Population = append(st.Population, Genome{m.Routing.Tree, m.Tree})
		st.Scores = append(st.Scores, Score{Fitness: m.Fitness, Cases: m.Cases, Objectives: m.Objectives})
	}
	if err := r.Restore(st); err != nil {
		return err
	}
	if err := r.restoreFront(ck); err != nil {
		return err
	}
	if err := r.restoreSurrogate(ck); err != nil {
		return err
	}
	r.curve = ck.Curve
	for i := range r.curve {
		routing, ranking, err := r.parseIndividual(r.curve[i].Formula)
		if err != nil {
			return fmt.Errorf("checkpoint validation curve: %w", err)
		}
		r.curve[i].hash = individualHash(routing, ranking)
	}
	r.ev.restoreCache(entries)
	r.flushed = len(entries)
	r.saved = ck.Generation
	return nil
}

// loop runs the generations after r.gen (Loop.Run) with the run's
// recorders installed: the validation curve, the checkpoint, the progress
// display, Settings.OnGeneration and generations.parquet, in that order.
func (r *runner) loop(ctx context.Context) (*Result, error) {
	r.Recorders = []Recorder{validationRecorder{r}, checkpointRecorder{r}, &progressRecorder{r: r}}
	if r.s.OnGeneration != nil {
		r.Recorders = append(r.Recorders, snapshotRecorder{r})
	}
	r.Recorders = append(r.Recorders, generationsRecorder{r})
	if err := r.Loop.Run(ctx); err != nil {
		var ee *evaluationError
		if errors.As(err, &ee) && ctx.Err() != nil {
			if ee.completed >= 0 {
				return nil, &InterruptedError{Dir: r.dir, Generation: ee.completed, Err: ctx.Err()}
			}
			return nil, fmt.Errorf("learn: interrupted before generation 0 finished, nothing to resume: %w", ctx.Err())
		}
		return nil, err
	}
	res := &Result{Generations: r.rows}
	for _, row := range r.rows {
		res.Evaluations += row.Evaluations
		res.CacheHits += row.CacheHits
	}
	return res, nil
}

// frontEarlyStop reports whether nsga2's early stop (front_earlystop.go)
// runs: gp.early_stop, and survival monotone in dominance — neither
// behavioural dedup (dedup: the first member of a phenotype competes,
// chosen by scalar fitness) nor clearing by ranking tree (gp.niche: a
// member dominated by n others survives when they are cleared).
func frontEarlyStop(gp configs.GP, dedup bool) bool {
	return gp.EarlyStop && !dedup && gp.Niche == 0
}

// evaluate sets the fitness of all = parents (the first np members) +
// offspring on subset. With gp.early_stop (or order equivalence) the
// parents are scored first and
// the offspring then with the threshold pruneThreshold gives: an offspring
// proved worse than every parent gets fitness +Inf instead of its exact
// value, which changes nothing that survives (see pruneThreshold) and
// nothing reported (every reported number is of a survivor).
func (r *runner) evaluate(ctx context.Context, all []scored, np int, subset []int) (batchStats, error) {
	if r.front != nil {
		return r.front.evaluate(ctx, r.ev, all, np, r.cfg.GP.Population, subset, frontEarlyStop(r.cfg.GP, r.decisions != nil))
	}
	if np == 0 || !r.cfg.GP.EarlyStop && r.ev.traces == nil {
		return r.ev.fitness(ctx, all, subset, math.Inf(1))
	}
	// Parents first: their thresholds (early stop) and their traces (order
	// equivalence) serve the offspring. Scoring in two batches changes no
	// term and no count (a term of both counts once, as in one batch).
	st, err := r.ev.fitness(ctx, all[:np], subset, math.Inf(1))
	if err != nil {
		return st, err
	}
	threshold := math.Inf(1)
	if r.cfg.GP.EarlyStop {
		threshold = r.pruneThreshold(all[:np])
	}
	st2, err := r.ev.fitness(ctx, all[np:], subset, threshold)
	return st.add(st2), err
}

// pruneThreshold is the fitness above which an offspring cannot survive:
// the worst parent's. Survival keeps the first n of a stable sort on
// (fitness, hash) of parents then offspring, so an offspring with a
// fitness strictly above every one of the n parents' has n members ahead
// of it and is dropped (a tie would go by hash, so only strictly worse
// counts). With gp.dedup: behaviour this holds only when the parents
// carry n distinct phenotypes — then every one of those phenotypes has
// its first member ahead of the offspring and the n places are filled
// before it — so otherwise there is no threshold (+Inf). A parent with a
// non-finite fitness also disables it.
func (r *runner) pruneThreshold(parents []scored) float64 {
	worst := 0.0
	for _, p := range parents {
		if math.IsNaN(p.fitness) || math.IsInf(p.fitness, 0) {
			return math.Inf(1)
		}
		worst = max(worst, p.fitness)
	}
	if r.decisions != nil {
		r.setPhenotypes(parents)
		distinct := map[uint64]bool{}
		for _, p := range parents {
			distinct[p.pheno] = true
		}
		if len(distinct) < r.cfg.GP.Population {
			return math.Inf(1)
		}
	}
	return worst
}

// validateBest appends the validation score of the generation's best
// member to the curve (a tree already scored is not simulated again).
func (r *runner) validateBest(ctx context.Context, g int) error {
	best := r.pop[0]
	for _, c := range r.curve {
		if c.hash == best.hash {
			r.curve = append(r.curve, CurvePoint{Generation: g, Score: c.Score, Formula: individualString(best.routing, best.tree), hash: best.hash})
			return nil
		}
	}
	sc, err := r.ev.validate(ctx, []individual{{best.routing, best.tree}})
	if err != nil {
		return err
	}
	r.curve = append(r.curve, CurvePoint{Generation: g, Score: sc[0], Formula: individualString(best.routing, best.tree), hash: best.hash})
	return nil
}

// finish evaluates the final population, the hall of fame and the seeds
// on the validation set, picks the best and writes the outputs into r.dir.
//
// The chosen tree has the lowest validation score under gp.pick's
// criterion (pickScore; the default is the mean of O_c,i / O_SRSF,i);
// ties go to the smaller tree, then to the lower canonical hash.
func (r *runner) finish(ctx context.Context, res *Result) error {
	var cands []individual
	for _, c := range r.pop {
		cands = append(cands, individual{c.routing, c.tree})
	}
	for _, h := range r.hall {
		cands = append(cands, individual{h.Routing.Tree, h.Tree})
	}
	// The seeds (gp.seed_formulas with gp.seed_routing) are candidates
	// too, after the population and the hall: a seeded baseline such as
	// wait-first can drop out of both during the run, and the pick must
	// never be worse on validation than what the run started from. A
	// seed already among the candidates is not added again.
	cands = append(cands, seedCandidates(cands, r.seeds, r.routingSeeds, slices.Contains(r.cfg.GP.Learn, "routing"))...)
	obj, err := r.ev.validationObjectives(ctx, cands)
	if err != nil {
		if ctx.Err() != nil {
			return &InterruptedError{Dir: r.dir, Generation: r.gen, Err: ctx.Err()}
		}
		return fmt.Errorf("learn: %w", err)
	}
	// scores are the validation scores (the mean) best.json and the hall
	// report; crit is gp.pick's criterion, which chooses (the same numbers
	// under the default, mean).
	scores, crit := make([]float64, len(cands)), make([]float64, len(cands))
	for i := range cands {
		scores[i] = pickScore("mean", obj[i], r.ev.baseVal)
		crit[i] = pickScore(r.cfg.GP.Pick, obj[i], r.ev.baseVal)
	}
	bi := 0
	for i := range cands {
		if c := compareFloat(crit[i], crit[bi]); c < 0 ||
			c == 0 && (cands[i].size() < cands[bi].size() ||
				cands[i].size() == cands[bi].size() && cands[i].hash() < cands[bi].hash()) {
			bi = i
		}
	}
	for i := range r.hall {
		r.hall[i].Validation = scores[len(r.pop)+i]
	}
	best := cands[bi]
	res.Best, res.Simplified, res.Validation = best.ranking, expr.Simplify(best.ranking), scores[bi]
	if best.routing != nil {
		res.Routing, res.RoutingSimplified, res.Scope = best.routing, expr.Simplify(best.routing), r.cfg.GP.RoutingScope()
	}
	res.HallOfFame = r.hall
	res.ValidationCurve = r.curve
	if r.front != nil {
		if err := r.front.finish(ctx, r, res); err != nil {
			if ctx.Err() != nil {
				return &InterruptedError{Dir: r.dir, Generation: r.gen, Err: ctx.Err()}
			}
			return fmt.Errorf("learn: %w", err)
		}
	}
	interrupted := func(err error) error {
		if ctx.Err() != nil {
			return &InterruptedError{Dir: r.dir, Generation: r.gen, Err: ctx.Err()}
		}
		return fmt.Errorf("learn: %w", err)
	}
	if err := r.reduceBest(ctx, res); err != nil {
		return interrupted(err)
	}
	if res.ValidationBaselines, err = r.ev.validateBaselines(ctx); err != nil {
		return interrupted(err)
	}
	if res.Warnings, err = r.reducedWarnings(ctx, res); err != nil {
		return interrupted(err)
	}
	test := r.s.Test
	if test == nil {
		if test, err = LoadTest(r.cfg); err != nil {
			return fmt.Errorf("learn: %w", err)
		}
	}
	if len(test) > 0 {
		if res.Test, err = ScoreIndividualOnTest(ctx, r.cfg, res.RoutingSimplified, res.Simplified, test, r.ev.workers); err != nil {
			return interrupted(err)
		}
		// The best baseline is the one chosen on validation (best.json's
		// best_baseline), not the best on the split the table reports.
		if len(res.ValidationBaselines) > 0 {
			if err := res.Test.AgainstBaseline(bestBaseline(res.ValidationBaselines).Name, BasisValidation); err != nil {
				return err
			}
		}
		if err := r.scoreReducedOnTest(ctx, res, test); err != nil {
			return interrupted(err)
		}
	}
	if res.Front != nil {
		if err := r.front.scoreOmega(ctx, r.ev, res.Front, test, testSource(r.cfg, len(test))); err != nil {
			return interrupted(err)
		}
	}
	if err := r.write(res); err != nil {
		return &writeError{err}
	}
	return nil
}

// write stores the outputs of a finished run in r.dir (generations.parquet
// is the loop's generationsRecorder's).
func (r *runner) write(res *Result) error {
	dir := r.dir
	if err := writeHall(filepath.Join(dir, HallFile), hallByValidation(r.hall), r.behaviour(), individualHash(res.Routing, res.Best), res.Reduced); err != nil {
		return err
	}
	if err := plotConvergence(dir, r.rows, r.cfg.GP.Subset, res.ValidationCurve, bestBaseline(res.ValidationBaselines)); err != nil {
		return err
	}
	simp := res.Simplified
	latex, err := expr.Format(simp, "latex")
	if err != nil {
		return err
	}
	exported := simp // formula.go.txt and formula.tex: the reduced tree when there is one
	if res.Reduced != nil {
		exported = res.Reduced.Ranking
	}
	goSrc, err := formulaGo(exported)
	if err != nil {
		return err
	}
	if err := atomicio.WriteBytes(filepath.Join(dir, FormulaGoFile), goSrc); err != nil {
		return err
	}
	texRouting := res.RoutingSimplified // formula.tex: both trees, the reduced ones when there are
	if res.Reduced != nil && res.Reduced.Routing != nil {
		texRouting = res.Reduced.Routing
	}
	if texRouting != nil {
		texRouting = expr.Shorten(texRouting)
	}
	tex, err := formulaTeX(texRouting, expr.Shorten(exported))
	if err != nil {
		return err
	}
	if err := atomicio.WriteBytes(filepath.Join(dir, FormulaTeXFile), tex); err != nil {
		return err
	}
	b := BestJSON{
		Config: r.cfg.Name, Seed: r.cfg.Seed, Objective: objectiveString(r.cfg), ObjectiveRecord: objectiveRecord(r.cfg), Generations: r.cfg.GP.Generations,
		Tree: res.Best, Infix: res.Best.String(), Simplified: simp.String(), SimplifiedTree: simp,
		SimplifiedDomain: expr.SimplifyOn(res.Best, expr.DefaultDomain()).String(), LaTeX: latex,
		Hash: fmt.Sprintf("%016x", res.Best.Hash()), Size: res.Best.Size(), Depth: res.Best.Depth(),
		Validation: res.Validation, ValidationInstances: len(r.s.Validation),
		Terminals: r.terms, Constants: r.cfg.GP.Constants,
		Candidate: candidateSpec(r.cfg.GP.Allocator, r.cfg.GP.Placer), TimeUnit: r.cfg.GP.TimeUnit,
		ValidationBaselines: res.ValidationBaselines, BestBaseline: bestBaseline(res.ValidationBaselines).Name,
		ValidationCurve: bestCurve(res.ValidationCurve), Test: res.Test, Warnings: res.Warnings, Front: res.Front,
		Reduced: reducedJSON(res),
	}
	if res.Front != nil {
		if err := writeFrontOutputs(dir, res.Front, r.front.hv); err != nil {
			return err
		}
		if err := writeOmega(dir, res.Front); err != nil {
			return err
		}
	}
	h := res.Best.Hash()
	if res.Routing != nil {
		h = individualHash(res.Routing, res.Best)
		ind := individual{res.Routing, res.Best}
		b.Learn = slices.Clone(r.cfg.GP.Learn)
		b.RoutingTree, b.RoutingInfix = RoutingTree{Tree: res.Routing}, res.Routing.String()
		b.RoutingSimplified, b.RoutingSimplifiedTree = res.RoutingSimplified.String(), RoutingTree{Tree: res.RoutingSimplified}
		b.RoutingTerminals, b.Scope = slices.Clone(r.cfg.GP.RoutingTerminals), r.cfg.GP.RoutingScope()
		b.Candidate = ruleSpec(r.cfg.GP.Placer)
		b.Hash, b.Size, b.Depth = fmt.Sprintf("%016x", h), ind.size(), max(res.Routing.Depth(), res.Best.Depth())
	}
	for _, c := range r.pop {
		if c.hash == h {
			v := c.fitness / float64(r.cfg.GP.Subset)
			b.TrainScore = &v
			break
		}
	}
	// best.json last: its presence marks a complete run (Resume refuses it).
	return runfile.WriteBest(dir, &b)
}

func objectiveString(c configs.Config) string {
	o, err := c.Objective.Resolve()
	if err != nil {
		return c.Objective.Kind // not reached: the run validated its config
	}
	return o.String()
}

// EVOParams is configs.EVOParams: the EVO allocator's parameters of a
// config, seeded with the run seed.
func EVOParams(cfg configs.Config) evo.Params { return configs.EVOParams(cfg) }

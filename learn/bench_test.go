package learn

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/internal/progress"
	"github.com/evogp/evogp/simcore"
	"github.com/evogp/evogp/simcore/evo"
)

// BenchmarkEvaluate measures candidate simulations per second on the quick
// config: a ramped half-and-half population of gp.population trees scored
// on gp.subset training instances, with an empty cache every iteration (so
// every distinct (tree, instance) term is simulated).
//
//	go test ./learn -run '^$' -bench Evaluate -benchtime 5x
func BenchmarkEvaluate(b *testing.B) {
	cfg, err := configs.Load("quick")
	if err != nil {
		b.Fatal(err)
	}
	train, val, err := LoadData(cfg)
	if err != nil {
		b.Fatal(err)
	}
	opts, err := SimOptions(cfg)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var pop []scored
	for _, t := range expr.RampedHalfAndHalf(rng, cfg.GP.Population, expr.GenSettings{MinDepth: cfg.GP.InitDepth[0], MaxDepth: cfg.GP.InitDepth[1]}) {
		pop = append(pop, scored{tree: t, hash: t.Hash()})
	}
	subset := sampleSubset(rng, len(train), cfg.GP.Subset)
	base, err := newEvaluator(train, val, opts, false, cfg.GP.Workers, "mct", "bestfit", evo.DefaultParams())
	if err != nil {
		b.Fatal(err)
	}
	if err := base.baselines(context.Background()); err != nil {
		b.Fatal(err)
	}
	evals := 0
	b.ResetTimer()
	for b.Loop() {
		ev := *base
		ev.cache, ev.bounds, ev.log = map[cacheKey]float64{}, map[cacheKey]float64{}, nil
		st, err := ev.fitness(context.Background(), pop, subset, math.Inf(1))
		if err != nil {
			b.Fatal(err)
		}
		evals += st.evals
	}
	b.ReportMetric(float64(evals)/b.Elapsed().Seconds(), "evals/s")
}

// TestPaperGenerationTime measures the wall time of the paper config's
// generations 0–4 (population 512, subset 3 of 50 paper-generator training
// instances) and projects the mean of the breeding generations 1–4 to 100
// generations. A generation's cost varies a lot with the sizes of the three
// sampled instances (2–26 clusters each), hence the mean of four. It takes minutes, so it
// only runs when EVOGP_PAPER_TIMING=1:
//
//	EVOGP_PAPER_TIMING=1 go test ./learn -run PaperGenerationTime -v -timeout 60m
//	EVOGP_PAPER_TIMING=1 EVOGP_PAPER_OVERRIDES=gp.early_stop=false go test ./learn -run PaperGenerationTime -v -timeout 60m
func TestPaperGenerationTime(t *testing.T) {
	if os.Getenv("EVOGP_PAPER_TIMING") != "1" {
		t.Skip("set EVOGP_PAPER_TIMING=1 to time the paper config")
	}
	lastGen := 4
	if v := os.Getenv("EVOGP_PAPER_GENERATIONS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("EVOGP_PAPER_GENERATIONS=%q: want a positive integer", v)
		}
		lastGen = n
	}
	cfg, err := configs.Load("paper")
	if err != nil {
		t.Fatal(err)
	}
	// EVOGP_PAPER_OVERRIDES adds key=value overrides (space-separated),
	// e.g. gp.early_stop=false to time full evaluation.
	cfg, err = cfg.Override(append([]string{fmt.Sprintf("gp.generations=%d", lastGen)}, strings.Fields(os.Getenv("EVOGP_PAPER_OVERRIDES"))...)...)
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	train, val, err := LoadData(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("generated %d + %d paper instances in %v", len(train), len(val), time.Since(t0).Round(time.Millisecond))
	// The run is cancelled once generation lastGen is checkpointed: the final
	// validation (the whole population on 10 instances) is not part of a
	// generation's cost.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var rows []GenerationRow
	s := Settings{Config: cfg, Train: train, Validation: val, Out: filepath.Join(t.TempDir(), "run"), Progress: progress.Options{Quiet: true}}
	var batch batchStats
	s.onBatch = func(st batchStats) { batch = st }
	// EVOGP_PAPER_NO_EQUIVALENCE=1 simulates order-equivalent candidates
	// too (the time without equivalence.go).
	s.noEquivalence = os.Getenv("EVOGP_PAPER_NO_EQUIVALENCE") != ""
	// CPU seconds of the process per generation: steadier than wall time
	// on a shared machine (on an idle 2-core machine wall ≈ CPU / 1.85).
	cpu := processCPU(t)
	var cpuTotal, cpuBreeding float64
	s.OnGeneration = func(snap Snapshot) {
		r := snap.Row
		rows = append(rows, r)
		now := processCPU(t)
		used := now - cpu
		cpu = now
		cpuTotal += used
		if r.Generation > 0 {
			cpuBreeding += used
		}
		t.Logf("generation %d: %.1f s wall, %.1f s CPU, %d simulations (%.1f/s), %d cache hits, best %.4f; %d simulations run, %d offspring pruned (gp.early_stop=%v), %d answered by order equivalence",
			r.Generation, r.WallSeconds, used, r.Evaluations, float64(r.Evaluations)/r.WallSeconds, r.CacheHits, r.Best/float64(cfg.GP.Subset),
			batch.sims, batch.pruned, cfg.GP.EarlyStop, batch.matched)
		if r.Generation == int64(lastGen) {
			cancel()
		}
	}
	t1 := time.Now()
	_, err = Run(ctx, s)
	var intr *InterruptedError
	if !errors.As(err, &intr) || len(rows) != lastGen+1 {
		t.Fatalf("want an interruption after generation %d, got %v", lastGen, err)
	}
	total, breeding := 0.0, 0.0
	for _, r := range rows {
		total += r.WallSeconds
		if r.Generation > 0 {
			breeding += r.WallSeconds / float64(lastGen)
		}
	}
	t.Logf("SRSF baselines (60 instances): %.1f s", time.Since(t1).Seconds()-total)
	t.Logf("one breeding generation (mean of 1–%d): %.1f s; projected 100 generations: %.2f h", lastGen, breeding, 100*breeding/3600)
	t.Logf("CPU: %.1f s in generations 0–%d, %.1f s per breeding generation", cpuTotal, lastGen, cpuBreeding/float64(lastGen))
}

// processCPU is the user + system CPU time of this process, in seconds.
func processCPU(t *testing.T) float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}

// BenchmarkPaperPopulation simulates what the paper config's learner
// simulates most: a random (ramped half-and-half, depth 2–6) population of
// 24 trees, simplified as the learner simplifies them, under
// mct + formula + best fit on three paper-generator training instances,
// every simulation to the end. Each iteration runs the 72 simulations one
// after the other on one goroutine, so CPU and wall time agree.
//
//	go test ./learn -run '^$' -bench PaperPopulation -benchtime 1x -count 6
func BenchmarkPaperPopulation(b *testing.B) {
	cfg, err := configs.Load("paper")
	if err == nil {
		cfg, err = cfg.Override("data.train=3", "data.validation=1")
	}
	if err != nil {
		b.Fatal(err)
	}
	train, _, err := LoadData(cfg)
	if err != nil {
		b.Fatal(err)
	}
	opts, err := SimOptions(cfg)
	if err != nil {
		b.Fatal(err)
	}
	ev, err := newEvaluator(nil, nil, opts, false, 1, "mct", "bestfit", evo.DefaultParams())
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 11))
	var scheds []simcore.Scheduler
	for _, t := range expr.RampedHalfAndHalf(rng, 24, expr.GenSettings{MinDepth: 2, MaxDepth: 6}) {
		s, err := ev.candidate(NewFormulaRanking(expr.Simplify(t), false))
		if err != nil {
			b.Fatal(err)
		}
		scheds = append(scheds, s)
	}
	b.ResetTimer()
	for b.Loop() {
		for i := range train {
			for _, s := range scheds {
				if _, err := simcore.Simulate(context.Background(), &train[i], s, ev.opts); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
}

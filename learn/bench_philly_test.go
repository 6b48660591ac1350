package learn

import (
	"context"
	"math"
	"math/rand/v2"
	"os"
	"testing"
	"time"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/datasets/philly"
	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/simcore/evo"
)

// phillyTrace is the Philly trace beside the repository (../shared/traces).
const phillyTrace = "../../shared/traces/philly/philly.csv"

// BenchmarkPhillyLearner measures evaluations per second of one learn
// generation on one contended Philly cluster (issue 28, item 4): the
// trade-off setting of configs/front.yaml (its objective, allocator,
// placer and terminals; its first training week, 2017-10-01..10-08, as
// one instance) on a single cluster of 25 nodes × 8 GPUs, the contended
// size named in the issue. A ramped half-and-half population of 4 trees
// (simplified as the learner simplifies them; few, since one simulation
// of this week costs seconds) is scored with an empty cache every
// iteration, on one worker, so every tree is simulated and CPU and wall
// time agree. Skipped when the trace is absent.
//
//	go test ./learn -run '^$' -bench PhillyLearner -benchtime 1x -count 6
func BenchmarkPhillyLearner(b *testing.B) {
	if _, err := os.Stat(phillyTrace); err != nil {
		b.Skipf("the Philly trace is absent: %v", err)
	}
	cfg, err := configs.Load("front")
	if err != nil {
		b.Fatal(err)
	}
	given := func(f string) bool { return f == "nodes" || f == "train" }
	po, err := philly.CommandLine{
		In: phillyTrace, Train: "2017-10-01..2017-10-08", Span: 168 * time.Hour,
		GPUsPerNode: 8, Priority: 1, SingleCluster: true, Nodes: 25, Given: given,
	}.Options()
	if err != nil {
		b.Fatal(err)
	}
	res, err := philly.ImportFile(phillyTrace, po)
	if err != nil {
		b.Fatal(err)
	}
	train := res.Splits[0].Dataset.Instances
	if len(train) != 1 || len(train[0].Clusters) != 1 || train[0].Clusters[0].Nodes != 25 {
		b.Fatalf("import: %d instances, want 1 week on one cluster of 25 nodes", len(train))
	}
	opts, err := SimOptions(cfg)
	if err != nil {
		b.Fatal(err)
	}
	terms, err := expr.ParseTerminals(cfg.GP.Terminals)
	if err != nil {
		b.Fatal(err)
	}
	base, err := newEvaluator(train, nil, opts, false, 1, cfg.GP.Allocator, cfg.GP.Placer, evo.DefaultParams())
	if err != nil {
		b.Fatal(err)
	}
	if err := base.baselines(context.Background()); err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 5))
	var pop []scored
	for _, t := range expr.RampedHalfAndHalf(rng, 4, expr.GenSettings{MinDepth: 2, MaxDepth: 6, Terminals: terms}) {
		t = expr.Simplify(t)
		pop = append(pop, scored{tree: t, hash: t.Hash()})
	}
	subset := []int{0}
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

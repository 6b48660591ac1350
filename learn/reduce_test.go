package learn

import (
	"context"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/simcore"
	"github.com/evogp/evogp/simcore/evo"
)

// reduceEvaluator is an evaluator over cfg's training and validation
// instances (with a rule allocator when cfg learns routing).
func reduceEvaluator(t *testing.T, cfg configs.Config, workers int) *evaluator {
	t.Helper()
	train, val, err := LoadData(cfg)
	if err != nil {
		t.Fatal(err)
	}
	opts, err := SimOptions(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ev, err := newEvaluator(train, val, opts, cfg.GP.TimeUnit == "seconds", workers, cfg.GP.Allocator, cfg.GP.Placer, evo.DefaultParams())
	if err != nil {
		t.Fatal(err)
	}
	if cfg.GP.LearnsRouting() {
		if err := ev.setRule(cfg.GP.RoutingScope()); err != nil {
			t.Fatal(err)
		}
	}
	if err := ev.baselines(context.Background()); err != nil {
		t.Fatal(err)
	}
	return ev
}

// schedules simulates ind on every training and validation instance of ev
// and returns each instance's job results, JSON-encoded (the bytes the
// property test compares).
func schedules(t *testing.T, ev *evaluator, ind individual) [][]byte {
	t.Helper()
	sched, err := ev.individualScheduler(ind.routing, NewFormulaRanking(ind.ranking, ev.seconds))
	if err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	for _, set := range [][]simcore.Instance{ev.train, ev.val} {
		for i := range set {
			res, err := simcore.Simulate(context.Background(), &set[i], sched, ev.opts)
			if err != nil {
				t.Fatal(err)
			}
			b, err := json.Marshal(res.Jobs)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, b)
		}
	}
	return out
}

func sameBytes(a, b [][]byte) int {
	for i := range a {
		if string(a[i]) != string(b[i]) {
			return i
		}
	}
	return -1
}

// Issue 40's hand case: the default run's 21-node routing tree is m on
// the simulator's inputs, and the reduction finds m, with the same
// schedule; the reduction does not depend on the worker count.
func TestReduceRoutingToM(t *testing.T) {
	cfg := testConfig(t, twoTreeOverrides("arrivals", "gp.terminals=d,q,u,g,a,r,w")...)
	evolved := individual{
		expr.Routing.MustParse("m % ((m - m) % (m * (m * m) % ((m - m) % (m - m)) - m))"),
		expr.MustParse("0 - a - (0 - (0 - a) % (d + q + q * g))"),
	}
	var first *Reduction
	for _, workers := range []int{1, 3} {
		ev := reduceEvaluator(t, cfg, workers)
		red, err := ev.reduce(context.Background(), evolved, expr.ReductionLeaves(expr.Ranking.Set(0, 1, 2, 3, 4, 5, 6)), expr.ReductionLeaves(mustRoutingTerms(t, cfg)))
		if err != nil {
			t.Fatal(err)
		}
		if red.Routing.String() != "m" {
			t.Fatalf("workers %d: R reduced to %v, want m", workers, red.Routing)
		}
		if red.Ranking.Size() > evolved.ranking.Size() {
			t.Fatalf("f grew: %v", red.Ranking)
		}
		if i := sameBytes(schedules(t, ev, evolved), schedules(t, ev, individual{red.Routing, red.Ranking})); i >= 0 {
			t.Fatalf("reduced pair schedules instance %d differently", i)
		}
		if first == nil {
			first = red
		} else if !red.Ranking.Equal(first.Ranking) || !red.Routing.Equal(first.Routing) {
			t.Fatalf("workers change the reduction: %v ; %v vs %v ; %v", red.Routing, red.Ranking, first.Routing, first.Ranking)
		}
	}
}

func mustRoutingTerms(t *testing.T, cfg configs.Config) expr.Terminals {
	t.Helper()
	terms, err := parseRoutingTerminals(cfg.GP.RoutingTerminals)
	if err != nil {
		t.Fatal(err)
	}
	return terms
}

// Issue 40's second hand case: w % (q*w*u) — 1/(q·u) for q > 0, "largest
// weighted wait first" — under scope all reduces to at most 5 nodes with
// the same schedule on instances where every worker has one GPU.
func TestReduceWeightedWait(t *testing.T) {
	// Instances with queues (generator of the quick config), where the
	// order matters: a constant ranking schedules them differently.
	cfg := testConfig(t, twoTreeOverrides("all", "gp.terminals=d,q,u,g,a,r,w", "generator.clusters=[2,2]", "generator.nodes=[3,4]",
		"generator.jobs_per_node=10", "generator.load_min=3", "generator.load_max=4", "data.train=2", "data.validation=1")...)
	ev := reduceEvaluator(t, cfg, 2)
	for _, set := range [][]simcore.Instance{ev.train, ev.val} {
		for i := range set {
			for j := range set[i].Jobs {
				set[i].Jobs[j].Workers = set[i].Jobs[j].GPUs // one GPU per worker: w = 1
			}
		}
	}
	evolved := individual{expr.Routing.MustParse("W"), expr.MustParse("w % (q * w * u)")}
	red, err := ev.reduce(context.Background(), evolved, expr.ReductionLeaves(expr.Ranking.Set(0, 1, 2, 3, 4, 5, 6)), expr.ReductionLeaves(mustRoutingTerms(t, cfg)))
	if err != nil {
		t.Fatal(err)
	}
	if sameBytes(schedules(t, ev, evolved), schedules(t, ev, individual{evolved.routing, expr.MustParse("0")})) < 0 {
		t.Fatal("the instances do not depend on the ranking")
	}
	if red.Ranking.Size() > 5 {
		t.Fatalf("w %% (q*w*u) reduced to %v (%d nodes), want ≤ 5", red.Ranking, red.Ranking.Size())
	}
	if i := sameBytes(schedules(t, ev, evolved), schedules(t, ev, individual{red.Routing, red.Ranking})); i >= 0 {
		t.Fatalf("reduced %v schedules instance %d differently", red.Ranking, i)
	}
	t.Logf("w %% (q*w*u) → %v", red.Ranking)
}

// Property (the oracle of reduce.go): for random individuals, the reduced
// pair's schedule is byte-identical to the evolved pair's on every
// instance the reduction checked, and never larger.
func TestReducedScheduleIdentical(t *testing.T) {
	rng := rand.New(rand.NewPCG(40, 1))
	n, kept := 0, 0 // pairs checked, and reduced pairs that still read a terminal
	for _, c := range []struct {
		overrides []string
		trees     int
	}{
		{[]string{"data.train=2", "data.validation=1", "generator.jobs_per_node=3", "generator.load_min=3", "generator.load_max=4", "gp.terminals=d,q,u,g,a"}, 150},
		{append(twoTreeOverrides("arrivals", "gp.terminals=d,q,u,g,a"), "data.train=1", "data.validation=1", "generator.jobs_per_node=3", "generator.load_min=3", "generator.load_max=4"), 60},
	} {
		cfg := testConfig(t, c.overrides...)
		ev := reduceEvaluator(t, cfg, 2)
		rankTerms, err := expr.ParseTerminals(cfg.GP.Terminals)
		if err != nil {
			t.Fatal(err)
		}
		gs := expr.GenSettings{Terminals: rankTerms, Constants: true}
		var routeLeaves []*expr.Tree
		var rgs expr.GenSettings
		if cfg.GP.LearnsRouting() {
			rgs = expr.GenSettings{Terminals: mustRoutingTerms(t, cfg)}
			routeLeaves = expr.ReductionLeaves(rgs.Terminals)
		}
		for k := range c.trees {
			ind := individual{ranking: expr.Grow(rng, 2+k%4, gs)}
			if routeLeaves != nil {
				ind.routing = expr.Grow(rng, 2+k%3, rgs)
			}
			red, err := ev.reduce(context.Background(), ind, expr.ReductionLeaves(rankTerms), routeLeaves)
			if err != nil {
				t.Fatal(err)
			}
			got := individual{red.Routing, red.Ranking}
			if base := (individual{simplifyRouting(ind.routing), expr.Simplify(ind.ranking)}); got.size() > base.size() {
				t.Fatalf("%v grew to %v", individualString(ind.routing, ind.ranking), individualString(got.routing, got.ranking))
			}
			if i := sameBytes(schedules(t, ev, ind), schedules(t, ev, got)); i >= 0 {
				t.Fatalf("%s reduced to %s: instance %d scheduled differently", individualString(ind.routing, ind.ranking), individualString(got.routing, got.ranking), i)
			}
			n++
			if got.ranking.Terminals().Len() > 0 {
				kept++
			}
		}
	}
	// Not vacuous: many reduced rankings still read the jobs (the
	// instances queue, so the order matters).
	if n < 200 || kept < n/4 {
		t.Fatalf("%d pairs, %d reduced rankings read a terminal", n, kept)
	}
	t.Logf("%d pairs, %d reduced rankings read a terminal", n, kept)
}

// --reduce-tolerance: the approximation is smaller than the exact
// reduction, its validation score within the tolerance of the exact one's
// (re-scored here), and with tolerance 0 it can only be a pair that
// scores exactly the same.
func TestApproximateWithinTolerance(t *testing.T) {
	cfg := testConfig(t, "data.train=2", "data.validation=2", "generator.jobs_per_node=3", "generator.load_min=3", "generator.load_max=4", "gp.terminals=d,q,u,g,a")
	ev := reduceEvaluator(t, cfg, 2)
	leaves := expr.ReductionLeaves(expr.Ranking.Set(0, 1, 2, 3, 4))
	cur := individual{ranking: expr.MustParse("g * d + q % (a + 1) - u * (d - a)")}
	base, err := ev.validate(context.Background(), []individual{cur})
	if err != nil {
		t.Fatal(err)
	}
	for _, tol := range []float64{0, 5, 100} {
		a, err := ev.approximate(context.Background(), cur, base[0], tol, leaves, nil)
		if err != nil {
			t.Fatal(err)
		}
		if a == nil {
			t.Logf("tolerance %g: none", tol)
			continue
		}
		v, err := ev.validate(context.Background(), []individual{{a.Routing, a.Ranking}})
		if err != nil {
			t.Fatal(err)
		}
		if a.Ranking.Size() >= cur.ranking.Size() || v[0] != a.Validation || math.Abs(v[0]-base[0]) > tol/100*math.Abs(base[0]) {
			t.Fatalf("tolerance %g: %v (size %d) scores %v (reported %v), exact %v", tol, a.Ranking, a.Ranking.Size(), v[0], a.Validation, base[0])
		}
		t.Logf("tolerance %g: %v scores %.4f vs %.4f", tol, a.Ranking, v[0], base[0])
	}
}

// A finished two-tree run records its reduction in best.json: what it was
// checked on, the evolved sizes, the reduced trees (never larger, scoring
// exactly what the evolved ones score on validation), and the hall of
// fame marks the chosen row as reduced; formula.go.txt holds the reduced
// ranking. A best.json without "reduced" (older runs) still reads.
func TestRunRecordsReduction(t *testing.T) {
	cfg := testConfig(t, twoTreeOverrides("arrivals")...)
	out := filepath.Join(t.TempDir(), "run")
	res, err := Run(context.Background(), settings(t, cfg, out))
	if err != nil {
		t.Fatal(err)
	}
	best, err := ReadBest(filepath.Join(out, BestFile))
	if err != nil {
		t.Fatal(err)
	}
	r := best.Reduced
	switch {
	case r == nil:
		t.Fatal("no reduced pair in best.json")
	case !r.Exact || r.CheckedOn.Instances != cfg.Data.Train+cfg.Data.Validation || r.CheckedOn.Training != cfg.Data.Train:
		t.Errorf("checked on %+v (exact %v)", r.CheckedOn, r.Exact)
	case r.Size > r.EvolvedSize || r.RoutingSize > r.EvolvedRoutingSize || r.EvolvedSize != res.Best.Size():
		t.Errorf("sizes %d/%d, routing %d/%d", r.Size, r.EvolvedSize, r.RoutingSize, r.EvolvedRoutingSize)
	case r.Validation != best.Validation:
		t.Errorf("reduced validation %v, evolved %v", r.Validation, best.Validation)
	case r.Test == nil || *r.TestIdentical > r.TestInstances:
		t.Errorf("test %v identical %v of %d", r.Test, r.TestIdentical, r.TestInstances)
	}
	if back, err := expr.Parse(r.Readable); err != nil || !back.Equal(expr.Shorten(r.Ranking)) {
		t.Errorf("readable %q does not parse back to the reduced tree %v: %v", r.Readable, r.Ranking, err)
	}
	if !strings.Contains(string(readFile(t, filepath.Join(out, HallFile))), ",true,") {
		t.Error("hall_of_fame.csv marks no row reduced")
	}
	if goSrc := string(readFile(t, filepath.Join(out, FormulaGoFile))); !strings.Contains(goSrc, "priority computes "+r.Ranking.String()+"\n") {
		t.Errorf("formula.go.txt is not of the reduced ranking %v:\n%s", r.Ranking, goSrc)
	}
	// An older best.json: without "reduced".
	var raw map[string]any
	if err := json.Unmarshal(readFile(t, filepath.Join(out, BestFile)), &raw); err != nil {
		t.Fatal(err)
	}
	delete(raw, "reduced")
	b, _ := json.Marshal(raw)
	old := filepath.Join(t.TempDir(), BestFile)
	if err := os.WriteFile(old, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if ob, err := ReadBest(old); err != nil || ob.Reduced != nil {
		t.Fatalf("old best.json: %v, %+v", err, ob)
	}
}

package learn

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/simcore"
	"github.com/evogp/evogp/simcore/evo"
)

// gp.fitness by hand. Three training instances with SRSF objectives 2, 6
// and 0, and a candidate whose cached terms v = O_c,i / O_SRSF,i
// (normalise) are 1.5, 0.5 and 3: its objectives are 3, 3 and 2 (on the
// SRSF = 0 instance normalise gives 1 + O). The mean criterion sums the
// terms: 5. pooled is n·Σ O / Σ O_SRSF = 3·(3+3+2)/(2+6+0) = 3, with the
// cases 3·3/8, 3·3/8 and 3·2/8. On a subset where SRSF scores 0
// everywhere, pooled falls back to the mean's weights.
func TestPooledFitnessByHand(t *testing.T) {
	ev, err := newEvaluator(nil, nil, simcore.Options{Objective: simcore.DefaultObjective()}, false, 1, "mct", "bestfit", evo.DefaultParams())
	if err != nil {
		t.Fatal(err)
	}
	ev.baseTrain = []float64{2, 6, 0, 0}
	const h = 42
	for i, v := range []float64{1.5, 0.5, 3, 1} {
		ev.cache[cacheKey{h, int32(i)}] = v
	}
	for _, c := range []struct {
		pooled    bool
		subset    []int
		want      float64
		wantCases []float64
	}{
		{false, []int{0, 1, 2}, 5, []float64{1.5, 0.5, 3}},
		{true, []int{0, 1, 2}, 3, []float64{9.0 / 8, 9.0 / 8, 6.0 / 8}},
		{true, []int{1, 0}, 2 * 6.0 / 8, []float64{2 * 3.0 / 8, 2 * 3.0 / 8}},
		{true, []int{2, 3}, 4, []float64{3, 1}}, // SRSF sums to 0: the mean's weights
	} {
		ev.pooled = c.pooled
		pop := []scored{{hash: h}}
		st, err := ev.fitness(context.Background(), pop, c.subset, math.Inf(1))
		if err != nil {
			t.Fatal(err)
		}
		if st.sims != 0 {
			t.Fatalf("%d simulations: every term was cached", st.sims)
		}
		if math.Abs(pop[0].fitness-c.want) > 1e-12 {
			t.Errorf("pooled=%v subset %v: fitness %v, want %v", c.pooled, c.subset, pop[0].fitness, c.want)
		}
		sum := 0.0
		for k, v := range pop[0].cases {
			sum += v
			if math.Abs(v-c.wantCases[k]) > 1e-12 {
				t.Errorf("pooled=%v subset %v: case %d = %v, want %v", c.pooled, c.subset, k, v, c.wantCases[k])
			}
		}
		if sum != pop[0].fitness {
			t.Errorf("pooled=%v subset %v: cases sum to %v, fitness %v", c.pooled, c.subset, sum, pop[0].fitness)
		}
	}
}

// TestPooledEarlyStopNeverChangesResults: with gp.fitness: pooled the
// early stop's bounds (a term's room divided by its weight) must stay
// exact: random small configurations with and without gp.early_stop give
// identical survivors in every generation, rows, hall and best.json, some
// candidates are pruned, and pooled selects differently from the mean in
// some trial (else the comparison would not exercise the weights).
func TestPooledEarlyStopNeverChangesResults(t *testing.T) {
	var pruned, differ int
	trials := 8
	if testing.Short() {
		trials = 3
	}
	rng := rand.New(rand.NewPCG(39, 4))
	pick := func(xs ...string) string { return xs[rng.IntN(len(xs))] }
	for trial := range trials {
		ov := []string{
			fmt.Sprintf("seed=%d", 1+rng.IntN(1000)),
			fmt.Sprintf("gp.population=%d", 4+rng.IntN(12)),
			fmt.Sprintf("gp.generations=%d", 2+rng.IntN(4)),
			fmt.Sprintf("data.train=%d", 3+rng.IntN(4)),
			fmt.Sprintf("gp.subset=%d", 2+rng.IntN(2)),
			"gp.dedup=" + pick("none", "none", "behaviour"),
			"gp.parent_selection=" + pick("tournament", "lexicase"),
			"gp.terminals=" + pick("d,q,u,g", "d,q,u,g,a,r,w"),
		}
		if rng.IntN(2) == 0 {
			ov = append(ov, "objective.kind=multi", "objective.weights="+pick("1,1,1", "1,0,0", "0,1,0"))
		}
		rt := &trialT{t, trial, ov}
		dir := t.TempDir()
		on := runFor(rt, filepath.Join(dir, "on"), append(ov, "gp.fitness=pooled", "gp.early_stop=true")...)
		off := runFor(rt, filepath.Join(dir, "off"), append(ov, "gp.fitness=pooled", "gp.early_stop=false")...)
		if off.pruned != 0 {
			rt.Fatalf("pruned %d candidates with early stop off", off.pruned)
		}
		requireSameOutputs(rt, on, off)
		pruned += on.pruned
		mean := runFor(rt, filepath.Join(dir, "mean"), append(ov, "gp.early_stop=false")...)
		if !bytes.Equal(mean.hall, off.hall) {
			differ++
		}
	}
	t.Logf("%d trials, %d candidates pruned, %d halls differ from the mean's", trials, pruned, differ)
	if pruned == 0 {
		t.Error("no candidate was ever pruned: the comparison proves nothing")
	}
	if differ == 0 {
		t.Error("pooled never changed a hall of fame: the weights were not exercised")
	}
}

// TestPooledFitnessRunDeterministicAndResumable: quick with gp.fitness:
// pooled at a reduced budget gives byte-identical best.json and hall with
// 1 and 2 workers and after an interruption and --resume; and its rows
// differ from the mean's (the key changes the fitness).
func TestPooledFitnessRunDeterministicAndResumable(t *testing.T) {
	quick := func(over ...string) configs.Config {
		t.Helper()
		cfg, err := configs.Load("quick")
		if err != nil {
			t.Fatal(err)
		}
		cfg, err = cfg.Override(append([]string{"gp.fitness=pooled", "gp.population=9", "gp.generations=3", "gp.subset=3", "data.train=4", "data.validation=4", "data.test=0", "generator.clusters=[2,3]", "generator.nodes=[4,8]", "gp.workers=1"}, over...)...)
		if err != nil {
			t.Fatal(err)
		}
		return cfg
	}
	cfg := quick()
	ref := filepath.Join(t.TempDir(), "ref")
	want, err := Run(context.Background(), settings(t, cfg, ref))
	if err != nil {
		t.Fatal(err)
	}
	w2 := filepath.Join(t.TempDir(), "w2")
	got2, err := Run(context.Background(), settings(t, quick("gp.workers=2"), w2))
	if err != nil {
		t.Fatal(err)
	}
	rowsEqual(t, want.Generations, got2.Generations)
	for _, f := range []string{BestFile, HallFile} {
		if !bytes.Equal(readFile(t, filepath.Join(ref, f)), readFile(t, filepath.Join(w2, f))) {
			t.Errorf("%s differs between 1 and 2 workers", f)
		}
	}

	dir := filepath.Join(t.TempDir(), "run")
	interruptAfter(t, cfg, dir, 1)
	res, err := Resume(context.Background(), dir, settings(t, cfg, ""))
	if err != nil {
		t.Fatal(err)
	}
	rowsEqual(t, want.Generations, res.Generations)
	for _, f := range []string{BestFile, HallFile} {
		if !bytes.Equal(readFile(t, filepath.Join(ref, f)), readFile(t, filepath.Join(dir, f))) {
			t.Errorf("%s differs after resume", f)
		}
	}

	mean, err := Run(context.Background(), settings(t, quick("gp.fitness=mean"), filepath.Join(t.TempDir(), "mean")))
	if err != nil {
		t.Fatal(err)
	}
	same := len(mean.Generations) == len(want.Generations)
	for g := range mean.Generations {
		if same && mean.Generations[g].Best != want.Generations[g].Best {
			same = false
		}
	}
	if same {
		t.Error("gp.fitness=pooled reports the same best fitness as mean in every generation: the key does nothing")
	}
}

// TestPooledEarlyStopBoundsAreExact checks the pooled early stop at the
// evaluator: random candidates on a subset whose SRSF objectives differ
// (so the weights are not 1) are scored once without a threshold and then,
// on fresh caches, with thresholds at several quantiles of the exact
// fitness. A candidate pruned under T must have an exact fitness above T;
// every other candidate must get its exact fitness bit for bit. Some must
// be pruned, so the bounds are exercised.
func TestPooledEarlyStopBoundsAreExact(t *testing.T) {
	cfg := testConfig(t, "data.train=6", "data.validation=1")
	train, _, err := LoadData(cfg)
	if err != nil {
		t.Fatal(err)
	}
	opts, err := SimOptions(cfg)
	if err != nil {
		t.Fatal(err)
	}
	base, err := newEvaluator(train, nil, opts, false, 1, "mct", "bestfit", evo.DefaultParams())
	if err != nil {
		t.Fatal(err)
	}
	if err := base.baselines(context.Background()); err != nil {
		t.Fatal(err)
	}
	base.pooled = true
	subset := []int{0, 2, 3, 5}
	if w, _ := base.termWeights(subset); w[0] == 1 && w[1] == 1 {
		t.Fatalf("weights %v: the subset does not exercise them", w)
	}
	rng := rand.New(rand.NewPCG(3, 9))
	var pop []scored
	for _, tr := range expr.RampedHalfAndHalf(rng, 40, expr.GenSettings{MinDepth: 1, MaxDepth: 4}) {
		pop = append(pop, scored{tree: tr, hash: tr.Hash()})
	}
	fresh := func() *evaluator {
		ev := *base
		ev.cache, ev.bounds, ev.log = map[cacheKey]float64{}, map[cacheKey]float64{}, nil
		return &ev
	}
	exact := slices.Clone(pop)
	if _, err := fresh().fitness(context.Background(), exact, subset, math.Inf(1)); err != nil {
		t.Fatal(err)
	}
	fits := make([]float64, len(exact))
	for i, c := range exact {
		fits[i] = c.fitness
	}
	slices.Sort(fits)
	pruned := 0
	for _, q := range []float64{0.1, 0.25, 0.5, 0.75} {
		threshold := fits[int(q*float64(len(fits)))]
		got := slices.Clone(pop)
		st, err := fresh().fitness(context.Background(), got, subset, threshold)
		if err != nil {
			t.Fatal(err)
		}
		pruned += st.pruned
		for i, c := range got {
			switch {
			case math.IsInf(c.fitness, 1):
				if !(exact[i].fitness > threshold) {
					t.Errorf("T = %v: %s pruned, exact fitness %v", threshold, c.tree, exact[i].fitness)
				}
			case c.fitness != exact[i].fitness:
				t.Errorf("T = %v: %s fitness %v, exact %v", threshold, c.tree, c.fitness, exact[i].fitness)
			}
		}
	}
	if pruned == 0 {
		t.Error("nothing pruned: the bounds were not exercised")
	}
}

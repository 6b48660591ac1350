package learn

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"testing"

	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/internal/pareto"
	"github.com/evogp/evogp/simcore"
	"github.com/evogp/evogp/simcore/evo"
)

// Early stop under nsga2 changes no output: runs with gp.early_stop on and
// off (the reference path, every term simulated to the end) write the
// same best.json, front, hall of fame, plots and generation rows
// (evaluation and cache-hit counts included), over several seeds and
// objective sets.
func TestFrontEarlyStopExactOnDominance(t *testing.T) {
	if testing.Short() {
		t.Skip("runs small learning runs")
	}
	files := []string{BestFile, FrontFile, FrontPlotName + ".svg", HypervolumePlotName + ".svg", HallFile, PlotName + ".svg"}
	pruned := 0
	for _, tc := range []struct {
		seed  int
		objs  string
		niche int // gp.niche: the bound must be off (clearing is not monotone in dominance)
		fit   string
	}{{1, "[avg_jct,max_qt]", 0, "mean"}, {2, "[avg_jct,max_qt]", 0, "mean"}, {3, "[avg_jct,size]", 0, "mean"}, {4, "[cq_avg,cq_max,util]", 0, "mean"}, {1, "[avg_jct,size]", 1, "mean"},
		{2, "[avg_jct,max_qt]", 0, "pooled"}, {4, "[cq_avg,cq_max,util]", 0, "pooled"}} {
		t.Run(fmt.Sprintf("seed%d%s-niche%d-%s", tc.seed, tc.objs, tc.niche, tc.fit), func(t *testing.T) {
			ov := []string{fmt.Sprintf("seed=%d", tc.seed), "gp.objectives=" + tc.objs, "gp.generations=4", "gp.population=8", "gp.subset=3", fmt.Sprintf("gp.niche=%d", tc.niche), "gp.fitness=" + tc.fit}
			off := filepath.Join(t.TempDir(), "off")
			want, err := Run(context.Background(), settings(t, frontConfig(t, append(ov, "gp.early_stop=false")...), off))
			if err != nil {
				t.Fatal(err)
			}
			on := filepath.Join(t.TempDir(), "on")
			s := settings(t, frontConfig(t, append(ov, "gp.early_stop=true")...), on)
			nichePruned := 0
			s.onBatch = func(st batchStats) { pruned, nichePruned = pruned+st.pruned, nichePruned+st.pruned }
			got, err := Run(context.Background(), s)
			if err != nil {
				t.Fatal(err)
			}
			if tc.niche > 0 && nichePruned > 0 {
				t.Errorf("gp.niche=%d: %d offspring skipped, want the dominance bound off", tc.niche, nichePruned)
			}
			rowsEqual(t, want.Generations, got.Generations)
			for _, f := range files {
				if !bytes.Equal(readFile(t, filepath.Join(off, f)), readFile(t, filepath.Join(on, f))) {
					t.Errorf("%s differs with early stop", f)
				}
			}
		})
	}
	// On these small smoke instances the bound (partial sums ÷ the subset
	// size) rarely proves dominance; TestFrontEarlyStopHandCase is the case
	// where it does.
	t.Logf("%d offspring skipped", pruned)
}

// A hand case: on one GPU a 10 000 s job and twenty 10 s jobs arrive
// together. Longest-first is many times worse than shortest-first on the
// first training instance alone, so after it the offspring's partial
// objectives are dominated by both parents and its second term is never
// simulated; the parents and the other offspring get the reference path's
// exact values, and survival is the same.
func TestFrontEarlyStopHandCase(t *testing.T) {
	one := []simcore.Cluster{{Nodes: 1, GPUsPerNode: 1}}
	inst := func(name string, long int64) simcore.Instance {
		in := simcore.Instance{Name: name, Clusters: one}
		in.Jobs = append(in.Jobs, simcore.Job{ID: 1, Duration: long, Workers: 1, GPUs: 1, Priority: 1})
		for j := range 20 {
			in.Jobs = append(in.Jobs, simcore.Job{ID: int64(j + 2), Duration: 10, Workers: 1, GPUs: 1, Priority: 1})
		}
		return in
	}
	train := []simcore.Instance{inst("a", 10000), inst("b", 5000)}
	cfg := frontConfig(t, "gp.population=2")
	opts, err := SimOptions(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var sims [2]int
	score := func(early bool) ([]scored, *frontState, batchStats) {
		ev, err := newEvaluator(train, train[:1], opts, false, 1, "mct", "bestfit", evo.DefaultParams())
		if err != nil {
			t.Fatal(err)
		}
		if err := ev.baselines(ctx); err != nil {
			t.Fatal(err)
		}
		fs, err := newFrontState(ctx, cfg, ev)
		if err != nil {
			t.Fatal(err)
		}
		var all []scored
		for _, src := range []string{"d", "d + g", "0 - d", "d * g + d"} {
			tr, err := expr.Parse(src)
			if err != nil {
				t.Fatal(err)
			}
			all = append(all, scored{tree: tr, hash: tr.Hash()})
		}
		i := 0
		if early {
			i = 1
		}
		ev.onSimulation = func() { sims[i]++ }
		st, err := fs.evaluate(ctx, ev, all, 2, 2, []int{0, 1}, early)
		if err != nil {
			t.Fatal(err)
		}
		return all, fs, st
	}
	ref, _, refSt := score(false)
	got, _, st := score(true)
	if !pareto.Dominates(ref[0].objs, ref[2].objs) || !pareto.Dominates(ref[1].objs, ref[2].objs) {
		t.Fatalf("the hand case is wrong: longest-first %v is not dominated by %v and %v", ref[2].objs, ref[0].objs, ref[1].objs)
	}
	if st.pruned != 1 || !math.IsInf(got[2].fitness, 1) {
		t.Fatalf("longest-first not skipped: pruned %d, fitness %v", st.pruned, got[2].fitness)
	}
	if sims[1] != sims[0]-1 {
		t.Errorf("early stop ran %d simulations, the reference %d (want one fewer)", sims[1], sims[0])
	}
	if st.evals != refSt.evals || st.hits != refSt.hits {
		t.Errorf("counts %d/%d, reference %d/%d", st.evals, st.hits, refSt.evals, refSt.hits)
	}
	for _, p := range []int{0, 1, 3} {
		if got[p].fitness != ref[p].fitness || !slices.Equal(got[p].objs, ref[p].objs) {
			t.Errorf("member %d: %v %v, reference %v %v", p, got[p].fitness, got[p].objs, ref[p].fitness, ref[p].objs)
		}
	}
	for k := range got[2].objs { // the kept vector is a lower bound
		if got[2].objs[k] > ref[2].objs[k] {
			t.Errorf("the skipped member's vector %v is not below its exact one %v", got[2].objs, ref[2].objs)
		}
	}
	hashes := func(ps []scored) []uint64 {
		var h []uint64
		for _, p := range ps {
			h = append(h, p.hash)
		}
		return h
	}
	if a, b := hashes(survivors(NSGA2{}, ref, 2)), hashes(survivors(NSGA2{}, got, 2)); !slices.Equal(a, b) {
		t.Errorf("survivors %v, reference %v", b, a)
	}
}

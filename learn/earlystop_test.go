package learn

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/evogp/evogp/configs"
)

// runOutputs is what a run reports: every generation's survivors (trees
// and fitness), the generation rows, and the bytes of best.json and
// hall_of_fame.csv.
type runOutputs struct {
	pops       []string
	rows       []GenerationRow
	best, hall []byte
	pruned     int
	sims       int
	matched    int
}

// noEquivalence, among runFor's overrides, turns order equivalence off.
const noEquivalence = "no-equivalence"

func runFor(t interface {
	Helper()
	Fatal(...any)
	Fatalf(string, ...any)
}, dir string, overrides ...string) runOutputs {
	t.Helper()
	off := slices.Contains(overrides, noEquivalence)
	overrides = slices.DeleteFunc(slices.Clone(overrides), func(o string) bool { return o == noEquivalence })
	cfg, err := testConfigE(overrides...)
	if err != nil {
		t.Fatal(err)
	}
	train, val, err := LoadData(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var out runOutputs
	s := Settings{Config: cfg, Train: train, Validation: val, Out: dir, Test: val[:1]}
	s.Progress.Quiet = true
	s.noEquivalence = off
	s.OnGeneration = func(snap Snapshot) {
		var b bytes.Buffer
		for _, m := range snap.Population {
			fmt.Fprintf(&b, "%s=%x;", m.Tree, math.Float64bits(m.Fitness))
		}
		out.pops = append(out.pops, b.String())
	}
	s.onBatch = func(st batchStats) { out.pruned += st.pruned; out.sims += st.sims; out.matched += st.matched }
	res, err := Run(context.Background(), s)
	if err != nil {
		t.Fatalf("%v (overrides %v)", err, overrides)
	}
	out.rows = withoutWall(res.Generations)
	out.best = readFileE(t, filepath.Join(dir, BestFile))
	out.hall = readFileE(t, filepath.Join(dir, HallFile))
	return out
}

// requireSameOutputs fails unless two runs reported the same survivors in
// every generation, the same generation rows, best.json and hall of fame.
func requireSameOutputs(rt *trialT, on, off runOutputs) {
	if len(on.pops) != len(off.pops) {
		rt.Fatalf("%d vs %d generations", len(on.pops), len(off.pops))
	}
	for g := range on.pops {
		if on.pops[g] != off.pops[g] {
			rt.Fatalf("generation %d survivors differ:\n%s\n%s", g, on.pops[g], off.pops[g])
		}
	}
	for g := range on.rows {
		if on.rows[g] != off.rows[g] {
			rt.Fatalf("row %d differs:\n%+v\n%+v", g, on.rows[g], off.rows[g])
		}
	}
	if !bytes.Equal(on.best, off.best) || !bytes.Equal(on.hall, off.hall) {
		rt.Fatalf("best.json or hall_of_fame.csv differ:\n%s\n%s", on.best, off.best)
	}
}

// TestEarlyStopNeverChangesResults runs random small configurations with
// and without gp.early_stop and requires identical survivors in every
// generation, identical generation rows (evaluation and cache-hit counts
// included), hall of fame and best.json; and that pruning happened in
// some of them, so the comparison is not vacuous.
func TestEarlyStopNeverChangesResults(t *testing.T) {
	var pruned, prunedRuns, runs, simsOn, simsOff int
	trials := 40
	if testing.Short() {
		trials = 10
	}
	rng := rand.New(rand.NewPCG(11, 17))
	pick := func(xs ...string) string { return xs[rng.IntN(len(xs))] }
	for trial := range trials {
		ov := []string{
			fmt.Sprintf("seed=%d", 1+rng.IntN(1000)),
			fmt.Sprintf("gp.population=%d", 3+rng.IntN(14)),
			fmt.Sprintf("gp.generations=%d", 1+rng.IntN(6)),
			fmt.Sprintf("data.train=%d", 3+rng.IntN(4)),
			fmt.Sprintf("gp.subset=%d", 1+rng.IntN(3)),
			"gp.mutation=" + pick("0.1", "0.5", "1"),
			fmt.Sprintf("gp.tournament=%d", 2+rng.IntN(6)),
			"gp.dedup=" + pick("none", "none", "behaviour"),
			fmt.Sprintf("gp.hall_of_fame=%d", 1+rng.IntN(6)),
			"gp.terminals=" + pick("d,q,u,g", "d,q,u,g,a,r,w,f,n,e"),
		}
		switch rng.IntN(3) {
		case 0:
			ov = append(ov, "objective.kind=multi", "objective.weights="+pick("1,1,1", "1,0,0", "0,1,0", "1,1,0"))
		case 1:
			ov = append(ov, "objective.kind=single", "objective.omega="+pick("0", "0.5", "1"))
		default:
			ov = append(ov, "objective.kind=deadline")
		}
		rt := &trialT{t, trial, ov}
		dir := t.TempDir()
		on := runFor(rt, filepath.Join(dir, "on"), append(ov, "gp.early_stop=true")...)
		off := runFor(rt, filepath.Join(dir, "off"), append(ov, "gp.early_stop=false")...)
		if off.pruned != 0 {
			rt.Fatalf("pruned %d candidates with early stop off", off.pruned)
		}
		requireSameOutputs(rt, on, off)
		runs++
		pruned += on.pruned
		simsOn += on.sims
		simsOff += off.sims
		if on.pruned > 0 {
			prunedRuns++
		}
	}
	t.Logf("%d runs, %d with pruning, %d candidates pruned; %d simulations with early stop, %d without", runs, prunedRuns, pruned, simsOn, simsOff)
	if pruned == 0 {
		t.Error("no candidate was ever pruned: the comparison proves nothing")
	}
}

func testConfigE(overrides ...string) (configs.Config, error) {
	cfg, err := configs.Load("smoke")
	if err != nil {
		return cfg, err
	}
	return cfg.Override(overrides...)
}

func readFileE(t interface{ Fatal(...any) }, path string) []byte {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// trialT reports a failure of one random trial with its overrides.
type trialT struct {
	t     *testing.T
	trial int
	ov    []string
}

func (r *trialT) Helper() { r.t.Helper() }
func (r *trialT) Fatal(args ...any) {
	r.t.Helper()
	r.t.Fatalf("trial %d %v: %s", r.trial, r.ov, fmt.Sprint(args...))
}
func (r *trialT) Fatalf(format string, args ...any) {
	r.t.Helper()
	r.t.Fatalf("trial %d %v: %s", r.trial, r.ov, fmt.Sprintf(format, args...))
}

// TestEarlyStopResume interrupts a run in which candidates are pruned and
// resumes it, with early stop on and toggled off: the checkpointed bounds
// (cache.bin bound records) restore the same state, so the outputs equal
// those of an uninterrupted run.
func TestEarlyStopResume(t *testing.T) {
	ov := []string{"seed=336", "gp.population=11", "gp.generations=6", "data.train=4", "gp.subset=3", "gp.mutation=1",
		"gp.tournament=5", "gp.terminals=d,q,u,g,a,r,w,f,n,e", "objective.kind=multi", "objective.weights=1,1,1"}
	ref := runFor(t, filepath.Join(t.TempDir(), "ref"), ov...)
	if ref.pruned == 0 {
		t.Fatal("no candidate pruned in the reference run; pick another setting")
	}
	for _, resumeWith := range []string{"gp.early_stop=true", "gp.early_stop=false"} {
		t.Run(resumeWith, func(t *testing.T) {
			cfg := testConfig(t, ov...)
			dir := filepath.Join(t.TempDir(), "run")
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			s := settings(t, cfg, dir)
			pruned := 0
			s.onBatch = func(st batchStats) { pruned += st.pruned }
			s.OnGeneration = func(snap Snapshot) {
				if pruned > 0 { // stop right after the first generation with pruning
					cancel()
				}
			}
			if _, err := Run(ctx, s); err == nil {
				t.Fatal("the run was not interrupted")
			}
			r2 := testConfig(t, append(ov, resumeWith)...)
			s2 := settings(t, r2, "")
			s2.Test = s2.Validation[:1]
			res, err := Resume(context.Background(), dir, s2)
			if err != nil {
				t.Fatal(err)
			}
			rowsEqual(t, ref.rows, res.Generations)
			if !bytes.Equal(ref.best, readFile(t, filepath.Join(dir, BestFile))) || !bytes.Equal(ref.hall, readFile(t, filepath.Join(dir, HallFile))) {
				t.Error("best.json or hall_of_fame.csv differ after resume")
			}
		})
	}
}

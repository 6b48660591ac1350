package learn

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/internal/pareto"
)

var frontOverrides = []string{"objective.kind=single", "gp.selection=nsga2", "gp.objectives=[avg_jct,max_qt]", "gp.generations=3", "gp.population=12"}

func frontConfig(t *testing.T, extra ...string) configs.Config {
	t.Helper()
	return testConfig(t, append(append([]string(nil), frontOverrides...), extra...)...)
}

func readBestJSON(t *testing.T, dir string) BestJSON {
	t.Helper()
	var b BestJSON
	if err := json.Unmarshal(readFile(t, filepath.Join(dir, BestFile)), &b); err != nil {
		t.Fatal(err)
	}
	return b
}

// A front run writes the front outputs, and its formula is the front's
// member for the config's ω, by a brute-force scan of the front.
func TestFrontRunOutputs(t *testing.T) {
	cfg := frontConfig(t, "objective.omega=0.3")
	out := filepath.Join(t.TempDir(), "run")
	res, err := Run(context.Background(), settings(t, cfg, out))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{FrontFile, FrontPlotName + ".png", FrontPlotName + ".svg", HypervolumePlotName + ".svg", BestFile, GenerationsFile} {
		if st, err := os.Stat(filepath.Join(out, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s missing or empty: %v", f, err)
		}
	}
	b := readBestJSON(t, out)
	f := b.Front
	if f == nil || len(f.Members) == 0 {
		t.Fatalf("best.json has no front: %+v", b)
	}
	if !slicesEqualStr(f.Objectives, []string{"avg_jct", "max_qt"}) || f.Weights[0] != 0.3 || f.Weights[1] != 0.7 {
		t.Errorf("front objectives %v weights %v", f.Objectives, f.Weights)
	}
	// The pick minimises 0.3·o1 + 0.7·o2 (first index on ties).
	bestI, bestV := -1, math.Inf(1)
	for i, m := range f.Members {
		if v := 0.3*m.Validation[0] + 0.7*m.Validation[1]; v < bestV {
			bestI, bestV = i, v
		}
	}
	if f.Pick != bestI {
		t.Errorf("pick %d, the brute-force scan finds %d", f.Pick, bestI)
	}
	if !b.Tree.Equal(f.Members[f.Pick].Tree) || !res.Best.Equal(b.Tree) || b.Validation != f.Members[f.Pick].Score {
		t.Errorf("best.json's formula %v is not the pick %v", b.Tree, f.Members[f.Pick].Tree)
	}
	// The front is non-dominated, ordered by the first objective, labelled
	// front-1.., and its ω intervals tile [0, 1].
	cover := 0.0
	for i, m := range f.Members {
		if m.Label != "front-"+strconv.Itoa(i+1) {
			t.Errorf("member %d label %q", i, m.Label)
		}
		if i > 0 && f.Members[i-1].Validation[0] > m.Validation[0] {
			t.Errorf("member %d is out of front order", i)
		}
		for j, o := range f.Members {
			if pareto.Dominates(o.Validation, m.Validation) {
				t.Errorf("member %d dominates member %d", j, i)
			}
		}
		if m.OmegaLo != nil {
			cover += *m.OmegaHi - *m.OmegaLo
			if !(0.3 < *m.OmegaLo || 0.3 > *m.OmegaHi) && i != f.Pick && !(0.3 == *m.OmegaLo || 0.3 == *m.OmegaHi) {
				t.Errorf("member %d wins ω in [%v, %v] ∋ 0.3 but is not the pick", i, *m.OmegaLo, *m.OmegaHi)
			}
		}
		for _, d := range m.Dominates {
			for _, bl := range f.Baselines {
				if bl.Name == d && !pareto.Dominates(m.Validation, bl.Validation) {
					t.Errorf("member %d is said to dominate %s but does not", i, d)
				}
			}
		}
	}
	if math.Abs(cover-1) > 1e-12 {
		t.Errorf("the ω intervals cover %v of [0, 1]", cover)
	}
	if hv, err := pareto.Hypervolume(memberPoints(f), f.Reference); err != nil || hv != f.Hypervolume || !(hv > 0) {
		t.Errorf("validation hypervolume %v, recomputed %v (%v)", f.Hypervolume, hv, err)
	}
	// generations.parquet has the per-generation hypervolume.
	rows, err := ReadFrontGenerations(filepath.Join(out, GenerationsFile))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 4 {
		t.Fatalf("%d generation rows", len(rows))
	}
	for _, r := range rows {
		if !(r.Hypervolume >= 0) {
			t.Errorf("generation %d hypervolume %v", r.Generation, r.Hypervolume)
		}
	}
}

func memberPoints(f *Front) [][]float64 {
	var pts [][]float64
	for _, m := range f.Members {
		pts = append(pts, m.Validation)
	}
	return pts
}

func slicesEqualStr(a, b []string) bool { return strings.Join(a, "\x00") == strings.Join(b, "\x00") }

// The same config and seed give byte-identical outputs whatever the worker
// count, and an interrupted nsga2 run resumes to the same bytes.
func TestFrontDeterministicAndResumable(t *testing.T) {
	t.Run("ranking", func(t *testing.T) { testFrontDeterministicAndResumable(t, nil) })
	// Both trees (gp.learn: [routing, ranking]) with behavioural dedup.
	t.Run("routing+ranking", func(t *testing.T) {
		testFrontDeterministicAndResumable(t, twoTreeOverrides("arrivals", "objective.kind=multi", "gp.objectives=[cq_avg,cq_max,util]"))
	})
	// Both trees, cleared by ranking tree (gp.niche, niche.go).
	t.Run("routing+ranking niche", func(t *testing.T) {
		testFrontDeterministicAndResumable(t, twoTreeOverrides("arrivals", "objective.kind=multi", "gp.objectives=[cq_avg,cq_max,util]", "gp.niche=1"))
	})
	// Both trees on pooled objectives (gp.fitness: pooled, front_pooled.go),
	// as configs/front-multi.yaml ships.
	t.Run("routing+ranking niche pooled", func(t *testing.T) {
		testFrontDeterministicAndResumable(t, twoTreeOverrides("arrivals", "objective.kind=multi", "gp.objectives=[cq_avg,cq_max]", "gp.niche=1", "gp.fitness=pooled"))
	})
}

func testFrontDeterministicAndResumable(t *testing.T, extra []string) {
	with := func(x ...string) []string { return append(append([]string(nil), extra...), x...) }
	cfg := frontConfig(t, with("gp.generations=4", "gp.workers=1")...)
	ref := filepath.Join(t.TempDir(), "ref")
	// Count the uninterrupted run's candidate simulations, in all and up
	// to the checkpoint of generation 2 (where the resume test stops).
	var refSims, refSimsAt2 atomic.Int64
	sref := settings(t, cfg, ref)
	sref.onSimulation = func() { refSims.Add(1) }
	sref.OnGeneration = func(snap Snapshot) {
		if snap.Row.Generation == 2 {
			refSimsAt2.Store(refSims.Load())
		}
	}
	want, err := Run(context.Background(), sref)
	if err != nil {
		t.Fatal(err)
	}
	files := []string{BestFile, FrontFile, FrontPlotName + ".svg", HypervolumePlotName + ".svg", HallFile, PlotName + ".svg"}
	compare := func(t *testing.T, dir string, got *Result) {
		t.Helper()
		rowsEqual(t, want.Generations, got.Generations)
		for _, f := range files {
			if !bytes.Equal(readFile(t, filepath.Join(ref, f)), readFile(t, filepath.Join(dir, f))) {
				t.Errorf("%s differs", f)
			}
		}
		a, _ := ReadFrontGenerations(filepath.Join(ref, GenerationsFile))
		b, _ := ReadFrontGenerations(filepath.Join(dir, GenerationsFile))
		for i := range a {
			if a[i].Hypervolume != b[i].Hypervolume {
				t.Errorf("generation %d hypervolume %v vs %v", i, a[i].Hypervolume, b[i].Hypervolume)
			}
		}
	}
	t.Run("workers", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "run")
		got, err := Run(context.Background(), settings(t, frontConfig(t, with("gp.generations=4", "gp.workers=3")...), dir))
		if err != nil {
			t.Fatal(err)
		}
		compare(t, dir, got)
	})
	t.Run("resume", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "run")
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		s := settings(t, cfg, dir)
		s.OnGeneration = func(snap Snapshot) {
			if snap.Row.Generation == 2 {
				cancel()
			}
		}
		var intr *InterruptedError
		if _, err := Run(ctx, s); !errors.As(err, &intr) {
			t.Fatalf("want an interruption, got %v", err)
		}
		// Resumed with other objectives: refused, naming the key.
		other := frontConfig(t, with("gp.generations=4", "gp.workers=1", "gp.objectives=[avg_jct,size]")...)
		if _, err := Resume(context.Background(), dir, settings(t, other, "")); err == nil || !strings.Contains(err.Error(), "gp.objectives") {
			t.Errorf("resume with other objectives: %v", err)
		}
		// The component cache is checkpointed: the resumed run simulates
		// exactly what the uninterrupted one did after generation 2 (no
		// term of the restored population is simulated again).
		var sims atomic.Int64
		sres := settings(t, frontConfig(t, with("gp.generations=4", "gp.workers=2")...), "") // another worker count
		sres.onSimulation = func() { sims.Add(1) }
		got, err := Resume(context.Background(), dir, sres)
		if err != nil {
			t.Fatal(err)
		}
		compare(t, dir, got)
		if want := refSims.Load() - refSimsAt2.Load(); sims.Load() != want {
			t.Errorf("the resumed run ran %d candidate simulations, the uninterrupted one %d after generation 2", sims.Load(), want)
		}
	})
}

// The archive never holds a dominated member, and it holds every offered
// candidate that nothing offered later (or kept) dominates.
func TestArchiveNeverDominated(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	trees := []*expr.Tree{}
	for _, src := range []string{"d", "q", "u", "g", "d + q", "d * g", "q - u", "g % d", "d - g", "u * q", "d + g + q", "q * q"} {
		tr, err := expr.Parse(src)
		if err != nil {
			t.Fatal(err)
		}
		trees = append(trees, tr)
	}
	var archive []ArchiveEntry
	for g := range 60 {
		var all []scored
		for range 1 + rng.IntN(8) {
			tr := trees[rng.IntN(len(trees))]
			v := []float64{float64(rng.IntN(6)), float64(rng.IntN(6))}
			// One tree, one vector within a generation (same simulations).
			for _, c := range all {
				if c.hash == tr.Hash() {
					v = c.objs
				}
			}
			all = append(all, scored{tree: tr, hash: tr.Hash(), objs: v})
		}
		prev := archive
		archive = updateArchive(archive, all, g)
		seen := map[uint64]bool{}
		for i, a := range archive {
			if seen[a.hash] {
				t.Fatalf("generation %d: tree %v twice in the archive", g, a.Tree)
			}
			seen[a.hash] = true
			for j, b := range archive {
				if i != j && pareto.Dominates(b.Objectives, a.Objectives) {
					t.Fatalf("generation %d: archive member %v %v is dominated by %v %v", g, a.Tree, a.Objectives, b.Tree, b.Objectives)
				}
			}
		}
		// Every candidate of this generation that no archive member
		// dominates is in the archive; so is every old entry not
		// re-evaluated and not dominated.
		in := func(h uint64) bool { return seen[h] }
		for _, c := range append(all, scoredOf(prev)...) {
			dom := false
			for _, a := range archive {
				if pareto.Dominates(a.Objectives, c.objs) {
					dom = true
				}
			}
			reEval := false
			for _, n := range all {
				reEval = reEval || n.hash == c.hash
			}
			if !dom && !in(c.hash) && !(reEval && !containsScored(all, c)) {
				t.Fatalf("generation %d: %v %v is non-dominated but not archived", g, c.tree, c.objs)
			}
		}
	}
}

func scoredOf(a []ArchiveEntry) []scored {
	var out []scored
	for _, e := range a {
		out = append(out, scored{tree: e.Tree, hash: e.hash, objs: e.Objectives})
	}
	return out
}

func containsScored(all []scored, c scored) bool {
	for _, n := range all {
		if n.hash == c.hash && n.objs[0] == c.objs[0] && n.objs[1] == c.objs[1] {
			return true
		}
	}
	return false
}

// A checkpoint of a scalar run written before gp.selection existed (its
// config hash is that of the YAML without the two default lines) still
// resumes; an nsga2 config never matches such a hash.
func TestPreSelectionCheckpointResumes(t *testing.T) {
	cfg := testConfig(t, "gp.generations=3", "gp.population=12")
	want, err := Run(context.Background(), settings(t, cfg, filepath.Join(t.TempDir(), "ref")))
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "run")
	interruptAfter(t, cfg, dir, 1)
	// Rewrite the checkpoint's hash as the older evogp computed it.
	state := filepath.Join(dir, CheckpointDir, stateFile)
	var ck map[string]any
	if err := json.Unmarshal(readFile(t, state), &ck); err != nil {
		t.Fatal(err)
	}
	c := cfg
	c.GP.Workers = 0
	b, _ := c.Marshal()
	old := bytes.Replace(b, []byte(scalarSelectionLines), []byte("\n"), 1)
	old = bytes.Replace(old, []byte("\n  early_stop: true\n"), []byte("\n"), 1)
	sum := sha256.Sum256(old)
	ck["config_hash"] = hex.EncodeToString(sum[:])
	nb, _ := json.Marshal(ck)
	if err := os.WriteFile(state, nb, 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := Resume(context.Background(), dir, settings(t, cfg, ""))
	if err != nil {
		t.Fatalf("the pre-selection checkpoint does not resume: %v", err)
	}
	rowsEqual(t, want.Generations, got.Generations)
	if isPreSelectionHash(frontConfig(t), ck["config_hash"].(string)) {
		t.Error("an nsga2 config matches a scalar pre-selection hash")
	}
}

// Three objectives (size among them) with behavioural dedup: the run
// completes, its front is non-dominated in all three, and the outputs do
// not depend on the worker count.
func TestFrontThreeObjectivesWithDedup(t *testing.T) {
	ov := []string{"gp.objectives=[cq_avg,cq_max,size]", "objective.kind=multi", "gp.dedup=behaviour"}
	var first []byte
	for _, w := range []string{"gp.workers=1", "gp.workers=2"} {
		cfg := frontConfig(t, append(ov, w)...)
		out := filepath.Join(t.TempDir(), "run")
		if _, err := Run(context.Background(), settings(t, cfg, out)); err != nil {
			t.Fatal(err)
		}
		b := readBestJSON(t, out)
		f := b.Front
		if f == nil || len(f.Objectives) != 3 {
			t.Fatalf("front %+v", f)
		}
		for i, m := range f.Members {
			if m.OmegaLo != nil {
				t.Errorf("member %d has an ω interval with three objectives", i)
			}
			if float64(m.Size) != m.Validation[2] || m.Size != expr.Simplify(m.Tree).Size() {
				t.Errorf("member %d: size %d, objective %v", i, m.Size, m.Validation[2])
			}
			for j, o := range f.Members {
				if pareto.Dominates(o.Validation, m.Validation) {
					t.Errorf("member %d dominates member %d", j, i)
				}
			}
		}
		// The pick minimises the config's weights (1, 1, 1) over the three.
		bi := 0
		for i, m := range f.Members {
			s := func(v []float64) float64 { return v[0] + v[1] + v[2] }
			if s(m.Validation) < s(f.Members[bi].Validation) {
				bi = i
			}
		}
		if f.Pick != bi {
			t.Errorf("pick %d, scan %d", f.Pick, bi)
		}
		got := readFile(t, filepath.Join(out, FrontFile))
		if first == nil {
			first = got
		} else if !bytes.Equal(first, got) {
			t.Error("front.parquet depends on gp.workers")
		}
	}
}

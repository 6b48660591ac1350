package learn

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/policies"
	"github.com/evogp/evogp/simcore"
)

// surrogateRun runs cfg to completion and returns its rows and output
// files, with the final checkpoint's surrogate archive as the pseudo-file
// "archive" (JSON), and the number of offspring early stop pruned.
func surrogateRun(t *testing.T, cfg configs.Config) ([]GenerationRow, map[string][]byte, int) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "run")
	s := settings(t, cfg, out)
	pruned := 0
	s.onBatch = func(st batchStats) { pruned += st.pruned }
	res, err := Run(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, f := range []string{BestFile, HallFile, FormulaGoFile, PlotName + ".svg"} {
		files[f] = readFile(t, filepath.Join(out, f))
	}
	ck, _, _, err := loadCheckpoint(filepath.Join(out, CheckpointDir))
	if err != nil {
		t.Fatal(err)
	}
	if files["archive"], err = json.Marshal(ck.Surrogate); err != nil {
		t.Fatal(err)
	}
	return res.Generations, files, pruned
}

func sameFiles(t *testing.T, a, b map[string][]byte, what string) {
	t.Helper()
	for f := range a {
		if !bytes.Equal(a[f], b[f]) {
			t.Errorf("%s: %s differs", what, f)
		}
	}
}

// surrogateCases are the learners the surrogate must serve: the paper's
// one tree, two trees with behavioural dedup, and NSGA-II; and the scalar
// learner and NSGA-II with gp.surrogate_repeats: free. knn is what every
// run with the surrogate on adds to over.
func surrogateCases() []struct {
	name      string
	over, knn []string
} {
	last := []string{"gp.surrogate=knn"}
	free := []string{"gp.surrogate=knn", "gp.surrogate_repeats=free"}
	scalar := []string{"gp.generations=4", "gp.population=12"}
	nsga := append(append([]string(nil), frontOverrides...), "gp.generations=4")
	return []struct {
		name      string
		over, knn []string
	}{
		{"scalar", scalar, last},
		{"two-tree", twoTreeOverrides("arrivals"), last},
		{"nsga2", nsga, last},
		{"scalar-free", scalar, free},
		{"nsga2-free", nsga, free},
	}
}

// A surrogate run is byte-identical across worker counts and with early
// stopping on or off; with gp.surrogate_pool = 1 (nothing to screen) it
// is the run without a surrogate; with a pool it is another run.
func TestSurrogateRunDeterministic(t *testing.T) {
	for _, c := range surrogateCases() {
		t.Run(c.name, func(t *testing.T) {
			cfg := func(extra ...string) configs.Config {
				return testConfig(t, append(append([]string(nil), c.over...), extra...)...)
			}
			on := func(extra ...string) configs.Config { return cfg(append(append([]string(nil), c.knn...), extra...)...) }
			rows1, files1, pruned := surrogateRun(t, on("gp.workers=1"))
			if len(files1["archive"]) < 100 {
				t.Fatalf("the checkpoint's archive is %s", files1["archive"])
			}
			rows4, files4, _ := surrogateRun(t, on("gp.workers=4"))
			rowsEqual(t, rows1, rows4)
			sameFiles(t, files1, files4, "1 vs 4 workers")
			rowsNoStop, filesNoStop, none := surrogateRun(t, on("gp.workers=2", "gp.early_stop=false"))
			rowsEqual(t, rows1, rowsNoStop)
			sameFiles(t, files1, filesNoStop, "early stop on vs off")
			if strings.HasPrefix(c.name, "scalar") && (pruned == 0 || none != 0) {
				t.Errorf("early stop pruned %d offspring (off: %d): the test does not exercise the archive's independence of it", pruned, none)
			}

			rowsOff, _, _ := surrogateRun(t, cfg())
			rowsPool1, _, _ := surrogateRun(t, on("gp.surrogate_pool=1"))
			rowsEqual(t, rowsOff, rowsPool1)
			if !rowsDiffer(rowsOff, rows1) {
				t.Error("the surrogate with a pool of 2 changed nothing: the test does not exercise it")
			}
			if slices.Contains(c.knn, "gp.surrogate_repeats=free") {
				rowsLast, _, _ := surrogateRun(t, cfg("gp.surrogate=knn"))
				if !rowsDiffer(rowsLast, rows1) {
					t.Error("gp.surrogate_repeats: free changed nothing against last: the test does not exercise it")
				}
			}
		})
	}
}

// rowsDiffer reports whether two runs' rows differ other than in wall time.
func rowsDiffer(a, b []GenerationRow) bool {
	a, b = withoutWall(a), withoutWall(b)
	for i := range a {
		if a[i] != b[i] {
			return true
		}
	}
	return false
}

// The surrogate never sets a fitness: every survivor's fitness is its
// simulated objective on the generation's subset.
func TestSurrogateSelectionUsesSimulatedFitness(t *testing.T) {
	cfg := testConfig(t, "gp.generations=4", "gp.population=10", "data.train=5", "gp.subset=2", "gp.surrogate=knn", "gp.surrogate_pool=3", "gp.surrogate_k=2")
	s := settings(t, cfg, filepath.Join(t.TempDir(), "run"))
	opts, err := SimOptions(cfg)
	if err != nil {
		t.Fatal(err)
	}
	srsf, _ := policies.ParseWith("mct+srsf+bestfit", nil)
	objective := func(sched simcore.Scheduler, i int) float64 {
		r, err := simcore.Simulate(context.Background(), &s.Train[i], sched, opts)
		if err != nil {
			t.Fatal(err)
		}
		return r.Metrics.Objective
	}
	checked := 0
	s.OnGeneration = func(snap Snapshot) {
		for _, m := range snap.Population {
			want := 0.0
			for _, i := range snap.Subset {
				want += normalise(objective(testCandidate(t, NewFormulaRanking(m.Tree, false)), i), objective(srsf, i))
			}
			if m.Fitness != want {
				t.Errorf("generation %d: %s has fitness %v, its subset gives %v", snap.Row.Generation, m.Tree, m.Fitness, want)
			}
			checked++
		}
	}
	if _, err := Run(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	if checked == 0 {
		t.Fatal("no generation checked")
	}
}

// A surrogate run interrupted after generation 2 and resumed with another
// worker count writes what the uninterrupted run writes: the archive is
// in the checkpoint. Resuming with the surrogate changed is refused.
func TestSurrogateResumeIsIdentical(t *testing.T) {
	for _, c := range surrogateCases() {
		t.Run(c.name, func(t *testing.T) {
			over := append(append(append([]string(nil), c.over...), c.knn...), "gp.workers=1")
			cfg := testConfig(t, over...)
			wantRows, wantFiles, _ := surrogateRun(t, cfg)
			delete(wantFiles, "archive")
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
			if _, err := Run(ctx, s); !errors.As(err, &intr) || intr.Generation != 2 {
				t.Fatalf("want an interruption after generation 2, got %v", err)
			}
			for _, bad := range []string{"gp.surrogate_k=1", "gp.surrogate=none", "gp.surrogate_repeats=" + map[bool]string{true: "last", false: "free"}[slices.Contains(c.knn, "gp.surrogate_repeats=free")]} {
				other, err := cfg.Override(bad)
				if err != nil {
					t.Fatal(err)
				}
				key, _, _ := strings.Cut(bad, "=")
				if _, err := Resume(context.Background(), dir, settings(t, other, "")); err == nil || !strings.Contains(err.Error(), key) {
					t.Errorf("resume with %s: %v, want an error naming %s", bad, err, key)
				}
			}
			cfg3, _ := cfg.Override("gp.workers=3")
			got, err := Resume(context.Background(), dir, settings(t, cfg3, ""))
			if err != nil {
				t.Fatal(err)
			}
			rowsEqual(t, wantRows, got.Generations)
			for f, want := range wantFiles {
				if !bytes.Equal(want, readFile(t, filepath.Join(dir, f))) {
					t.Errorf("%s differs after resume", f)
				}
			}
		})
	}
}

// A bad surrogate setting reaching Run (a Config built in code) is one
// clear error and creates nothing.
func TestSurrogateBadInput(t *testing.T) {
	for _, c := range []struct {
		set  func(*configs.GP)
		want string
	}{
		{func(g *configs.GP) { g.Surrogate = "rbf" }, `gp.surrogate = "rbf": must be none or knn`},
		{func(g *configs.GP) { g.Surrogate, g.SurrogatePool, g.SurrogateK = "knn", 0, 3 }, "gp.surrogate_pool = 0: must be ≥ 1"},
		{func(g *configs.GP) { g.Surrogate, g.SurrogatePool, g.SurrogateK = "knn", 2, -1 }, "gp.surrogate_k = -1: must be ≥ 1"},
		{func(g *configs.GP) { g.SurrogateK = 2 }, "gp.surrogate_k is set but gp.surrogate is off"},
		{func(g *configs.GP) { g.SurrogateRepeats = "free" }, "gp.surrogate_repeats is set but gp.surrogate is off"},
		{func(g *configs.GP) {
			g.Surrogate, g.SurrogatePool, g.SurrogateK, g.SurrogateRepeats = "knn", 2, 3, "first"
		}, `gp.surrogate_repeats = "first": must be last`},
	} {
		cfg := testConfig(t)
		c.set(&cfg.GP)
		out := filepath.Join(t.TempDir(), "run")
		_, err := Run(context.Background(), settings(t, cfg, out))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("err = %v, want %q", err, c.want)
		}
		if entries, _ := filepath.Glob(filepath.Join(filepath.Dir(out), "*")); len(entries) > 0 {
			t.Errorf("a failed run left %v", entries)
		}
	}
}

// A finished surrogate run extended by --resume with a larger
// gp.generations equals the longer run (the docs' measurements use it).
func TestSurrogateExtendIsIdentical(t *testing.T) {
	over := []string{"gp.population=12", "gp.surrogate=knn"}
	long := testConfig(t, append(over, "gp.generations=5")...)
	wantRows, wantFiles, _ := surrogateRun(t, long)
	delete(wantFiles, "archive")
	dir := filepath.Join(t.TempDir(), "run")
	if _, err := Run(context.Background(), settings(t, testConfig(t, append(over, "gp.generations=3")...), dir)); err != nil {
		t.Fatal(err)
	}
	got, err := Resume(context.Background(), dir, settings(t, long, ""))
	if err != nil {
		t.Fatal(err)
	}
	rowsEqual(t, wantRows, got.Generations)
	for f, want := range wantFiles {
		if !bytes.Equal(want, readFile(t, filepath.Join(dir, f))) {
			t.Errorf("%s differs after extending", f)
		}
	}
}

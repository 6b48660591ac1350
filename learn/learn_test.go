package learn

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/datasets"
	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/internal/progress"
	"github.com/evogp/evogp/internal/runlog"
	"github.com/evogp/evogp/policies"
	"github.com/evogp/evogp/simcore"
	"github.com/evogp/evogp/simcore/evo"
)

// testConfig is the smoke config with overrides.
func testConfig(t *testing.T, overrides ...string) configs.Config {
	t.Helper()
	cfg, err := configs.Load("smoke")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err = cfg.Override(overrides...)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func settings(t *testing.T, cfg configs.Config, out string) Settings {
	t.Helper()
	train, val, err := LoadData(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return Settings{Config: cfg, Train: train, Validation: val, Out: out, Progress: progress.Options{Quiet: true}}
}

// withoutWall drops the wall-clock column.
func withoutWall(rows []GenerationRow) []GenerationRow {
	out := append([]GenerationRow(nil), rows...)
	for i := range out {
		out[i].WallSeconds = 0
	}
	return out
}

func rowsEqual(t *testing.T, a, b []GenerationRow) {
	t.Helper()
	a, b = withoutWall(a), withoutWall(b)
	if len(a) != len(b) {
		t.Fatalf("%d rows vs %d", len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("row %d differs:\n%+v\n%+v", i, a[i], b[i])
		}
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestRunWritesRunDirectory(t *testing.T) {
	cfg := testConfig(t, "gp.generations=3")
	out := filepath.Join(t.TempDir(), "run")
	res, err := Run(context.Background(), settings(t, cfg, out))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{ConfigFile, GenerationsFile, HallFile, BestFile, FormulaGoFile, FormulaTeXFile,
		PlotName + ".png", PlotName + ".svg", filepath.Join(CheckpointDir, stateFile)} {
		if st, err := os.Stat(filepath.Join(out, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s missing or empty: %v", f, err)
		}
	}
	if len(res.Generations) != 4 {
		t.Fatalf("%d generation rows, want 4 (generation 0 and 3 more)", len(res.Generations))
	}
	// generations.parquet has runlog.GenerationRow's columns.
	got, err := runlog.Read(filepath.Join(out, GenerationsFile))
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range got {
		w := res.Generations[i]
		if r.Generation != w.Generation || r.Best != w.Best || r.Median != w.Median || r.Worst != w.Worst ||
			r.BestFormula != w.BestFormula || r.Size != w.Size || r.Depth != w.Depth || r.Unique != w.Unique ||
			r.Evaluations != w.Evaluations || r.CacheHits != w.CacheHits || r.WallSeconds != w.WallSeconds {
			t.Errorf("row %d read back as %+v, wrote %+v", i, r, w)
		}
		if r.Evaluations+r.CacheHits == 0 {
			t.Errorf("row %d: no fitness terms counted", i)
		}
	}
	var best BestJSON
	if err := json.Unmarshal(readFile(t, filepath.Join(out, BestFile)), &best); err != nil {
		t.Fatal(err)
	}
	if !best.Tree.Equal(res.Best) || best.Simplified != expr.Simplify(res.Best).String() || best.Validation != res.Validation {
		t.Errorf("best.json %+v does not match the result %v / %v", best, res.Best, res.Validation)
	}
	if best.Config != "smoke" || best.Seed != cfg.Seed || best.LaTeX == "" {
		t.Errorf("best.json provenance: %+v", best)
	}
	if _, err := expr.Parse(best.Simplified); err != nil {
		t.Errorf("simplified formula %q does not parse: %v", best.Simplified, err)
	}
	if dom := expr.SimplifyOn(res.Best, expr.DefaultDomain()); best.SimplifiedDomain != dom.String() {
		t.Errorf("best.json simplified_domain %q, want %q", best.SimplifiedDomain, dom)
	} else if p, err := expr.Parse(best.SimplifiedDomain); err != nil || !p.Equal(dom) || p.Size() > expr.Simplify(res.Best).Size() {
		t.Errorf("simplified_domain %q: %v (parsed %v)", best.SimplifiedDomain, err, p)
	}
	if !strings.Contains(string(readFile(t, filepath.Join(out, FormulaGoFile))), "package formula") {
		t.Error("formula.go is not a Go file")
	}
	// Nothing but the run directory was created next to it.
	entries, _ := os.ReadDir(filepath.Dir(out))
	if len(entries) != 1 {
		t.Errorf("parent holds %d entries, want only the run directory", len(entries))
	}
}

// TestFitnessOnCurrentSubset proves Algorithm 3's evaluation: after every
// generation, every member of the population — surviving parents included —
// has the fitness of its own simulations on that generation's subset,
// recomputed here without the cache.
func TestFitnessOnCurrentSubset(t *testing.T) {
	cfg := testConfig(t, "gp.generations=4", "gp.population=10", "data.train=5", "gp.subset=2")
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
	var prev []Member
	carried, subsets := 0, map[string]bool{}
	s.OnGeneration = func(snap Snapshot) {
		subsets[fmtInts(snap.Subset)] = true
		for _, m := range snap.Population {
			want := 0.0
			for _, i := range snap.Subset {
				want += normalise(objective(testCandidate(t, NewFormulaRanking(m.Tree, false)), i), objective(srsf, i))
			}
			if m.Fitness != want {
				t.Errorf("generation %d: %s has fitness %v, its subset %v gives %v", snap.Row.Generation, m.Tree, m.Fitness, snap.Subset, want)
			}
			for _, p := range prev {
				if p.Tree.Equal(m.Tree) {
					carried++
					break
				}
			}
		}
		prev = append(prev[:0], snap.Population...)
	}
	if _, err := Run(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	if carried == 0 {
		t.Fatal("no parent survived a generation: the test did not exercise re-scoring of parents")
	}
	if len(subsets) < 2 {
		t.Fatalf("every generation used the same subset %v: the test cannot tell subsets apart", subsets)
	}
}

func fmtInts(a []int) string {
	b, _ := json.Marshal(a)
	return string(b)
}

// TestWorkersDoNotChangeResults runs the same config with 1 and 4 workers.
func TestWorkersDoNotChangeResults(t *testing.T) {
	var rows [2][]GenerationRow
	var best [2][]byte
	for k, w := range []string{"gp.workers=1", "gp.workers=4"} {
		cfg := testConfig(t, "gp.generations=4", "gp.population=12", w)
		out := filepath.Join(t.TempDir(), "run")
		res, err := Run(context.Background(), settings(t, cfg, out))
		if err != nil {
			t.Fatal(err)
		}
		rows[k], best[k] = res.Generations, readFile(t, filepath.Join(out, BestFile))
	}
	rowsEqual(t, rows[0], rows[1])
	if !bytes.Equal(best[0], best[1]) {
		t.Fatalf("best.json differs:\n%s\n%s", best[0], best[1])
	}
}

// TestResumeIsIdentical interrupts a run after a generation (and another
// one in the middle of a generation's evaluations), resumes it, and
// compares with an uninterrupted run.
func TestResumeIsIdentical(t *testing.T) {
	cfg := testConfig(t, "gp.generations=5", "gp.population=12")
	ref := filepath.Join(t.TempDir(), "ref")
	want, err := Run(context.Background(), settings(t, cfg, ref))
	if err != nil {
		t.Fatal(err)
	}
	compare := func(t *testing.T, dir string, got *Result) {
		t.Helper()
		rowsEqual(t, want.Generations, got.Generations)
		for _, f := range []string{BestFile, HallFile, FormulaGoFile, FormulaTeXFile, PlotName + ".svg"} {
			if !bytes.Equal(readFile(t, filepath.Join(ref, f)), readFile(t, filepath.Join(dir, f))) {
				t.Errorf("%s differs after resume", f)
			}
		}
		disk, err := runlog.Read(filepath.Join(dir, GenerationsFile))
		if err != nil {
			t.Fatal(err)
		}
		if len(disk) != len(want.Generations) {
			t.Fatalf("generations.parquet has %d rows", len(disk))
		}
	}

	t.Run("after generation 2", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "run")
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		s := settings(t, cfg, dir)
		s.OnGeneration = func(snap Snapshot) {
			if snap.Row.Generation == 2 {
				cancel()
			}
		}
		_, err := Run(ctx, s)
		var intr *InterruptedError
		if !errors.As(err, &intr) || !errors.Is(err, context.Canceled) || intr.Generation != 2 || intr.Dir != dir {
			t.Fatalf("want an interruption after generation 2 in %s, got %v", dir, err)
		}
		if !strings.Contains(err.Error(), "--resume "+dir) {
			t.Errorf("the error does not say how to resume: %v", err)
		}
		if _, err := os.Stat(filepath.Join(dir, BestFile)); err == nil {
			t.Fatal("an interrupted run wrote best.json")
		}
		// Resume must ignore (and truncate) cache records that state.json
		// does not count.
		appendJunk(t, dir)
		got, err := Resume(context.Background(), dir, settings(t, cfg, ""))
		if err != nil {
			t.Fatal(err)
		}
		compare(t, dir, got)
		if _, err := Resume(context.Background(), dir, settings(t, cfg, "")); err == nil || !strings.Contains(err.Error(), "already complete") {
			t.Errorf("resuming a finished run: %v", err)
		}
	})

	t.Run("mid-generation, twice, other worker count", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "run")
		// Cancel after a number of candidate simulations that falls inside
		// generation 3, then again inside generation 4 of the resumed run.
		stopAt := int64(0)
		for _, r := range want.Generations[:3] {
			stopAt += r.Evaluations
		}
		stopAt += want.Generations[3].Evaluations / 2
		if want.Generations[3].Evaluations < 2 || want.Generations[4].Evaluations < 2 {
			t.Fatal("generations 3 and 4 ran too few simulations to interrupt inside them; pick another setting")
		}
		var n atomic.Int64
		ctx, cancel := context.WithCancel(context.Background())
		s := settings(t, cfg, dir)
		s.onSimulation = func() {
			if n.Add(1) == stopAt {
				cancel()
			}
		}
		_, err := Run(ctx, s)
		var intr *InterruptedError
		if !errors.As(err, &intr) || intr.Generation != 2 {
			t.Fatalf("want an interruption with generation 2 checkpointed, got %v", err)
		}
		appendJunk(t, dir)
		ctx2, cancel2 := context.WithCancel(context.Background())
		n.Store(0)
		cfg4, _ := cfg.Override("gp.workers=4")
		s2 := settings(t, cfg4, "")
		s2.onSimulation = func() {
			if n.Add(1) == want.Generations[3].Evaluations+max(1, want.Generations[4].Evaluations/2) {
				cancel2()
			}
		}
		_, err = Resume(ctx2, dir, s2)
		if !errors.As(err, &intr) || intr.Generation != 3 {
			t.Fatalf("want a second interruption with generation 3 checkpointed, got %v", err)
		}
		cancel()
		got, err := Resume(context.Background(), dir, settings(t, cfg, ""))
		if err != nil {
			t.Fatal(err)
		}
		compare(t, dir, got)
	})
}

// appendJunk simulates a crash between appending to the cache log and
// replacing state.json: records that state.json does not count.
func appendJunk(t *testing.T, dir string) {
	t.Helper()
	f, err := os.OpenFile(filepath.Join(dir, CheckpointDir, cacheFile), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Write(bytes.Repeat([]byte{0xAB}, 2*cacheRecord+7)); err != nil {
		t.Fatal(err)
	}
}

func TestBadInput(t *testing.T) {
	parent := t.TempDir()
	out := filepath.Join(parent, "run")
	cfg := testConfig(t)
	good := settings(t, cfg, out)

	for _, o := range []string{"gp.population=1", "gp.max_depth=1"} {
		if _, err := cfg.Override(o); err == nil {
			t.Errorf("%s accepted by the config", o)
		}
	}
	bad := func(name string, s Settings, want string) {
		t.Helper()
		_, err := Run(context.Background(), s)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want an error containing %q", name, err, want)
		}
	}
	s := good
	s.Config.GP.Population = 1
	bad("population 1", s, "gp.population")
	s = good
	s.Config.GP.MaxDepth = 1
	bad("max depth 1", s, "gp.max_depth")
	s = good
	s.Config.GP.Subset = len(good.Train) + 1
	bad("subset larger than the training set", s, "larger than the training set")
	s = good
	s.Validation = nil
	bad("no validation set", s, "validation set is empty")
	s = good
	s.Train = append([]simcore.Instance{{Name: "broken"}}, s.Train...)
	bad("invalid instance", s, "broken")
	if entries, _ := os.ReadDir(parent); len(entries) != 0 {
		t.Fatalf("failed runs left %d entries in %s", len(entries), parent)
	}

	// An unreadable dataset directory is a clear error.
	cfgDir := cfg
	cfgDir.Data.TrainDir = filepath.Join(parent, "missing")
	if _, _, err := LoadData(cfgDir); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Errorf("missing training dataset: %v", err)
	}

	// Resume from a directory made with another config.
	cfg2 := testConfig(t, "gp.generations=2")
	dir := filepath.Join(parent, "done")
	ctx, cancel := context.WithCancel(context.Background())
	s = settings(t, cfg2, dir)
	s.OnGeneration = func(Snapshot) { cancel() }
	if _, err := Run(ctx, s); err == nil {
		t.Fatal("cancelled run returned no error")
	}
	other, _ := cfg2.Override("seed=7")
	if _, err := Resume(context.Background(), dir, settings(t, other, "")); err == nil || !strings.Contains(err.Error(), "differs") {
		t.Errorf("resume with another config: %v", err)
	}
	workers, _ := cfg2.Override("gp.workers=3")
	if _, err := Resume(context.Background(), dir, settings(t, workers, "")); err != nil {
		t.Errorf("resume with another worker count must work: %v", err)
	}
	if _, err := Resume(context.Background(), filepath.Join(parent, "nope"), settings(t, cfg2, "")); err == nil || !strings.Contains(err.Error(), "no checkpoint") {
		t.Errorf("resume of a missing directory: %v", err)
	}
	// A non-empty output directory is refused.
	if _, err := Run(context.Background(), settings(t, cfg2, dir)); err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Errorf("run into a non-empty directory: %v", err)
	}
}

// TestLearnedNotWorseThanSRSF is the honest check: on a small fixed setting
// the learned function's mean normalised objective on held-out instances
// (a test split never seen in training or selection) is at most SRSF's 1.
func TestLearnedNotWorseThanSRSF(t *testing.T) {
	cfg := testConfig(t, "gp.generations=8", "gp.population=24", "data.train=8", "data.validation=4", "gp.subset=3")
	res, err := Run(context.Background(), settings(t, cfg, filepath.Join(t.TempDir(), "run")))
	if err != nil {
		t.Fatal(err)
	}
	test, err := datasets.Generate(cfg.Generator.Settings(), datasets.SplitSeed(cfg.Seed, "test"), 8)
	if err != nil {
		t.Fatal(err)
	}
	opts, _ := SimOptions(cfg)
	ev, err := newEvaluator(nil, test, opts, false, 0, "mct", "bestfit", evo.DefaultParams())
	if err != nil {
		t.Fatal(err)
	}
	if err := ev.baselines(context.Background()); err != nil {
		t.Fatal(err)
	}
	scores, err := ev.validate(context.Background(), rankingOnly([]*expr.Tree{res.Best}))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("learned %s: validation %.4f, held-out test %.4f", res.Simplified, res.Validation, scores[0])
	// The normalisation is right: with d in seconds, g*d is SRSF exactly.
	evs, _ := newEvaluator(nil, test, opts, true, 0, "mct", "bestfit", evo.DefaultParams())
	evs.baseVal = ev.baseVal
	srsf, err := evs.validate(context.Background(), rankingOnly([]*expr.Tree{expr.MustParse("g*d")}))
	if err != nil {
		t.Fatal(err)
	}
	if srsf[0] != 1 {
		t.Errorf("g*d with d in seconds scores %v, want exactly 1 (it is SRSF)", srsf[0])
	}
	if scores[0] > 1 {
		t.Errorf("learned function scores %v on held-out instances, worse than SRSF", scores[0])
	}
}

func TestNormalise(t *testing.T) {
	for _, c := range []struct{ obj, base, want float64 }{
		{2, 4, 0.5}, {4, 4, 1}, {0, 0, 1}, {0.5, 0, 1.5},
	} {
		if got := normalise(c.obj, c.base); got != c.want {
			t.Errorf("normalise(%v, %v) = %v, want %v", c.obj, c.base, got, c.want)
		}
	}
}

// testCandidate is the default candidate scheduler mct + r + best fit.
func testCandidate(t *testing.T, r simcore.Ranking) simcore.Scheduler {
	t.Helper()
	s, err := policies.ParseWith("mct+formula+bestfit", map[string]simcore.Ranking{"formula": r})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// A run killed with SIGKILL stays in its hidden work directory
// (.NAME.tmp-*); --resume NAME finds it, and a cache.bin cut short by the
// kill is dropped with a warning, not fatal. The formula is the same as an
// uninterrupted run's.
func TestResumeAfterHardKill(t *testing.T) {
	cfg := testConfig(t, "gp.generations=4", "gp.population=12")
	ref := filepath.Join(t.TempDir(), "ref")
	want, err := Run(context.Background(), settings(t, cfg, ref))
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	dir := filepath.Join(root, "run")
	interruptAfter(t, cfg, dir, 2)
	// What a SIGKILL leaves: the work directory never renamed into place,
	// with a cache file cut mid-record.
	hidden := filepath.Join(root, ".run.tmp-123")
	if err := os.Rename(dir, hidden); err != nil {
		t.Fatal(err)
	}
	cache := filepath.Join(hidden, CheckpointDir, cacheFile)
	if fi, err := os.Stat(cache); err == nil && fi.Size() > 0 {
		os.Truncate(cache, fi.Size()-7)
	}
	if _, err := RunConfig(dir); err != nil {
		t.Fatalf("RunConfig does not find the interrupted run: %v", err)
	}
	got, err := Resume(context.Background(), dir, settings(t, cfg, ""))
	if err != nil {
		t.Fatal(err)
	}
	if got.Best.String() != want.Best.String() || !bytes.Equal(readFile(t, filepath.Join(ref, BestFile)), readFile(t, filepath.Join(dir, BestFile))) {
		t.Fatalf("resumed best %s differs from %s", got.Best, want.Best)
	}
	if _, err := os.Stat(hidden); !os.IsNotExist(err) {
		t.Fatal("the hidden work directory is still there")
	}
}

// interruptAfter runs cfg into dir and cancels it once generation gen is
// checkpointed, as Ctrl-C would.
func interruptAfter(t *testing.T, cfg configs.Config, dir string, gen int64) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := settings(t, cfg, dir)
	s.OnGeneration = func(snap Snapshot) {
		if snap.Row.Generation == gen {
			cancel()
		}
	}
	var intr *InterruptedError
	if _, err := Run(ctx, s); !errors.As(err, &intr) || intr.Generation != int(gen) {
		t.Fatalf("want an interruption after generation %d, got %v", gen, err)
	}
}

package learn

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/internal/runlog"
	"github.com/evogp/evogp/simcore"
)

// twoTreeOverrides make the smoke config learn routing and ranking.
func twoTreeOverrides(scope string, extra ...string) []string {
	terms := "d,g,f,W,n,x,o,h,m"
	seeds := "m,W,0-o"
	if scope == "all" {
		terms, seeds = "d,g,f,W,n,x,o,h", "W,x,0-o"
	}
	return append([]string{"gp.learn=routing,ranking", "gp.routing_terminals=" + terms, "gp.scope=" + scope,
		"gp.seed_routing=" + seeds, "gp.tree_swap=0.2", "gp.dedup=behaviour", "gp.generations=4", "gp.population=12"}, extra...)
}

// A two-tree run is byte-identical across runs and worker counts, in both
// scopes; its best.json holds both trees, their terminal sets and the
// scope, and reads back (ReadBest); its learned row on the test table is
// the rule scheduler of those trees.
func TestTwoTreeRunDeterministic(t *testing.T) {
	for _, scope := range []string{"arrivals", "all"} {
		t.Run(scope, func(t *testing.T) {
			var rows [2][]GenerationRow
			var files [2][][]byte
			for k, w := range []string{"gp.workers=1", "gp.workers=4"} {
				cfg := testConfig(t, twoTreeOverrides(scope, w)...)
				out := filepath.Join(t.TempDir(), "run")
				res, err := Run(context.Background(), settings(t, cfg, out))
				if err != nil {
					t.Fatal(err)
				}
				if res.Routing == nil || res.Routing.Catalogue() != expr.Routing {
					t.Fatalf("no routing tree in the result: %+v", res)
				}
				rows[k] = res.Generations
				for _, f := range []string{BestFile, HallFile, FormulaGoFile, PlotName + ".svg"} {
					files[k] = append(files[k], readFile(t, filepath.Join(out, f)))
				}
				best, err := ReadBest(filepath.Join(out, BestFile))
				if err != nil {
					t.Fatal(err)
				}
				if !best.RoutingTree.Tree.Equal(res.Routing) || !best.Tree.Equal(res.Best) || best.Scope != scope ||
					best.Candidate != "rule+formula+bestfit" || len(best.RoutingTerminals) == 0 || !strings.Contains(best.Infix, "") {
					t.Errorf("best.json does not record the learned pair: %+v", best)
				}
				if !strings.HasPrefix(res.Generations[0].BestFormula, "R = ") {
					t.Errorf("generations name the individual as %q, want both trees", res.Generations[0].BestFormula)
				}
				if l := res.Test.Row(RowLearned); !strings.HasPrefix(l.Spec, "R = ") {
					t.Errorf("the test table's learned row is %q, want both trees", l.Spec)
				}
				// The learned row is the rule scheduler of the two trees:
				// simulate it by hand on the test split.
				test, err := LoadTest(cfg)
				if err != nil {
					t.Fatal(err)
				}
				sched, err := LearnedScheduler(cfg, res.RoutingSimplified, res.Simplified)
				if err != nil {
					t.Fatal(err)
				}
				opts, _ := SimOptions(cfg)
				for i := range test {
					r, err := simcore.Simulate(context.Background(), &test[i], sched, opts)
					if err != nil {
						t.Fatal(err)
					}
					if got := res.Test.Row(RowLearned).Objectives[i]; got != r.Metrics.Objective {
						t.Errorf("test instance %d: learned row %v, the rule scheduler by hand %v", i, got, r.Metrics.Objective)
					}
				}
			}
			rowsEqual(t, rows[0], rows[1])
			for i := range files[0] {
				if !bytes.Equal(files[0][i], files[1][i]) {
					t.Errorf("output %d differs between 1 and 4 workers", i)
				}
			}
		})
	}
}

// A two-tree run interrupted after a generation and resumed (with another
// worker count) writes what an uninterrupted run writes.
func TestTwoTreeResumeIsIdentical(t *testing.T) {
	cfg := testConfig(t, twoTreeOverrides("all")...)
	ref := filepath.Join(t.TempDir(), "ref")
	want, err := Run(context.Background(), settings(t, cfg, ref))
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "run")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := settings(t, cfg, dir)
	s.OnGeneration = func(snap Snapshot) {
		if snap.Population[0].Routing == nil {
			t.Error("a snapshot member without its routing tree")
		}
		if snap.Row.Generation == 2 {
			cancel()
		}
	}
	_, err = Run(ctx, s)
	var intr *InterruptedError
	if !errors.As(err, &intr) || intr.Generation != 2 {
		t.Fatalf("want an interruption after generation 2, got %v", err)
	}
	appendJunk(t, dir)
	cfg4, _ := cfg.Override("gp.workers=4")
	got, err := Resume(context.Background(), dir, settings(t, cfg4, ""))
	if err != nil {
		t.Fatal(err)
	}
	rowsEqual(t, want.Generations, got.Generations)
	for _, f := range []string{BestFile, HallFile, FormulaGoFile, FormulaTeXFile, PlotName + ".svg"} {
		if !bytes.Equal(readFile(t, filepath.Join(ref, f)), readFile(t, filepath.Join(dir, f))) {
			t.Errorf("%s differs after resume", f)
		}
	}
	if disk, err := runlog.Read(filepath.Join(dir, GenerationsFile)); err != nil || len(disk) != len(want.Generations) {
		t.Fatalf("generations.parquet: %d rows, %v", len(disk), err)
	}
}

// A best.json of a two-tree run with one tree missing is refused clearly.
func TestReadBestMissingTree(t *testing.T) {
	cfg := testConfig(t, twoTreeOverrides("arrivals", "gp.generations=1", "gp.population=4")...)
	out := filepath.Join(t.TempDir(), "run")
	if _, err := Run(context.Background(), settings(t, cfg, out)); err != nil {
		t.Fatal(err)
	}
	raw := readFile(t, filepath.Join(out, BestFile))
	for _, c := range []struct{ cut, want string }{
		{`"routing_tree"`, "the routing tree is missing"},
		{`"tree"`, `no "tree"`},
	} {
		bad := cutKey(t, raw, c.cut)
		path := filepath.Join(t.TempDir(), BestFile)
		writeFile(t, path, bad)
		if _, err := ReadBest(path); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("without %s: %v, want %q", c.cut, err, c.want)
		}
	}
}

func writeFile(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// cutKey drops a top-level key from a JSON object.
func cutKey(t *testing.T, raw []byte, key string) []byte {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	delete(m, strings.Trim(key, `"`))
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

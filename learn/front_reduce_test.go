package learn

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/runfile"
)

// Every front member's reduced pair (not only the pick's) gives the
// byte-identical schedule as its evolved pair on every instance it was
// checked on (all training and validation instances), re-simulated here;
// it is never larger, and the member prints it first. One-tree and
// two-tree fronts.
func TestFrontMembersReducedIdentical(t *testing.T) {
	for name, extra := range map[string][]string{
		"one-tree": {"objective.omega=0.3", "gp.generations=6", "gp.population=24", "seed=3"},
		"two-tree": twoTreeOverrides("arrivals", "objective.kind=multi", "gp.objectives=[cq_avg,cq_max]", "objective.omega=0.4"),
	} {
		t.Run(name, func(t *testing.T) {
			cfg := frontConfig(t, extra...)
			out := filepath.Join(t.TempDir(), "run")
			res, err := Run(context.Background(), settings(t, cfg, out))
			if err != nil {
				t.Fatal(err)
			}
			f := readBestJSON(t, out).Front
			if f == nil || len(f.Members) == 0 {
				t.Fatal("no front")
			}
			if fr := res.FrontReduction; fr == nil || fr.Members != len(f.Members) {
				t.Errorf("FrontReduction %+v for %d members", fr, len(f.Members))
			}
			ev := reduceEvaluator(t, cfg, 2)
			smaller := 0
			for i, m := range f.Members {
				if m.Reduced == "" || m.ReducedInfix == "" || m.SimplifiedFormula() != m.Reduced {
					t.Fatalf("member %d (%s) is not reduced: %+v", i, m.Label, m)
				}
				ranking, err := expr.Parse(m.ReducedInfix)
				if err != nil {
					t.Fatal(err)
				}
				var routing *expr.Tree
				if (m.Routing.Tree != nil) != (m.ReducedRoutingInfix != "") {
					t.Fatalf("member %d: routing tree %v, reduced routing %q", i, m.Routing.Tree, m.ReducedRoutingInfix)
				}
				if m.ReducedRoutingInfix != "" {
					if routing, err = expr.Routing.Parse(m.ReducedRoutingInfix); err != nil {
						t.Fatal(err)
					}
				}
				size := ranking.Size()
				if routing != nil {
					size += routing.Size()
				}
				if size != m.ReducedSize || size > m.Size {
					t.Errorf("member %d: reduced size %d (recorded %d), simplified evolved %d", i, size, m.ReducedSize, m.Size)
				}
				if size < m.Size {
					smaller++
				}
				evolved := schedules(t, ev, individual{m.Routing.Tree, m.Tree})
				reduced := schedules(t, ev, individual{routing, ranking})
				if k := sameBytes(evolved, reduced); k >= 0 {
					t.Errorf("member %d: %s schedules instance %d differently from %s", i, m.Reduced, k, m.Formula())
				}
				if i == f.Pick && (!res.Reduced.Ranking.Equal(ranking) || (routing != nil && !res.Reduced.Routing.Equal(routing))) {
					t.Errorf("the pick's reduced pair %s is not the run's %v ; %v", m.Reduced, res.Reduced.Routing, res.Reduced.Ranking)
				}
			}
			if res.FrontReduction.Reduced != smaller {
				t.Errorf("FrontReduction.Reduced %d, %d members are smaller", res.FrontReduction.Reduced, smaller)
			}
			t.Logf("%d members, %d smaller after reduction, %d candidates, %v", len(f.Members), smaller, res.FrontReduction.Tried, res.FrontReduction.Elapsed)
		})
	}
}

// The reduced front (best.json, front.parquet) is byte-identical with 1
// and 3 workers: a run (its small front is reduced), and a front of
// several hand-made and random members reduced by reduceFront.
func TestFrontReduceWorkers(t *testing.T) {
	var files [2][][]byte
	for k, w := range []string{"gp.workers=1", "gp.workers=3"} {
		cfg := frontConfig(t, "objective.omega=0.3", "gp.generations=6", "gp.population=24", "seed=2", w) // seed 2: front-1 is reduced 3 → 1 node (seed 3 was before the retired pool)
		out := filepath.Join(t.TempDir(), "run")
		if _, err := Run(context.Background(), settings(t, cfg, out)); err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{BestFile, FrontFile} {
			files[k] = append(files[k], readFile(t, filepath.Join(out, name)))
		}
		if f := readBestJSON(t, out).Front; f == nil || f.Members[0].Reduced == "" || f.Members[0].ReducedSize >= f.Members[0].Size {
			t.Fatalf("%s: want a front whose first member is reduced to fewer nodes, got %+v", w, f)
		}
		front, _ := reducedTestFront(t, k*2+1)
		b, err := json.Marshal(front)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), FrontFile)
		if err := runfile.WriteFront(path, front); err != nil {
			t.Fatal(err)
		}
		files[k] = append(files[k], b, readFile(t, path))
	}
	for i, name := range []string{BestFile, FrontFile, "members' front.json", "members' front.parquet"} {
		if !bytes.Equal(files[0][i], files[1][i]) {
			t.Errorf("%s differs between 1 and 3 workers", name)
		}
	}
}

// reducedTestFront is a front of hand-made bloated members and random
// ones on queued instances (the order matters), reduced by reduceFront
// with the given number of workers, and its evaluator.
func reducedTestFront(t *testing.T, workers int) (*Front, *evaluator) {
	t.Helper()
	cfg := testConfig(t, "data.train=2", "data.validation=1", "generator.jobs_per_node=3", "generator.load_min=3", "generator.load_max=4", "gp.terminals=d,q,u,g,a")
	ev := reduceEvaluator(t, cfg, workers)
	terms, err := expr.ParseTerminals(cfg.GP.Terminals)
	if err != nil {
		t.Fatal(err)
	}
	trees := []*expr.Tree{
		expr.MustParse("a - (0 - (0 - a) % (d + q + q * g))"), expr.MustParse("d + (q - q) * u"),
		expr.MustParse("q * (g % g) + d % d"), expr.MustParse("a"),
	}
	rng := rand.New(rand.NewPCG(41, 7))
	for k := range 6 {
		trees = append(trees, expr.Grow(rng, 2+k%3, expr.GenSettings{Terminals: terms, Constants: true}))
	}
	f := &Front{Objectives: []string{"avg_jct", "size"}, Pick: 1}
	for i, tr := range trees {
		ind := individual{ranking: tr}
		f.Members = append(f.Members, FrontMember{Label: fmt.Sprintf("front-%d", i+1), Tree: tr, Infix: tr.String(), Simplified: expr.Simplify(tr).String(),
			Size: expr.Simplify(tr).Size(), Hash: fmt.Sprintf("%016x", ind.hash()), Validation: []float64{1, float64(i)}, Dominates: []string{}})
	}
	leaves := expr.ReductionLeaves(terms)
	pick, err := ev.reduce(context.Background(), individual{ranking: trees[f.Pick]}, leaves, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := &runner{ev: ev}
	res := &Result{Front: f}
	if err := r.reduceFront(context.Background(), res, pick, leaves, nil); err != nil {
		t.Fatal(err)
	}
	if res.FrontReduction == nil || res.FrontReduction.Members != len(trees) {
		t.Fatalf("FrontReduction %+v", res.FrontReduction)
	}
	return f, ev
}

// Every member of a front of several members is reduced: its reduced tree
// schedules every checked instance byte for byte as its evolved tree, is
// never larger, and some members get smaller (not vacuous).
func TestFrontReduceMembers(t *testing.T) {
	f, ev := reducedTestFront(t, 2)
	smaller := 0
	for i, m := range f.Members {
		red, err := expr.Parse(m.ReducedInfix)
		if err != nil || m.Reduced == "" || m.SimplifiedFormula() != m.Reduced {
			t.Fatalf("member %d: reduced %q (%q): %v", i, m.Reduced, m.ReducedInfix, err)
		}
		if red.Size() != m.ReducedSize || red.Size() > m.Size {
			t.Errorf("member %d: %s has %d nodes (recorded %d), evolved simplified %d", i, red, red.Size(), m.ReducedSize, m.Size)
		}
		if red.Size() < m.Size {
			smaller++
		}
		if k := sameBytes(schedules(t, ev, individual{ranking: m.Tree}), schedules(t, ev, individual{ranking: red})); k >= 0 {
			t.Errorf("member %d: %s schedules instance %d differently from %s", i, red, k, m.Tree)
		}
		t.Logf("%s: %s -> %s", m.Label, m.Simplified, m.Reduced)
	}
	if smaller < 3 {
		t.Errorf("only %d of %d members got smaller", smaller, len(f.Members))
	}
}

package learn

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/internal/pareto"
)

// A hand case: entry A entered the archive on instance 0 with (1, 1); in
// the next generation, on instance 1, the population holds B with (2, 2)
// and A is not re-evaluated, but A's terms on instance 1 are (3, 3). The
// old rule compared A's (1, 1) of instance 0 with B's (2, 2) of instance
// 1, kept A and dropped B — though on instance 1 B dominates A. Re-scored
// on instance 1 A is (3, 3) and the archive is {B}.
func TestArchiveRescoredOnTheSameInstances(t *testing.T) {
	a, b := mustParse(t, "d"), mustParse(t, "q")
	f := &frontState{names: []string{"avg_jct", "max_qt"}, comp: map[cacheKey][]float64{}, sizes: map[uint64]int{}}
	ev := &evaluator{cache: map[cacheKey]float64{}, bounds: map[cacheKey]float64{}}
	term := func(tr *expr.Tree, inst int32, jct, qt float64) {
		k := cacheKey{tr.Hash(), inst}
		f.comp[k] = []float64{jct, qt}
		ev.cache[k] = 0.5*jct + 0.5*qt
	}
	term(a, 0, 1, 1)
	term(a, 1, 3, 3)
	term(b, 1, 2, 2)
	f.archive = updateArchive(nil, []scored{{tree: a, hash: a.Hash(), objs: []float64{1, 1}}}, 1)
	gen2 := []scored{{tree: b, hash: b.Hash(), objs: []float64{2, 2}}}

	old := updateArchive(f.archive, gen2, 2)
	if len(old) != 1 || !old[0].Tree.Equal(a) {
		t.Fatalf("the old rule's archive %+v: the hand case expects it to keep only A", old)
	}
	st, err := f.rescoreArchive(context.Background(), ev, gen2, []int{1})
	if err != nil {
		t.Fatal(err)
	}
	if st.evals != 0 || st.hits != 1 || st.sims != 0 {
		t.Errorf("re-scoring A from the caches counted %+v, want one cache hit", st)
	}
	if got := f.archive[0].Objectives; got[0] != 3 || got[1] != 3 {
		t.Fatalf("A re-scored on instance 1: %v, want [3 3]", got)
	}
	now := updateArchive(f.archive, gen2, 2)
	if len(now) != 1 || !now[0].Tree.Equal(b) || now[0].Objectives[0] != 2 {
		t.Fatalf("archive %+v, want only B (2, 2)", now)
	}
}

// In a real run, after every generation, every archive entry's objectives
// are its mean components on that generation's subset (from the
// checkpointed component cache), so the archive compares vectors of the
// same instances, and no entry dominates another there. Some entries must
// survive generations in which they were not re-evaluated, or the test
// shows nothing.
func TestArchiveNeverDominatedOnTheSameInstances(t *testing.T) {
	for _, extra := range [][]string{
		{"gp.early_stop=true"},
		{"gp.objectives=[cq_avg,cq_max,util]", "objective.kind=multi", "gp.dedup=behaviour"},
	} {
		cfg := frontConfig(t, append([]string{"gp.generations=6", "gp.population=12"}, extra...)...)
		dir := filepath.Join(t.TempDir(), "run")
		s := settings(t, cfg, dir)
		carried, gens := 0, 0
		var failed error
		s.OnGeneration = func(snap Snapshot) {
			if failed != nil {
				return
			}
			// The run works in a temporary sibling of dir until it ends.
			work, err := filepath.Glob(filepath.Join(filepath.Dir(dir), ".run.tmp-*", CheckpointDir))
			if err != nil || len(work) != 1 {
				failed = fmt.Errorf("work directories %v (%v)", work, err)
				return
			}
			ck, _, _, err := loadCheckpoint(work[0])
			if err == nil && (ck == nil || ck.Front == nil) {
				err = fmt.Errorf("generation %d: no front checkpoint in %s", snap.Row.Generation, work[0])
			}
			if err != nil {
				failed = err
				return
			}
			comp := map[cacheKey][]float64{}
			for _, c := range ck.Front.Components {
				comp[cacheKey{c.Hash, c.Instance}] = c.Values
			}
			g := int(snap.Row.Generation)
			gens++
			arch := ck.Front.Archive
			for i, a := range arch {
				h := individualHash(a.Routing.Tree, a.Tree)
				want := make([]float64, len(a.Objectives))
				for _, inst := range snap.Subset {
					v, ok := comp[cacheKey{h, int32(inst)}]
					if !ok {
						t.Fatalf("%v generation %d: archive entry %v has no component on instance %d", extra, g, a.Tree, inst)
					}
					for k := range want {
						want[k] += v[k]
					}
				}
				for k := range want {
					want[k] /= float64(len(snap.Subset))
					if want[k] != a.Objectives[k] {
						t.Fatalf("%v generation %d: archive entry %v objectives %v, on the subset %v they are %v", extra, g, a.Tree, a.Objectives, snap.Subset, want)
					}
				}
				if a.Generation < g {
					carried++
				}
				for j, b := range arch {
					if i != j && pareto.Dominates(b.Objectives, a.Objectives) {
						t.Fatalf("%v generation %d: archive entry %v %v is dominated by %v %v", extra, g, a.Tree, a.Objectives, b.Tree, b.Objectives)
					}
				}
			}
		}
		if _, err := Run(context.Background(), s); err != nil {
			t.Fatal(err)
		}
		if failed != nil {
			t.Fatal(failed)
		}
		if gens != 7 || carried == 0 {
			t.Errorf("%v: %d generations checked, %d entries carried over from an earlier generation (want 7 and > 0)", extra, gens, carried)
		}
	}
}

// A two-tree front (gp.learn: [routing, ranking]): every member has its
// routing tree, its size counts both simplified trees, the run's routing
// tree is the pick's, front.parquet's formula names both trees, and
// export --omega refuses it (it would write the ranking half only).
func TestFrontTwoTrees(t *testing.T) {
	cfg := frontConfig(t, twoTreeOverrides("arrivals", "objective.kind=multi", "gp.objectives=[cq_avg,cq_max]", "objective.omega=0.4")...)
	out := filepath.Join(t.TempDir(), "run")
	res, err := Run(context.Background(), settings(t, cfg, out))
	if err != nil {
		t.Fatal(err)
	}
	b := readBestJSON(t, out)
	f := b.Front
	if f == nil || len(f.Members) == 0 {
		t.Fatal("no front")
	}
	for i, m := range f.Members {
		rt := m.Routing.Tree
		if rt == nil || m.RoutingInfix != rt.String() || m.RoutingSimplified != expr.Simplify(rt).String() {
			t.Fatalf("member %d has no consistent routing tree: %+v", i, m)
		}
		if want := expr.Simplify(rt).Size() + expr.Simplify(m.Tree).Size(); m.Size != want {
			t.Errorf("member %d size %d, want %d (both simplified trees)", i, m.Size, want)
		}
		if m.Hash != fmt.Sprintf("%016x", individualHash(rt, m.Tree)) {
			t.Errorf("member %d hash %s is not the individual's", i, m.Hash)
		}
	}
	pick := f.Members[f.Pick]
	// Issue 40: the pick shows the run's reduced pair, and every member
	// its own (the front table and front.parquet print SimplifiedFormula),
	// both trees of it (TestFrontMembersReducedIdentical checks the
	// schedules).
	if r := b.Reduced; r == nil || pick.Reduced != "R = "+r.RoutingReadable+" ; f = "+r.Readable || pick.SimplifiedFormula() != pick.Reduced {
		t.Errorf("the pick's reduced formula %q, best.json reduced %+v", pick.Reduced, b.Reduced)
	}
	for i, m := range f.Members {
		if m.Reduced == "" || m.ReducedInfix == "" || m.ReducedRoutingInfix == "" || m.SimplifiedFormula() != m.Reduced {
			t.Errorf("member %d has no reduced pair: %q (%q ; %q)", i, m.Reduced, m.ReducedRoutingInfix, m.ReducedInfix)
		}
	}
	if !res.Routing.Equal(pick.Routing.Tree) || !res.Best.Equal(pick.Tree) || b.RoutingInfix != pick.RoutingInfix {
		t.Errorf("the run's individual R = %v ; f = %v is not the pick %s", res.Routing, res.Best, pick.Formula())
	}
	if _, _, err := OmegaInfix(filepath.Join(out, BestFile), 0.5); err == nil || !strings.Contains(err.Error(), "routing tree") {
		t.Errorf("OmegaInfix of a two-tree front: %v", err)
	}
	for _, omega := range []float64{0, 0.5, 1} { // export --omega: the picked member with both trees
		m, err := OmegaMember(filepath.Join(out, BestFile), omega)
		i, perr := f.PickOmega(omega)
		if err != nil || perr != nil || m.RoutingInfix == "" || m.Label != f.Members[i].Label || m.RoutingInfix != f.Members[i].RoutingInfix {
			t.Errorf("OmegaMember(%v) = %s %q, %v; want member %d with its routing tree (%v)", omega, m.Label, m.RoutingInfix, err, i, perr)
		}
	}
}

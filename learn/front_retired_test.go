package learn

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/evogp/evogp/expr"
)

// A hand case of the retired pool: entries that leave the archive go to
// the pool in the order they left (latest last), an entry that comes back
// into the archive leaves the pool, the pool keeps the most recent cap
// entries, and the front's candidates are the archive's then the pool's,
// each individual once.
func TestRetiredPoolHandCase(t *testing.T) {
	tr := map[string]*expr.Tree{}
	for _, s := range []string{"d", "q", "u", "g", "a"} {
		tr[s] = mustParse(t, s)
	}
	sc := func(s string, o ...float64) scored { return scored{tree: tr[s], hash: tr[s].Hash(), objs: o} }
	names := func(es []ArchiveEntry) string {
		out := ""
		for _, e := range es {
			out += e.Tree.String()
		}
		return out
	}
	f := &frontState{names: []string{"cq_avg", "cq_max"}, retiredCap: 2}
	step := func(g int, all ...scored) {
		old := f.archive
		f.archive = updateArchive(f.archive, all, g)
		f.retire(old)
	}
	// Generation 0: d and q trade off, u is dominated by d (never in the
	// archive, so never retired).
	step(0, sc("d", 1, 3), sc("q", 3, 1), sc("u", 2, 4))
	if names(f.archive) != "dq" || len(f.retired) != 0 {
		t.Fatalf("gen 0: archive %q, pool %q", names(f.archive), names(f.retired))
	}
	// Generation 1: g dominates d, a dominates q: both retire, d first
	// (the archive's order).
	step(1, sc("g", 0.5, 2.5), sc("a", 2.5, 0.5))
	if names(f.archive) != "ga" || names(f.retired) != "dq" {
		t.Fatalf("gen 1: archive %q, pool %q; want ga, dq", names(f.archive), names(f.retired))
	}
	// Generation 2: d comes back (non-dominated on this subset) and
	// dominates g: d leaves the pool, g retires.
	step(2, sc("d", 0.4, 2.4))
	if names(f.archive) != "da" || names(f.retired) != "qg" {
		t.Fatalf("gen 2: archive %q, pool %q; want da, qg", names(f.archive), names(f.retired))
	}
	// Generation 3: u dominates both: d and a retire; the pool keeps the
	// 2 most recent (q is dropped).
	step(3, sc("u", 0.1, 0.1))
	if names(f.archive) != "u" || names(f.retired) != "da" {
		t.Fatalf("gen 3: archive %q, pool %q; want u, da (cap 2)", names(f.archive), names(f.retired))
	}
	got := ""
	for _, c := range f.candidates(nil) {
		got += c.ranking.String()
	}
	if got != "uda" {
		t.Errorf("candidates %q, want uda", got)
	}
	// An entry both in the archive and in a (restored) pool is a
	// candidate once.
	f.retired = append(f.retired, f.archive[0])
	if n := len(f.candidates(nil)); n != 3 {
		t.Errorf("%d candidates, want 3", n)
	}
}

// In the two-tree run TestFrontDeterministicAndResumable interrupts at
// generation 2 (its training subsets change every generation), the
// checkpoint of generation 2 holds a non-empty pool and a non-empty rank-0
// history (front_history.go), so the resume test's byte-identity covers
// both, and the front is formed from more candidates than the final
// archive.
func TestRetiredPoolInCheckpoint(t *testing.T) {
	for _, extra := range [][]string{twoTreeOverrides("arrivals", "objective.kind=multi", "gp.objectives=[cq_avg,cq_max,util]")} {
		cfg := frontConfig(t, append(append([]string(nil), extra...), "gp.generations=4", "gp.workers=1")...)
		dir := filepath.Join(t.TempDir(), "run")
		s := settings(t, cfg, dir)
		pool, hist := -1, -1
		var failed error
		s.OnGeneration = func(snap Snapshot) {
			if snap.Row.Generation != 2 {
				return
			}
			work, err := filepath.Glob(filepath.Join(filepath.Dir(dir), ".run.tmp-*", CheckpointDir))
			if err != nil || len(work) != 1 {
				failed = fmt.Errorf("work directories %v (%v)", work, err)
				return
			}
			ck, _, _, err := loadCheckpoint(work[0])
			if err != nil {
				failed = err
				return
			}
			pool, hist = len(ck.Front.Retired), len(ck.Front.RankZero)
		}
		if _, err := Run(context.Background(), s); err != nil {
			t.Fatal(err)
		}
		if failed != nil {
			t.Fatal(failed)
		}
		if pool <= 0 || hist <= 0 {
			t.Errorf("%v: the checkpoint of generation 2 holds %d retired entries and a rank-0 history of %d; the resume test needs some of each", extra, pool, hist)
		}
		f := readBestJSON(t, dir).Front
		if f.Retired <= 0 || f.Archive <= f.Retired {
			t.Errorf("%v: %d candidates of which %d retired", extra, f.Archive, f.Retired)
		}
	}
}

package learn

import (
	"testing"

	"github.com/evogp/evogp/expr"
)

// A hand case of the rank-0 history: each generation adds its rank-0
// members (first of each hash; a dominated member never enters), an
// individual of rank 0 again moves to the end, the history keeps the most
// recent cap entries, and the front's candidates add the history's and
// the final population's first two fronts to the archive and the pool,
// each individual once.
func TestRankZeroHistoryHandCase(t *testing.T) {
	tr := map[string]*expr.Tree{}
	for _, s := range []string{"d", "q", "u", "g", "a", "w", "r"} {
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
	f := &frontState{names: []string{"cq_avg", "cq_max"}, rank0Cap: 3}
	// Generation 0: d and q trade off, u is dominated; the second d is a
	// duplicate of the first.
	f.recordRankZero([]scored{sc("d", 1, 3), sc("q", 3, 1), sc("u", 2, 4), sc("d", 1, 3)}, 0)
	if names(f.rank0) != "dq" {
		t.Fatalf("gen 0: history %q, want dq", names(f.rank0))
	}
	// Generation 1: d is of rank 0 again (moves to the end), g is new, q
	// is dominated by g.
	f.recordRankZero([]scored{sc("q", 3, 3), sc("d", 1, 3), sc("g", 2, 2)}, 1)
	if names(f.rank0) != "qdg" || f.rank0[1].Generation != 1 {
		t.Fatalf("gen 1: history %q (d of generation %d), want qdg, 1", names(f.rank0), f.rank0[1].Generation)
	}
	// Generation 2: a joins; the cap of 3 drops q, the oldest.
	f.recordRankZero([]scored{sc("a", 0.5, 5), sc("u", 6, 6)}, 2)
	if names(f.rank0) != "dga" {
		t.Fatalf("gen 2: history %q, want dga (cap 3)", names(f.rank0))
	}
	// The final population: w and r are its rank 0 and 1, u its rank 2.
	pop := []scored{sc("u", 5, 5), sc("r", 2, 2), sc("w", 1, 1), sc("d", 3, 3)}
	got := ""
	for _, c := range leadingFronts(pop, 2) {
		got += c.ranking.String()
	}
	if got != "rw" {
		t.Errorf("the final population's first two fronts %q, want rw", got)
	}
	// Candidates: the archive (g), the pool (q, g again), the history (d,
	// g, a), the final fronts (r, w) — each once, in that order.
	f.archive = []ArchiveEntry{{Tree: tr["g"], hash: tr["g"].Hash()}}
	f.retired = []ArchiveEntry{{Tree: tr["q"], hash: tr["q"].Hash()}, {Tree: tr["g"], hash: tr["g"].Hash()}}
	got = ""
	for _, c := range f.candidates(pop) {
		got += c.ranking.String()
	}
	if got != "gqdarw" {
		t.Errorf("candidates %q, want gqdarw", got)
	}
}

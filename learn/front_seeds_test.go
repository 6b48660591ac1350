package learn

import (
	"context"
	"testing"

	"github.com/evogp/evogp/expr"
)

// A hand case of seedCandidates: seeds already among the candidates (the
// same pair) are not added twice, nor is a seed listed twice; in a
// two-tree run ranking seed i goes with routing seed i and a ranking seed
// without one is left out.
func TestSeedCandidatesHandCase(t *testing.T) {
	tr := func(s string) *expr.Tree { return mustParse(t, s) }
	rt := func(s string) *expr.Tree {
		tree, err := parseRouting(s)
		if err != nil {
			t.Fatal(err)
		}
		return tree
	}
	str := func(inds []individual) []string {
		var out []string
		for _, i := range inds {
			s := i.ranking.String()
			if i.routing != nil {
				s = i.routing.String() + "|" + s
			}
			out = append(out, s)
		}
		return out
	}
	cands := []individual{{ranking: tr("g * d")}, {ranking: tr("q")}}
	seeds := []*expr.Tree{tr("g * d"), tr("0 - a"), tr("d"), tr("0 - a")}
	got := str(seedCandidates(cands, seeds, nil, false))
	if want := []string{"0 - a", "d"}; !equalStrings(got, want) {
		t.Errorf("one tree: %v, want %v", got, want)
	}
	// Two trees: (m, g * d) is a candidate, (h, g * d) is not; the third
	// ranking seed has no routing seed.
	cands = []individual{{routing: rt("m"), ranking: tr("g * d")}}
	routes := []*expr.Tree{rt("m"), rt("h")}
	got = str(seedCandidates(cands, []*expr.Tree{tr("g * d"), tr("g * d"), tr("d")}, routes, true))
	if want := []string{"h|g * d"}; !equalStrings(got, want) {
		t.Errorf("two trees: %v, want %v", got, want)
	}
	if got := seedCandidates(cands, nil, routes, true); len(got) != 0 {
		t.Errorf("no ranking seed: %v", str(got))
	}
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestFinishPicksASeedTheRunLost: the final pick is made from the
// population, the hall of fame and the seeds, so a seeded formula that
// dropped out of both during the run (dev loaded 15 lost wait-first this
// way and returned a pair 16 % worse on validation) still wins when it is
// the best on validation. Here the population holds only 0 − d (longest
// first) and the seed is g·d (SRSF, exactly 1 on validation).
func TestFinishPicksASeedTheRunLost(t *testing.T) {
	cfg := testConfig(t, "gp.seed_formulas=[g * d]", "gp.population=4", "data.train=2", "data.validation=3", "data.test=0")
	s := settings(t, cfg, "")
	r, err := prepare(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	r.dir = t.TempDir()
	if err := r.ev.baselines(context.Background()); err != nil {
		t.Fatal(err)
	}
	bad := mustParse(t, "0 - d")
	r.pop = []scored{{tree: bad, hash: individualHash(nil, bad)}}
	r.hall = nil
	r.rows = []GenerationRow{{Best: 2, Median: 2, Worst: 2, BestFormula: "0 - d", Size: 3, Depth: 2, Unique: 1}}
	res := &Result{Generations: r.rows}
	if err := r.finish(context.Background(), res); err != nil {
		t.Fatal(err)
	}
	if got := res.Best.String(); got != "g * d" {
		t.Errorf("picked %s (validation %v), want the seed g * d", got, res.Validation)
	}
	if res.Validation != 1 {
		t.Errorf("the seed g * d is SRSF and scores %v on validation, want exactly 1", res.Validation)
	}
}

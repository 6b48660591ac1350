package learn

import (
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

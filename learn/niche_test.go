package learn

import (
	"slices"
	"testing"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/expr"
)

// A hand case of clearing by ranking tree (gp.niche). Six two-tree
// members on (cq_avg, cq_max):
//
//	0 (m, d)      (1, 4)     rank 0, crowding +Inf
//	1 (h + m, d)  (2, 2.5)   rank 0, crowding 2.5/3 + 2.5/3 = 5/3
//	2 (W, d)      (3.5, 1.5) rank 0, crowding 2/3 + 1.5/3 = 3.5/3
//	3 (x, q)      (4, 1)     rank 0, crowding +Inf
//	4 (m, u)      (3, 3)     rank 1 (dominated by 1)
//	5 (m, q)      (5, 5)     rank 2 (dominated by 4)
//
// Plain NSGA-II order: {0, 3} (+Inf, by hash), 1, 2, 4, 5. Ranking trees:
// d = {0, 1, 2}, q = {3, 5}, u = {4}. With K = 1 members 1, 2 (the 2nd
// and 3rd d) and 5 (the 2nd q) are cleared: {0, 3}, 4, 1, 2, 5. With K = 2
// only 2 (the 3rd d): {0, 3}, 1, 4, 5, 2.
func TestNicheClearsByRankingTreeHandCase(t *testing.T) {
	type m struct {
		routing, ranking string
		objs             []float64
	}
	ms := []m{
		{"m", "d", []float64{1, 4}}, {"h + m", "d", []float64{2, 2.5}}, {"W", "d", []float64{3.5, 1.5}},
		{"x", "q", []float64{4, 1}}, {"m", "u", []float64{3, 3}}, {"m", "q", []float64{5, 5}},
	}
	pop := make(scoredMembers, len(ms))
	for i, x := range ms {
		r, err := expr.Routing.Parse(x.routing)
		if err != nil {
			t.Fatal(err)
		}
		f := mustParse(t, x.ranking)
		pop[i] = scored{tree: f, routing: r, hash: individualHash(r, f), objs: x.objs,
			fitness: x.objs[0] + x.objs[1], pheno: uint64(i + 1)}
	}
	plain := nsgaOrder(pop)
	if !sameSet(plain[:2], []int{0, 3}) || !slices.Equal(plain[2:], []int{1, 2, 4, 5}) {
		t.Fatalf("plain NSGA-II order %v, want {0 3} 1 2 4 5", plain)
	}
	for _, c := range []struct {
		k    int
		rest []int // the order after {0, 3}
	}{{0, []int{1, 2, 4, 5}}, {1, []int{4, 1, 2, 5}}, {2, []int{1, 4, 5, 2}}, {3, []int{1, 2, 4, 5}}} {
		got := clearByRanking(pop, nsgaOrder(pop), c.k)
		if !slices.Equal(got[:2], plain[:2]) || !slices.Equal(got[2:], c.rest) {
			t.Errorf("K = %d: cleared order %v, want %v then %v", c.k, got, plain[:2], c.rest)
		}
		// Survival keeps the first n of that order, for every n, alone
		// and inside behavioural dedup (every phenotype distinct here).
		for n := 1; n <= len(pop); n++ {
			want := got[:n]
			for name, s := range map[string]Survival{"nsga2": NSGA2{Niche: c.k}, "dedup": Dedup{Inner: NSGA2{Niche: c.k}, Order: ByFitness}} {
				if sv := s.Survive(pop, n); !sameSet(sv, want) {
					t.Errorf("K = %d, n = %d, %s: survivors %v, want %v", c.k, n, name, sv, want)
				}
			}
		}
		// The parent tournament ranks members by the same order.
		pos := CrowdedTournament{Niche: c.k}.Prepare(pop).(positionTournament)
		for p, i := range got {
			if pos[i] != float64(p) {
				t.Errorf("K = %d: member %d has tournament position %v, want %d", c.k, i, pos[i], p)
			}
		}
	}
	// A population that shows no genomes is niched by the member's own
	// hash: every member is its own family, so nothing is cleared.
	if got := clearByRanking(subPopulation{hashesOnly{pop}, []int{0, 1, 2, 3, 4, 5}}, plain, 1); !slices.Equal(got, plain) {
		t.Errorf("without genomes: %v, want the plain order %v", got, plain)
	}
}

// hashesOnly hides the genomes of a population.
type hashesOnly struct{ Population }

func sameSet(a, b []int) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// Early stop's dominance bound assumes survival monotone in dominance, so
// it is off with clearing (and with behavioural dedup).
func TestFrontEarlyStopOffWithNiche(t *testing.T) {
	for _, c := range []struct {
		early bool
		niche int
		dedup bool
		want  bool
	}{{true, 0, false, true}, {true, 2, false, false}, {true, 0, true, false}, {false, 0, false, false}} {
		gp := configs.GP{EarlyStop: c.early, Niche: c.niche}
		if got := frontEarlyStop(gp, c.dedup); got != c.want {
			t.Errorf("early_stop %v, niche %d, dedup %v: %v, want %v", c.early, c.niche, c.dedup, got, c.want)
		}
	}
}

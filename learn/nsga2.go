package learn

import (
	"errors"
	mrand "math/rand"
	"slices"

	"github.com/evogp/evogp/internal/pareto"
)

// NSGA-II (Deb et al. 2002; SPEC §17) on the members' objective vectors
// (Population.Objectives): parents by a binary tournament on (rank,
// crowding distance) — CrowdedTournament — and survivors by non-dominated
// sorting with crowding distance from parents ∪ offspring — NSGA2.
//
// Both read the NSGA-II order of internal/pareto: rank ascending, crowding
// distance descending, then canonical hash, then index — with gp.niche K
// > 0 cleared by ranking tree (niche.go): of the members that share a
// ranking tree only the K first in that order keep their place, the
// others follow every kept member.

// CrowdedTournament is NSGA-II's parent selection: a tournament of 2 in
// which the member earlier in the NSGA-II order wins. Its draws are those
// of Tournament{K: 2} on each member's position in that order.
type CrowdedTournament struct {
	Niche int // gp.niche: members kept per ranking tree (0: no clearing)
}

// Prepare ranks and crowds pop once for a generation's pairs (the loop
// calls it before breeding; see PreparedSelection).
func (c CrowdedTournament) Prepare(pop Population) ParentSelection {
	pos := make([]float64, pop.Len())
	for p, i := range clearByRanking(pop, nsgaOrder(pop), c.Niche) {
		pos[i] = float64(p)
	}
	return positionTournament(pos)
}

// Pair implements ParentSelection (ranking pop afresh; the loop uses
// Prepare once per generation instead).
func (c CrowdedTournament) Pair(pop Parents, mr *mrand.Rand) (int, int, error) {
	full, ok := pop.(Population)
	if !ok {
		return 0, 0, errors.New("NSGA-II parent selection needs the members' objective vectors")
	}
	return c.Prepare(full).Pair(pop, mr)
}

// positionTournament is Tournament{K: 2} on positions (lower wins).
type positionTournament []float64

func (p positionTournament) Pair(pop Parents, mr *mrand.Rand) (int, int, error) {
	return Tournament{K: 2}.Pair(positioned{pop, p}, mr)
}

// positioned is pop with each member's fitness replaced by its position.
type positioned struct {
	Parents
	pos []float64
}

func (p positioned) Fitness(i int) float64 { return p.pos[i] }

// NSGA2 is NSGA-II's survival: pop is put in ByFitness order (so that
// members equal in every objective keep a deterministic order), then the
// first n of the NSGA-II order survive, returned in ByFitness order.
type NSGA2 struct {
	Niche int // gp.niche: members kept per ranking tree (0: no clearing)
}

// Survive implements Survival.
func (s NSGA2) Survive(pop Population, n int) []int {
	idx := sortedIndexes(pop, ByFitness)
	sub := subPopulation{pop, idx}
	var out []int
	survivors := nsgaSurvivors(sub, n)
	if s.Niche > 0 {
		survivors = clearByRanking(sub, nsgaOrder(sub), s.Niche)
		survivors = survivors[:min(n, len(survivors))]
	}
	for _, k := range survivors {
		out = append(out, idx[k])
	}
	slices.SortStableFunc(out, func(i, j int) int { return ByFitness(pop, i, j) })
	return out
}

func objsAndHashes(pop Population) ([][]float64, []uint64) {
	pts := make([][]float64, pop.Len())
	tie := make([]uint64, pop.Len())
	for i := range pts {
		pts[i], tie[i] = pop.Objectives(i), pop.Hash(i)
	}
	return pts, tie
}

func nsgaOrder(pop Population) []int {
	pts, tie := objsAndHashes(pop)
	order, _, _ := pareto.Order(pts, tie)
	return order
}

func nsgaSurvivors(pop Population, n int) []int {
	pts, tie := objsAndHashes(pop)
	return pareto.Survivors(pts, tie, n)
}

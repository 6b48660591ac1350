package learn

import (
	mrand "math/rand"
	"math/rand/v2"
	"slices"

	"github.com/evogp/evogp/internal/pareto"
)

// selection is how the generation loop chooses parents and survivors
// (gp.selection). The loop hands it evaluated members and takes back
// offspring or survivors; it does no I/O and draws randomness only from
// the streams it is given, so a run stays deterministic.
type selection interface {
	// breed returns n offspring of pop (every member evaluated).
	breed(pop []scored, n int, v variation, master *rand.Rand, mr *mrand.Rand) ([]scored, error)
	// survive keeps n members of all (parents then offspring, all
	// evaluated; with distinct, every member's phenotype is set and at
	// most one member per phenotype survives while enough exist). The
	// result is sorted by compareScored (best scalar fitness first), as
	// the generation rows and the hall of fame read it.
	survive(all []scored, n int, distinct bool) []scored
}

// scalarSelection is the paper's: parents by gp.parent_selection (k-
// tournament on fitness by default) and the n best (μ + λ).
type scalarSelection struct{ parents ParentSelection }

func (s scalarSelection) breed(pop []scored, n int, v variation, master *rand.Rand, mr *mrand.Rand) ([]scored, error) {
	return breedWith(pop, n, v, s.parents, master, mr)
}

func (scalarSelection) survive(all []scored, n int, distinct bool) []scored {
	if distinct {
		return surviveDistinct(all, n)
	}
	return survive(all, n)
}

// nsga2Selection is NSGA-II (Deb et al. 2002; SPEC §17) on the members'
// objective vectors (scored.objs): parents by binary tournament on (rank,
// crowding distance), survivors by non-dominated sorting with crowding
// distance from parents ∪ offspring.
type nsga2Selection struct{}

// breed runs the scalar breeding (same draws, same variation) with a
// tournament of 2 on each member's position in the NSGA-II order — rank
// ascending, crowding descending, then canonical hash, then index — so
// that the lower position, the better (rank, crowding), wins.
func (nsga2Selection) breed(pop []scored, n int, v variation, master *rand.Rand, mr *mrand.Rand) ([]scored, error) {
	order := nsgaOrder(pop)
	keyed := slices.Clone(pop)
	for pos, i := range order {
		keyed[i].fitness = float64(pos)
	}
	return breedWith(keyed, n, v, Tournament{K: 2}, master, mr)
}

func (nsga2Selection) survive(all []scored, n int, distinct bool) []scored {
	slices.SortStableFunc(all, compareScored)
	pool, rest := all, []scored(nil)
	if distinct {
		// The first member (in compareScored order) of each phenotype
		// competes; the others fill only if fewer than n phenotypes exist.
		seen := map[uint64]bool{}
		pool = nil
		for _, c := range all {
			if !seen[c.pheno] {
				seen[c.pheno] = true
				pool = append(pool, c)
			} else {
				rest = append(rest, c)
			}
		}
	}
	var out []scored
	for _, i := range nsgaSurvivors(pool, n) {
		out = append(out, pool[i])
	}
	if len(out) < n {
		for _, i := range nsgaSurvivors(rest, n-len(out)) {
			out = append(out, rest[i])
		}
	}
	slices.SortStableFunc(out, compareScored)
	return out
}

func objsAndHashes(pop []scored) ([][]float64, []uint64) {
	pts := make([][]float64, len(pop))
	tie := make([]uint64, len(pop))
	for i, c := range pop {
		pts[i], tie[i] = c.objs, c.hash
	}
	return pts, tie
}

func nsgaOrder(pop []scored) []int {
	pts, tie := objsAndHashes(pop)
	order, _, _ := pareto.Order(pts, tie)
	return order
}

func nsgaSurvivors(pop []scored, n int) []int {
	pts, tie := objsAndHashes(pop)
	return pareto.Survivors(pts, tie, n)
}

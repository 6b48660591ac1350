package learn

// Clearing by ranking tree (gp.niche), the niche of NSGA-II selection.
//
// A front run's population tends to converge on two or three ranking
// trees with many routing variants each (docs/FRONT.md), so the front
// offers few distinct trade-offs. Clearing (Pétrowski 1996), with the
// ranking tree as the niche: walk the NSGA-II order; of the members that
// share a ranking tree (canonical hash, expr.Tree.Hash) the first K keep
// their place, every later one is cleared. Cleared members follow all
// kept ones, in their own NSGA-II order. Survival keeps the first n of
// this order and the crowded tournament ranks parents by it, so a
// ranking tree of rank 3 can survive, and breed, ahead of the eleventh
// routing variant of a rank-0 ranking tree.
//
// It is a deterministic function of the members' objectives, canonical
// hashes and ranking trees, so runs stay byte-identical for any number of
// workers and across --resume. It is not monotone in dominance — a member
// dominated by n others may still survive, when they are cleared — so the
// dominance bound of nsga2's early stop (front_earlystop.go) is off with
// it, as it is with gp.dedup: behaviour.

// genomed is a Population that shows its members' genomes (the loop's
// members and sub-populations of them).
type genomed interface {
	Genome(i int) Genome
}

// Genome is member i's genome when the population it views shows genomes
// (else the zero Genome).
func (s subPopulation) Genome(i int) Genome {
	if g, ok := s.pop.(genomed); ok {
		return g.Genome(s.idx[i])
	}
	return Genome{}
}

// rankingFamily is the niche of member i: the canonical hash of its
// ranking tree, or the member's own hash when pop shows no genomes.
func rankingFamily(pop Population, i int) uint64 {
	if g, ok := pop.(genomed); ok {
		if t := g.Genome(i).Ranking; t != nil {
			return t.Hash()
		}
	}
	return pop.Hash(i)
}

// clearByRanking returns order (a permutation of pop's indices, best
// first) with every member beyond the k-th of its ranking tree moved
// after all the others, both parts keeping their relative order. k ≤ 0
// returns order unchanged.
func clearByRanking(pop Population, order []int, k int) []int {
	if k <= 0 {
		return order
	}
	seen := make(map[uint64]int, len(order))
	kept := make([]int, 0, len(order))
	var cleared []int
	for _, i := range order {
		f := rankingFamily(pop, i)
		if seen[f]++; seen[f] <= k {
			kept = append(kept, i)
		} else {
			cleared = append(cleared, i)
		}
	}
	return append(kept, cleared...)
}

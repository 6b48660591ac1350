package learn

import "slices"

// Order is a survival preference over a population's members: negative
// when member i is preferred to member j, 0 when they tie.
type Order func(pop Population, i, j int) int

// ByFitness is the paper's order: fitness ascending (NaN after every
// number), then canonical hash.
func ByFitness(pop Population, i, j int) int {
	return compareFitnessHash(pop.Fitness(i), pop.Fitness(j), pop.Hash(i), pop.Hash(j))
}

// sortedIndexes are pop's indexes stably sorted by order: members that tie
// keep their order in pop (parents, then offspring as bred), which is what
// makes survival deterministic.
func sortedIndexes(pop Population, order Order) []int {
	idx := make([]int, pop.Len())
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(i, j int) int { return order(pop, i, j) })
	return idx
}

// MuPlusLambda is (μ + λ) survival: the n members of parents ∪ offspring
// first in Order (ByFitness when nil: the paper's "n best").
type MuPlusLambda struct{ Order Order }

// Survive implements Survival.
func (s MuPlusLambda) Survive(pop Population, n int) []int {
	order := s.Order
	if order == nil {
		order = ByFitness
	}
	idx := sortedIndexes(pop, order)
	return idx[:min(n, len(idx))]
}

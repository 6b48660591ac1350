package learn

import "cmp"

// ByParsimony is ByFitness with lexicographic parsimony (gp.parsimony):
// members of equal fitness are ordered by size (both trees' nodes), then
// canonical hash, so that of two individuals that score the same the
// smaller survives first. It changes results only where fitness ties,
// which is where bloat (introns, order-equivalent variants) competes with
// its smaller twin. Breeding is the scalar one.
func ByParsimony(pop Population, i, j int) int {
	return cmp.Or(compareFloat(pop.Fitness(i), pop.Fitness(j)), cmp.Compare(pop.Size(i), pop.Size(j)), cmp.Compare(pop.Hash(i), pop.Hash(j)))
}

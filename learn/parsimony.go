package learn

import (
	"cmp"
	"slices"
)

// parsimonySelection is scalarSelection with lexicographic parsimony in
// survival (gp.parsimony): members of equal fitness are ordered by size
// (both trees' nodes), then canonical hash, so that of two individuals
// that score the same the smaller survives first. Breeding is the scalar
// one. It changes results only where fitness ties, which is where bloat
// (introns, order-equivalent variants) competes with its smaller twin.
type parsimonySelection struct{ scalarSelection }

// compareParsimony orders by fitness, then size, then hash.
func compareParsimony(a, b scored) int {
	return cmp.Or(compareFloat(a.fitness, b.fitness), cmp.Compare(a.size(), b.size()), cmp.Compare(a.hash, b.hash))
}

func (parsimonySelection) survive(all []scored, n int, distinct bool) []scored {
	if distinct {
		return surviveDistinctBy(all, n, compareParsimony)
	}
	slices.SortStableFunc(all, compareParsimony)
	return slices.Clone(all[:n])
}

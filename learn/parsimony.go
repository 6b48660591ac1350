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
	slices.SortStableFunc(all, compareParsimony)
	if !distinct {
		return slices.Clone(all[:n])
	}
	// As surviveDistinct, in the parsimony order.
	seen := make(map[uint64]bool, len(all))
	out := make([]scored, 0, n)
	var rest []scored
	for _, c := range all {
		if !seen[c.pheno] && len(out) < n {
			seen[c.pheno] = true
			out = append(out, c)
		} else {
			rest = append(rest, c)
		}
	}
	out = append(out, rest[:n-len(out)]...)
	slices.SortStableFunc(out, compareParsimony)
	return out
}

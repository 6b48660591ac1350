package learn

import "slices"

// Dedup is behavioural de-duplication around another survival
// (gp.dedup: behaviour): in the order Order, the first member of each
// phenotype competes in Inner; the others are offered to Inner only when
// fewer than n phenotypes exist, to fill the population. The survivors
// are returned in Order. With Inner = MuPlusLambda{Order} this is "the
// first member of each phenotype in survival order, then the best of the
// rest"; with NSGA2 the distinct members are ranked and crowded first.
// Phenotypes are Population.Phenotype (the evaluator sets them).
type Dedup struct {
	Inner Survival
	Order Order // ByFitness when nil
}

// Survive implements Survival.
func (d Dedup) Survive(pop Population, n int) []int {
	order := d.Order
	if order == nil {
		order = ByFitness
	}
	seen := make(map[uint64]bool, pop.Len())
	var firsts, rest []int
	for _, i := range sortedIndexes(pop, order) {
		if p := pop.Phenotype(i); !seen[p] {
			seen[p] = true
			firsts = append(firsts, i)
		} else {
			rest = append(rest, i)
		}
	}
	var out []int
	for _, k := range d.Inner.Survive(subPopulation{pop, firsts}, n) {
		out = append(out, firsts[k])
	}
	if len(out) < n {
		for _, k := range d.Inner.Survive(subPopulation{pop, rest}, n-len(out)) {
			out = append(out, rest[k])
		}
	}
	slices.SortStableFunc(out, func(i, j int) int { return order(pop, i, j) })
	return out
}

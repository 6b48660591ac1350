package learn

import (
	"math"
	mrand "math/rand"
	"slices"
)

// EpsilonLexicase is ε-lexicase parent selection (La Cava, Spector and
// Danai 2016) over the generation's training instances: each selection
// event shuffles the cases (instances of the subset), and, case by case,
// keeps the candidates whose term is within ε_c of the best candidate's on
// that case, until one remains or the cases run out; then one of the
// remaining is drawn uniformly. ε_c is the median absolute deviation of
// case c's terms over the population (fixed for the generation, as in
// the paper's static variant). It rewards doing well on every instance,
// not only on the mean: an individual that starves one job on one
// instance (Eq. 5's cq_max) is rarely chosen however good its sum is.
// The second parent of a pair is chosen by a fresh event among the other
// members, so the two are distinct. Members without cases (pruned
// offspring, which never survive) are chosen only when no other is left.
type EpsilonLexicase struct{}

// Pair implements ParentSelection.
func (EpsilonLexicase) Pair(pop Parents, mr *mrand.Rand) (int, int, error) {
	n := pop.Len()
	if n == 1 {
		return 0, 0, nil
	}
	eps := caseEpsilons(pop)
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	first := lexicaseEvent(pop, all, eps, mr)
	rest := slices.Delete(slices.Clone(all), first, first+1)
	return first, lexicaseEvent(pop, rest, eps, mr), nil
}

// caseTerm is member i's term on case c, +Inf when unknown (NaN is worst).
func caseTerm(pop Parents, i, c int) float64 {
	cs := pop.Cases(i)
	if c >= len(cs) || math.IsNaN(cs[c]) {
		return math.Inf(1)
	}
	return cs[c]
}

// numCases is the largest number of cases of any member.
func numCases(pop Parents) int {
	k := 0
	for i := range pop.Len() {
		k = max(k, len(pop.Cases(i)))
	}
	return k
}

// caseEpsilons are the median absolute deviations of each case's finite
// terms over the population (0 for a case with none).
func caseEpsilons(pop Parents) []float64 {
	eps := make([]float64, numCases(pop))
	for c := range eps {
		var xs []float64
		for i := range pop.Len() {
			if v := caseTerm(pop, i, c); !math.IsInf(v, 0) {
				xs = append(xs, v)
			}
		}
		eps[c] = medianAbsoluteDeviation(xs)
	}
	return eps
}

// medianAbsoluteDeviation is median(|x − median(x)|), 0 for no values.
func medianAbsoluteDeviation(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	m := medianOf(xs)
	dev := make([]float64, len(xs))
	for i, x := range xs {
		dev[i] = math.Abs(x - m)
	}
	return medianOf(dev)
}

// medianOf is the median of xs (mean of the two middle values for an even
// count); xs is not modified.
func medianOf(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// lexicaseEvent runs one selection event over the candidates cand (member
// indexes, in population order) and returns the winner. Members with
// every case known are preferred: the others compete only when none has.
func lexicaseEvent(pop Parents, cand []int, eps []float64, mr *mrand.Rand) int {
	k := len(eps)
	var pool []int
	for _, i := range cand {
		if len(pop.Cases(i)) == k {
			pool = append(pool, i)
		}
	}
	if len(pool) == 0 {
		pool = slices.Clone(cand)
	}
	for _, c := range mr.Perm(k) {
		if len(pool) == 1 {
			break
		}
		best := math.Inf(1)
		for _, i := range pool {
			best = min(best, caseTerm(pop, i, c))
		}
		keep := pool[:0:0]
		for _, i := range pool {
			if v := caseTerm(pop, i, c); v <= best+eps[c] {
				keep = append(keep, i)
			}
		}
		if len(keep) > 0 {
			pool = keep
		}
	}
	return pool[mr.Intn(len(pool))]
}

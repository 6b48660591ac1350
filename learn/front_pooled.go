package learn

import "github.com/evogp/evogp/simcore"

// objectiveVector combines per-instance normalised terms into an
// objective vector: terms[j] is a candidate's terms (frontState.terms) on
// the instance where SRSF's metrics are srsf[j], and pool is SRSF's
// metrics on every instance the vector is over — terms may cover only a
// prefix of pool (partialVector's lower bound). size fills the size slot.
//
// By default each objective is the mean of the terms, Σ_j t_j / |pool|
// (summed in order, as before this file existed: the same bytes).
//
// With gp.fitness: pooled (f.pooled) each simulated objective is the ratio
// of means Σ_j O_c,j / Σ_i O_SRSF,i over pool, on the mean's scale (SRSF
// scores 1): the quantity Eq. 5 on raw means ranks, in which an instance
// where the queue builds up weighs by its size, instead of every instance
// weighing the same. O_c,j is recovered from its term: t·s when SRSF's
// value s > 0, t − 1 when s = 0 (normalise's 1 + O). When SRSF scores 0
// on every instance of pool there is nothing to pool by and the objective
// is the mean. Every contribution is ≥ 0 and nondecreasing in its term,
// so a prefix still gives a lower bound (front_earlystop.go).
func (f *frontState) objectiveVector(terms [][]float64, srsf, pool []simcore.Metrics, size int) []float64 {
	v := make([]float64, len(f.names))
	for k, name := range f.names {
		if name == "size" {
			v[k] = float64(size)
			continue
		}
		sum := 0.0
		if f.pooled {
			for _, s := range pool {
				sum += componentValue(name, s)
			}
		}
		if sum == 0 {
			for _, t := range terms {
				v[k] += t[k]
			}
			v[k] /= float64(len(pool))
			continue
		}
		for j, t := range terms {
			if s := componentValue(name, srsf[j]); s == 0 {
				v[k] += t[k] - 1
			} else {
				v[k] += t[k] * s
			}
		}
		v[k] /= sum
	}
	return v
}

// subsetVector is objectiveVector over training instances subset, the
// terms of the first done of them given by term.
func (f *frontState) subsetVector(term func(inst int) []float64, subset []int, done, size int) []float64 {
	terms := make([][]float64, done)
	srsf := make([]simcore.Metrics, len(subset))
	for j, i := range subset {
		if f.pooled { // the mean reads no SRSF metrics (hand-built states have none)
			srsf[j] = f.srsfTrain[i]
		}
		if j < done {
			terms[j] = term(i)
		}
	}
	return f.objectiveVector(terms, srsf[:done], srsf, size)
}

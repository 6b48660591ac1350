package learn

import (
	"cmp"
	"errors"
	"math"
	mrand "math/rand"
	"math/rand/v2"
	"slices"

	"github.com/MaxHalford/eaopt"

	"github.com/evogp/evogp/expr"
)

// Why the generation loop is ours and only the selector is eaopt's.
//
// eaopt v0.4.2 drives a GA through Individual.Evaluate/Crossover/Mutate and
// its models. Used as is, it would get Algorithm 3 wrong:
//
//   - Individual.Crossover takes its mate by value: a mate whose genome is
//     changed in place keeps Evaluated = true and its old fitness, so half of
//     the offspring would never be re-scored.
//   - The Evaluated flag skips individuals that already have a fitness, but
//     Algorithm 3 re-scores the parents on every generation's fresh subset
//     D_sub; a cached fitness from another subset is not comparable.
//   - Only ModGenerational evaluates in parallel (μ + λ models evaluate
//     serially), and Genome.Evaluate takes neither a context (no Ctrl-C) nor
//     the generation's subset or seed.
//   - SelTournament returns wrong indexes when the first contestant wins
//     (the index slot is left 0), and Individuals.SortByFitness is not a
//     stable sort, so it cannot give deterministic ties.
//
// So learn runs its own loop: it wraps the population in eaopt.Individuals
// whose fitness it has already set (Evaluated = true, so eaopt never calls
// Genome.Evaluate), uses eaopt.SelTournament to pick each pair of parents
// (it is correct for that: k distinct contestants sampled without
// replacement, the lowest fitness wins, and the two winners of one call are
// distinct), reads the winners back through their genomes (not through the
// returned indexes), and does variation with expr's operators, evaluation
// with its own parallel evaluator and survival with a stable sort.

// errEaoptEvaluate is what a gene answers if eaopt ever tried to evaluate it:
// learn sets every fitness itself, so reaching it is a bug.
var errEaoptEvaluate = errors.New("learn: eaopt must not evaluate genomes; fitness is set by learn's evaluator")

// gene is the eaopt.Genome of one population member: its index in the
// population slice. eaopt only reads fitness values and clones genomes.
type gene struct{ idx int }

// Evaluate is never used (see errEaoptEvaluate).
func (g *gene) Evaluate() (float64, error) { return math.NaN(), errEaoptEvaluate }

// Mutate is never called: variation is expr.SubtreeMutation in breed.
func (g *gene) Mutate(*mrand.Rand) { panic("learn: eaopt mutation is not used; see breed") }

// Crossover is never called: variation is expr.Crossover in breed.
func (g *gene) Crossover(eaopt.Genome, *mrand.Rand) {
	panic("learn: eaopt crossover is not used; see breed")
}

// Clone copies the index.
func (g *gene) Clone() eaopt.Genome { c := *g; return &c }

// variation holds the breeding parameters of Algorithm 3.
type variation struct {
	tournament int     // k
	crossover  float64 // probability that a pair is crossed over
	mutation   float64 // r: probability that both children are mutated
	vary       expr.VarSettings
	// With a routing tree (gp.learn: [routing, ranking]): the routing
	// tree's variation settings (its terminal set) and the probability that
	// a bred pair swaps its routing trees (gp.tree_swap).
	routingVary expr.VarSettings
	treeSwap    float64
}

// breed is breedWith the paper's k-tournament (Tournament{K:
// v.tournament}).
func breed(pop []scored, n int, v variation, master *rand.Rand, mr *mrand.Rand) ([]scored, error) {
	return breedWith(pop, n, v, Tournament{K: v.tournament}, master, mr)
}

// breedWith returns n offspring of pop (whose fitness is set): repeatedly
// two distinct parents chosen by parents (drawing from mr; Tournament:
// eaopt.SelTournament); with probability crossover, children c1 =
// Crossover(p1, p2) and c2 = Crossover(p2, p1), otherwise copies of the
// parents; with probability r both children get a subtree mutation (one
// draw per pair, as in Algorithm 3 lines 8–10). Variation draws come from
// master. An odd n drops the last c2.
func breedWith(pop []scored, n int, v variation, parents ParentSelection, master *rand.Rand, mr *mrand.Rand) ([]scored, error) {
	out := make([]scored, 0, n+1)
	for len(out) < n {
		i1, i2, err := parents.Pair(scoredParents(pop), mr)
		if err != nil {
			return nil, err
		}
		s1, s2 := pop[i1], pop[i2]
		if s1.routing != nil {
			c1, c2 := varyPair(s1, s2, v, master)
			out = append(out, c1, c2)
			continue
		}
		p1, p2 := s1.tree, s2.tree
		c1, c2 := p1, p2 // trees are immutable values: sharing is safe
		if master.Float64() < v.crossover {
			c1 = expr.Crossover(master, p1, p2, v.vary)
			c2 = expr.Crossover(master, p2, p1, v.vary)
		}
		if master.Float64() < v.mutation {
			c1 = expr.SubtreeMutation(master, c1, v.vary)
			c2 = expr.SubtreeMutation(master, c2, v.vary)
		}
		out = append(out,
			scored{tree: c1, hash: c1.Hash(), parents: [2]uint64{s1.hash, s2.hash}},
			scored{tree: c2, hash: c2.Hash(), parents: [2]uint64{s2.hash, s1.hash}})
	}
	return out[:n], nil
}

// varyPair breeds two children of two-tree parents (SPEC §16): with
// probability crossover, one tree — routing or ranking, uniformly, one
// draw for the pair — is crossed over (c1's from p1 ⊗ p2, c2's from
// p2 ⊗ p1) and the other is copied; with probability r one tree (a fresh
// uniform draw) of both children gets a subtree mutation; with probability
// gp.tree_swap the children then exchange their routing trees. Every draw
// comes from master, in this order, so a run is deterministic.
func varyPair(s1, s2 scored, v variation, master *rand.Rand) (scored, scored) {
	r1, f1, r2, f2 := s1.routing, s1.tree, s2.routing, s2.tree
	if master.Float64() < v.crossover {
		if master.IntN(2) == 0 {
			r1, r2 = expr.Crossover(master, s1.routing, s2.routing, v.routingVary), expr.Crossover(master, s2.routing, s1.routing, v.routingVary)
		} else {
			f1, f2 = expr.Crossover(master, s1.tree, s2.tree, v.vary), expr.Crossover(master, s2.tree, s1.tree, v.vary)
		}
	}
	if master.Float64() < v.mutation {
		if master.IntN(2) == 0 {
			r1, r2 = expr.SubtreeMutation(master, r1, v.routingVary), expr.SubtreeMutation(master, r2, v.routingVary)
		} else {
			f1, f2 = expr.SubtreeMutation(master, f1, v.vary), expr.SubtreeMutation(master, f2, v.vary)
		}
	}
	if v.treeSwap > 0 && master.Float64() < v.treeSwap {
		r1, r2 = r2, r1
	}
	c1 := newScored(r1, f1)
	c1.parents = [2]uint64{s1.hash, s2.hash}
	c2 := newScored(r2, f2)
	c2.parents = [2]uint64{s2.hash, s1.hash}
	return c1, c2
}

// compareScored orders by fitness ascending (NaN after every number), then
// by canonical hash; equal keys keep their order (the caller sorts stably),
// which is insertion order: parents first, then offspring as bred.
func compareScored(a, b scored) int { return compareFitnessHash(a.fitness, b.fitness, a.hash, b.hash) }

// compareFitnessHash is the survival and hall-of-fame order: fitness
// ascending (NaN after every number), then canonical hash.
func compareFitnessHash(fa, fb float64, ha, hb uint64) int {
	return cmp.Or(compareFloat(fa, fb), cmp.Compare(ha, hb))
}

// compareFloat orders floats ascending with NaN last.
func compareFloat(a, b float64) int {
	an, bn := math.IsNaN(a), math.IsNaN(b)
	switch {
	case an && bn:
		return 0
	case an:
		return 1
	case bn:
		return -1
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// survive keeps the n best of all (μ + λ), sorting all in place.
func survive(all []scored, n int) []scored {
	slices.SortStableFunc(all, compareScored)
	return slices.Clone(all[:n])
}

// surviveDistinct keeps n members of all (μ + λ) with behavioural
// de-duplication: in the survival order, the first member of each
// phenotype is kept; if fewer than n phenotypes exist, the best of the
// remaining members (in the same order) fill the population. The result is
// in survival order (best first).
func surviveDistinct(all []scored, n int) []scored {
	return surviveDistinctBy(all, n, compareScored)
}

// surviveDistinctBy is surviveDistinct in the survival order of compare.
func surviveDistinctBy(all []scored, n int, compare func(a, b scored) int) []scored {
	slices.SortStableFunc(all, compare)
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
	slices.SortStableFunc(out, compare)
	return out
}

// median of the fitness of a sorted population (mean of the two middle
// values when the size is even).
func median(sorted []scored) float64 {
	n := len(sorted)
	if n%2 == 1 {
		return sorted[n/2].fitness
	}
	return (sorted[n/2-1].fitness + sorted[n/2].fitness) / 2
}

// unique counts distinct canonical hashes.
func unique(pop []scored) int {
	seen := make(map[uint64]struct{}, len(pop))
	for _, c := range pop {
		seen[c.hash] = struct{}{}
	}
	return len(seen)
}

// HallEntry is one member of the hall of fame: a distinct (by canonical
// hash) tree with its mean normalised objective on the training subset of
// the last generation it was offered in.
type HallEntry struct {
	Tree       *expr.Tree  `json:"tree"`
	Routing    RoutingTree `json:"routing,omitzero"` // the routing tree (gp.learn: [routing, ranking])
	Score      float64     `json:"score"`            // fitness / α on that generation's subset
	Generation int         `json:"generation"`       // the generation of Score
	Validation float64     `json:"-"`                // set after the final validation
	hash       uint64
}

// updateHall offers the best min(size, |pop|) members of a sorted population
// to the hall of fame. A tree already present takes its newer score (its old
// one was measured on another subset); the hall keeps the size best entries
// by (score, hash).
func updateHall(hall []HallEntry, pop []scored, gen, alpha, size int) []HallEntry {
	for _, c := range pop[:min(size, len(pop))] {
		e := HallEntry{Tree: c.tree, Routing: RoutingTree{Tree: c.routing}, Score: c.fitness / float64(alpha), Generation: gen, hash: c.hash}
		if i := slices.IndexFunc(hall, func(h HallEntry) bool { return h.hash == c.hash }); i >= 0 {
			hall[i] = e
		} else {
			hall = append(hall, e)
		}
	}
	slices.SortStableFunc(hall, func(a, b HallEntry) int { return compareFitnessHash(a.Score, b.Score, a.hash, b.hash) })
	if len(hall) > size {
		hall = hall[:size]
	}
	return hall
}

package learn

import (
	mrand "math/rand"
	"math/rand/v2"

	"github.com/evogp/evogp/expr"
)

// Variation operators (Algorithm 3 lines 7–10, SPEC §16 for two trees).
// Each operator makes one draw deciding whether it applies to the pair;
// with two trees a second draw picks the tree (routing or ranking,
// uniformly) for both children. The list a run uses is
// variationOperators; every draw comes from the master stream, in list
// order, so a run is deterministic.

// Crossover crosses the pair over with probability P: c1 = a ⊗ b and
// c2 = b ⊗ a (expr.Crossover), on one tree of the pair with two trees.
type Crossover struct {
	P                float64
	Ranking, Routing expr.VarSettings // the settings of each tree
}

// Vary implements Variation.
func (c Crossover) Vary(rng *rand.Rand, a, b Genome) (Genome, Genome) {
	if !(rng.Float64() < c.P) {
		return a, b
	}
	if a.Routing != nil && rng.IntN(2) == 0 {
		ra := expr.Crossover(rng, a.Routing, b.Routing, c.Routing)
		rb := expr.Crossover(rng, b.Routing, a.Routing, c.Routing)
		return Genome{ra, a.Ranking}, Genome{rb, b.Ranking}
	}
	fa := expr.Crossover(rng, a.Ranking, b.Ranking, c.Ranking)
	fb := expr.Crossover(rng, b.Ranking, a.Ranking, c.Ranking)
	return Genome{a.Routing, fa}, Genome{b.Routing, fb}
}

// SubtreeMutation replaces a random subtree of both children by a fresh
// random one (expr.SubtreeMutation) with probability P — one draw for the
// pair, as in Algorithm 3 — on one tree of each with two trees.
type SubtreeMutation struct {
	P                float64
	Ranking, Routing expr.VarSettings
}

// Vary implements Variation.
func (m SubtreeMutation) Vary(rng *rand.Rand, a, b Genome) (Genome, Genome) {
	if !(rng.Float64() < m.P) {
		return a, b
	}
	if a.Routing != nil && rng.IntN(2) == 0 {
		ra := expr.SubtreeMutation(rng, a.Routing, m.Routing)
		rb := expr.SubtreeMutation(rng, b.Routing, m.Routing)
		return Genome{ra, a.Ranking}, Genome{rb, b.Ranking}
	}
	fa := expr.SubtreeMutation(rng, a.Ranking, m.Ranking)
	fb := expr.SubtreeMutation(rng, b.Ranking, m.Ranking)
	return Genome{a.Routing, fa}, Genome{b.Routing, fb}
}

// TreeSwap exchanges the children's routing trees with probability P
// (gp.tree_swap). It draws nothing when P is 0 or the genomes have one
// tree.
type TreeSwap struct{ P float64 }

// Vary implements Variation.
func (s TreeSwap) Vary(rng *rand.Rand, a, b Genome) (Genome, Genome) {
	if a.Routing == nil || !(s.P > 0) || !(rng.Float64() < s.P) {
		return a, b
	}
	return Genome{b.Routing, a.Ranking}, Genome{a.Routing, b.Ranking}
}

// variation holds a run's breeding parameters (configs.GP).
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

// variationOperators is the list of variation operators of a run, in the
// order they apply: a new operator is one file and one line here.
func (v variation) operators() []Variation {
	return []Variation{
		Crossover{P: v.crossover, Ranking: v.vary, Routing: v.routingVary},
		SubtreeMutation{P: v.mutation, Ranking: v.vary, Routing: v.routingVary},
		TreeSwap{P: v.treeSwap},
	}
}

// breedWith returns n offspring of pop (whose fitness is set): repeatedly
// two distinct parents chosen by parents (drawing from mr; a
// PreparedSelection is prepared once first), whose genomes every operator
// of ops varies in turn (drawing from master). An odd n drops the last c2.
func breedWith(pop []scored, n int, parents ParentSelection, ops []Variation, master *rand.Rand, mr *mrand.Rand) ([]scored, error) {
	if p, ok := parents.(PreparedSelection); ok {
		parents = p.Prepare(scoredMembers(pop))
	}
	out := make([]scored, 0, n+1)
	for len(out) < n {
		i1, i2, err := parents.Pair(scoredMembers(pop), mr)
		if err != nil {
			return nil, err
		}
		s1, s2 := pop[i1], pop[i2]
		a, b := Genome{s1.routing, s1.tree}, Genome{s2.routing, s2.tree}
		for _, op := range ops {
			a, b = op.Vary(master, a, b)
		}
		c1, c2 := newScored(a.Routing, a.Ranking), newScored(b.Routing, b.Ranking)
		c1.parents, c2.parents = [2]uint64{s1.hash, s2.hash}, [2]uint64{s2.hash, s1.hash}
		out = append(out, c1, c2)
	}
	return out[:n], nil
}

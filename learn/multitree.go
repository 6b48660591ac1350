package learn

import (
	"math/bits"

	"github.com/evogp/evogp/expr"
)

// Multi-tree individuals (SPEC §16, gp.learn: [routing, ranking]).
//
// An individual is a ranking tree f and, when the run learns routing, a
// routing tree R. Everything keyed by an individual — the fitness cache,
// survival ties, the hall of fame, the validation curve, the checkpoint —
// uses individualHash, which is f's canonical hash for a one-tree
// individual (so the paper's learner is unchanged) and a mix of both
// trees' canonical hashes otherwise: two individuals share a hash when
// both their trees simplify alike.

// individualHash is the canonical hash of the individual (routing, ranking);
// routing nil is the one-tree individual.
func individualHash(routing, ranking *expr.Tree) uint64 {
	if routing == nil {
		return ranking.Hash()
	}
	return pairHash(routing.Hash(), ranking.Hash())
}

// pairHash mixes two canonical hashes into one, order-sensitive (R and f
// are different roles), with splitmix64's finaliser.
func pairHash(routing, ranking uint64) uint64 {
	z := ranking ^ bits.RotateLeft64(routing, 29) ^ 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// newScored is the unevaluated individual (routing, ranking).
func newScored(routing, ranking *expr.Tree) scored {
	return scored{tree: ranking, routing: routing, hash: individualHash(routing, ranking)}
}

// individualString is how tables name an individual: f's infix for one
// tree, "R = … ; f = …" for two (ParseIndividual reads it back).
func individualString(routing, ranking *expr.Tree) string {
	if routing == nil {
		return ranking.String()
	}
	return "R = " + routing.String() + " ; f = " + ranking.String()
}

// individual is an individual's trees: a ranking tree and, with gp.learn:
// [routing, ranking], a routing tree (else nil).
type individual struct {
	routing, ranking *expr.Tree
}

func (i individual) hash() uint64 { return individualHash(i.routing, i.ranking) }

// size is the number of nodes of both trees (the tie-break of the final
// pick prefers the smaller individual).
func (i individual) size() int {
	if i.routing == nil {
		return i.ranking.Size()
	}
	return i.routing.Size() + i.ranking.Size()
}

// rankingOnly are one-tree individuals of trees.
func rankingOnly(trees []*expr.Tree) []individual {
	out := make([]individual, len(trees))
	for i, t := range trees {
		out[i] = individual{ranking: t}
	}
	return out
}

// size and depth of a scored individual, for generations.parquet: both
// trees' nodes, and the deeper tree's depth.
func (c scored) size() int { return individual{c.routing, c.tree}.size() }

func (c scored) depth() int {
	if c.routing == nil {
		return c.tree.Depth()
	}
	return max(c.routing.Depth(), c.tree.Depth())
}

// simplifyRouting is expr.Simplify of a routing tree, nil for none.
func simplifyRouting(t *expr.Tree) *expr.Tree {
	if t == nil {
		return nil
	}
	return expr.Simplify(t)
}

// ruleSpec is the scheduler spec of a two-tree individual: the rule
// allocator, the formula ranking and placer.
func ruleSpec(placer string) string { return "rule+formula+" + placer }

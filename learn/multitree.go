package learn

import (
	"errors"
	"fmt"
	"slices"

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

// RoutingTree is a routing tree in JSON (the checkpoint, the hall of
// fame): it encodes as the tree does and decodes over the routing
// catalogue; the zero value (no routing tree) is omitted with omitzero.
type RoutingTree struct{ Tree *expr.Tree }

// IsZero reports whether there is no routing tree.
func (r RoutingTree) IsZero() bool { return r.Tree == nil }

// MarshalJSON encodes the tree.
func (r RoutingTree) MarshalJSON() ([]byte, error) { return r.Tree.MarshalJSON() }

// UnmarshalJSON decodes a routing tree.
func (r *RoutingTree) UnmarshalJSON(b []byte) error {
	t, err := decodeRouting(b)
	if err != nil {
		return err
	}
	r.Tree = t
	return nil
}

// ruleSpec is the scheduler spec of a two-tree individual: the rule
// allocator, the formula ranking and placer.
func ruleSpec(placer string) string { return "rule+formula+" + placer }

// checkBestRouting checks the routing part of a best.json: a run that
// learned a routing tree must hold it (and a ranking tree, checked by the
// caller), over its recorded routing terminals, with a scope.
func checkBestRouting(b *BestJSON) error {
	two := slices.Contains(b.Learn, "routing")
	switch {
	case !two && b.RoutingTree.Tree != nil:
		return errors.New(`a "routing_tree" but "learn" does not list routing`)
	case !two:
		return nil
	case b.RoutingTree.Tree == nil || b.RoutingTree.Tree.Size() == 0:
		return fmt.Errorf(`"learn" is %v but there is no "routing_tree": the routing tree is missing`, b.Learn)
	case b.Scope != "arrivals" && b.Scope != "all":
		return fmt.Errorf(`"scope" = %q: must be arrivals or all`, b.Scope)
	}
	terms, err := parseRoutingTerminals(b.RoutingTerminals)
	if err != nil {
		return fmt.Errorf("routing_terminals: %w", err)
	}
	if bad := b.RoutingTree.Tree.Terminals().Minus(terms); bad.Len() > 0 {
		return fmt.Errorf("the routing tree %s uses %s, outside its routing_terminals %v", b.RoutingTree.Tree, bad, b.RoutingTerminals)
	}
	return nil
}

package expr

import (
	"fmt"
	"math/rand/v2"
)

// VarSettings configure the variation operators. The zero value means the
// defaults.
//
// Depth limit policy, shared by the three operators: offspring never exceed
// MaxDepth. Crossover and SubtreeMutation choose their points so that the
// offspring fits (a replacement subtree is only taken if its depth plus the
// depth of the point it replaces, minus one, is ≤ MaxDepth), so as long as
// the parent is within the limit the first attempt always yields a valid
// offspring. If a parent is already deeper than MaxDepth (a parsed formula,
// say), up to 8 attempts are made, and if none brings the offspring within
// the limit the operator returns a copy of that parent: it never makes a
// tree deeper than its parent. PointMutation keeps the shape, so the depth.
// No operator modifies its arguments.
type VarSettings struct {
	// MaxDepth is the hard depth limit of offspring (a leaf has depth 1);
	// 0 means 7.
	MaxDepth int
	// InternalProb is the probability that a crossover point is an operator
	// node rather than a leaf (when the tree has operator nodes that fit);
	// 0 means 0.9. Values above 1 act as 1.
	InternalProb float64
	// MutationDepth is the largest depth of the subtree SubtreeMutation
	// grows (further capped so the offspring stays within MaxDepth); 0 means 4.
	MutationDepth int
	// Constants lets SubtreeMutation and PointMutation create ephemeral
	// constants, drawn as GenSettings does by default (uniform in [−1, 1],
	// two decimals).
	Constants bool
	// Terminals is the terminal set new leaves are drawn from; 0 means the
	// paper's {d, q, u, g}.
	Terminals Terminals
}

func (s VarSettings) withDefaults() VarSettings {
	if s.MaxDepth == 0 {
		s.MaxDepth = DefaultDepthLimit
	}
	if s.InternalProb == 0 {
		s.InternalProb = DefaultInternalProb
	}
	if s.MutationDepth == 0 {
		s.MutationDepth = DefaultMutationDepth
	}
	return s
}

// Validate reports settings the operators cannot work with (after defaults).
func (s VarSettings) Validate() error {
	s = s.withDefaults()
	switch {
	case s.MaxDepth < 1:
		return fmt.Errorf("expr: max depth %d, must be ≥ 1", s.MaxDepth)
	case s.MutationDepth < 1:
		return fmt.Errorf("expr: mutation depth %d, must be ≥ 1", s.MutationDepth)
	case !(s.InternalProb >= 0):
		return fmt.Errorf("expr: internal-point probability %v, must be ≥ 0", s.InternalProb)
	}
	return nil
}

func (s VarSettings) mustValid(who string) VarSettings {
	if err := s.Validate(); err != nil {
		panic(fmt.Sprintf("expr.%s: %v", who, err))
	}
	return s.withDefaults()
}

// leavesFor is the leaf source for new leaves of t: a non-empty terminal set
// must be of t's catalogue (the empty set is d, q, u, g, the same slots in
// every catalogue).
func (s VarSettings) leavesFor(t *Tree, who string) leafSource {
	ls := s.leaves()
	if s.Terminals&slotMask == 0 {
		ls.cat = t.cat
		return ls
	}
	if ls.cat != t.cat {
		panic(fmt.Sprintf("expr.%s: %v terminal set for a %v tree", who, ls.cat, t.cat))
	}
	return ls
}

func (s VarSettings) leaves() leafSource {
	g := GenSettings{Constants: s.Constants, Terminals: s.Terminals}.withDefaults()
	return g.leaves()
}

// pickPoint chooses a node index of nodes among those with ok(i): with
// probability internalProb an operator node, otherwise a leaf; when one of
// the two groups is empty the other is used. It returns −1 if no node is ok.
func pickPoint(rng *rand.Rand, nodes []node, internalProb float64, ok func(i int) bool) int {
	var nIn, nLeaf int
	for i, n := range nodes {
		if !ok(i) {
			continue
		}
		if n.op.IsBinary() {
			nIn++
		} else {
			nLeaf++
		}
	}
	if nIn+nLeaf == 0 {
		return -1
	}
	wantInternal := nLeaf == 0 || (nIn > 0 && rng.Float64() < internalProb)
	k := nLeaf
	if wantInternal {
		k = nIn
	}
	k = rng.IntN(k)
	for i, n := range nodes {
		if ok(i) && n.op.IsBinary() == wantInternal {
			if k == 0 {
				return i
			}
			k--
		}
	}
	panic("unreachable")
}

// Crossover returns one child: a with the subtree at a crossover point
// replaced by a copy of the subtree at a crossover point of b (Koza's
// subtree crossover). Points are operator nodes with probability
// InternalProb, leaves otherwise. The point in b is chosen among subtrees
// that keep the child within MaxDepth; see VarSettings for the depth
// limit policy.
// a and b are not modified.
func Crossover(rng *rand.Rand, a, b *Tree, s VarSettings) *Tree {
	s = s.mustValid("Crossover")
	if a.Size() == 0 || b.Size() == 0 {
		panic("expr.Crossover: empty parent")
	}
	if a.cat != b.cat {
		panic(fmt.Sprintf("expr.Crossover: a %v parent and a %v parent", a.cat, b.cat))
	}
	atA, _ := nodeDepths(a.nodes)
	_, hB := nodeDepths(b.nodes)
	// The rest of a must itself fit, which it does whenever a does; when a
	// is too deep only points that remove all of a's excess can work.
	for range 8 {
		i := pickPoint(rng, a.nodes, s.InternalProb, func(i int) bool { return atA[i] <= s.MaxDepth })
		room := s.MaxDepth - atA[i] + 1
		j := pickPoint(rng, b.nodes, s.InternalProb, func(j int) bool { return hB[j] <= room })
		if j < 0 {
			continue
		}
		child := &Tree{nodes: splice(a.nodes, i, subtreeEnd(a.nodes, i), b.nodes[j:subtreeEnd(b.nodes, j)]), cat: a.cat}
		if child.Depth() <= s.MaxDepth {
			return child
		}
	}
	return a.Clone()
}

// SubtreeMutation returns a copy of t in which the subtree at a uniformly
// chosen node is replaced by a random subtree grown (as in Grow, but the
// root may be a leaf) to depth at most min(MutationDepth, room), where room
// keeps the offspring within MaxDepth. t is not modified.
func SubtreeMutation(rng *rand.Rand, t *Tree, s VarSettings) *Tree {
	s = s.mustValid("SubtreeMutation")
	if t.Size() == 0 {
		panic("expr.SubtreeMutation: empty tree")
	}
	at, _ := nodeDepths(t.nodes)
	ls := s.leavesFor(t, "SubtreeMutation")
	for range 8 {
		i := rng.IntN(len(t.nodes))
		room := s.MaxDepth - at[i] + 1
		if room < 1 {
			continue
		}
		sub := grow(rng, min(s.MutationDepth, room), ls, false, nil)
		child := &Tree{nodes: splice(t.nodes, i, subtreeEnd(t.nodes, i), sub), cat: t.cat}
		if child.Depth() <= s.MaxDepth {
			return child
		}
	}
	return t.Clone()
}

// PointMutation returns a copy of t with one uniformly chosen node replaced
// by a different node of the same arity: an operator by another of
// + − × %, a leaf by another terminal (or, with Constants, a fresh constant
// or a terminal). The shape, and so the depth, is unchanged. t is not
// modified.
func PointMutation(rng *rand.Rand, t *Tree, s VarSettings) *Tree {
	s = s.mustValid("PointMutation")
	if t.Size() == 0 {
		panic("expr.PointMutation: empty tree")
	}
	child := t.Clone()
	i := rng.IntN(len(child.nodes))
	old := child.nodes[i]
	if old.op.IsBinary() {
		op := OpAdd + Op(rng.IntN(3))
		if op >= old.op {
			op++ // skip the old operator: uniform over the other three
		}
		child.nodes[i] = node{op: op}
		return child
	}
	ls := s.leavesFor(t, "PointMutation")
	if !ls.constants && len(ls.vars) == 1 && ls.vars[0] == old.op {
		return child // a single terminal and no constants: no other leaf exists
	}
	for {
		n := ls.leaf(rng)
		if n.op != old.op || (n.op == OpConst && n.val != old.val) {
			child.nodes[i] = n
			return child
		}
	}
}

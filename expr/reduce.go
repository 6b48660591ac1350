package expr

import "slices"

// Reductions are the one-step reduction candidates of t: every tree
// obtained by replacing the subtree at one operator node by one of its
// two operands or by one of leaves (terminals or constants of t's
// catalogue), then simplified exactly (Simplify), that is strictly smaller
// than Simplify(t). Two candidates with the same canonical hash are one
// (the first kept). They come smallest first; among equal sizes, the
// replaced node nearer the root first, then operands before leaves, then
// leaves in the order given — so a greedy caller that accepts the first
// candidate it can prove equivalent takes the largest step first.
//
// Reductions never claims that a candidate computes what t computes: it
// proposes; the caller decides (learn checks each by simulation).
func Reductions(t *Tree, leaves []*Tree) []*Tree {
	base := Simplify(t)
	if base.Size() <= 1 {
		return nil
	}
	type cand struct {
		tree      *Tree
		size, pos int
		kind      int // 0, 1: an operand; 2+k: leaves[k]
	}
	var out []cand
	seen := map[uint64]bool{base.Hash(): true}
	add := func(n []node, pos, kind int) {
		c := Simplify(&Tree{nodes: n, cat: base.cat})
		if c.Size() >= base.Size() {
			return
		}
		h := c.Hash()
		if seen[h] {
			return
		}
		seen[h] = true
		out = append(out, cand{c, c.Size(), pos, kind})
	}
	nodes := base.nodes
	for i, n := range nodes {
		if !n.op.IsBinary() {
			continue
		}
		end := subtreeEnd(nodes, i)
		mid := subtreeEnd(nodes, i+1)
		add(splice(nodes, i, end, nodes[i+1:mid]), i, 0)
		add(splice(nodes, i, end, nodes[mid:end]), i, 1)
		for k, l := range leaves {
			if l.Size() != 1 || l.Terminals().Len() > 0 && l.cat != base.cat {
				continue
			}
			add(splice(nodes, i, end, l.nodes), i, 2+k)
		}
	}
	slices.SortStableFunc(out, func(a, b cand) int {
		switch {
		case a.size != b.size:
			return a.size - b.size
		case a.pos != b.pos:
			return a.pos - b.pos
		}
		return a.kind - b.kind
	})
	trees := make([]*Tree, len(out))
	for i, c := range out {
		trees[i] = c.tree
	}
	return trees
}

// ReductionLeaves are the leaves Reductions may put in place of a
// subtree: every terminal of terms (in catalogue order, of terms'
// catalogue) and the constants 0 and 1.
func ReductionLeaves(terms Terminals) []*Tree {
	c := terms.Catalogue()
	var out []*Tree
	for _, op := range terms.Ops() {
		out = append(out, c.Terminal(op))
	}
	return append(out, Constant(0), Constant(1))
}

// PushNegations moves negations 0 − x outwards and cancels them: bottom
// up, (0 − x) × y, x × (0 − y), (0 − x) % y and x % (0 − y) become
// 0 − (x ∘ y); x − (0 − y) becomes x + y; x + (0 − y) and (0 − y) + x
// become x − y; 0 − (0 − y) becomes y; then Simplify. It is exact up to
// the sign of a zero (IEEE negation is exact and commutes with × and /),
// which is why it is only a reduction candidate: learn accepts it after
// checking the schedule by simulation like any other.
func PushNegations(t *Tree) *Tree {
	if t.Size() == 0 {
		return &Tree{cat: t.Catalogue()}
	}
	p, _ := toPtr(t.nodes, 0)
	return Simplify(&Tree{nodes: flatten(pushNeg(p), make([]node, 0, len(t.nodes))), cat: t.cat})
}

func pushNeg(p *pnode) *pnode {
	if !p.op.IsBinary() {
		return p
	}
	l, r := pushNeg(p.l), pushNeg(p.r)
	neg := func(x *pnode) bool { return isNegation(x) && x.r.op != OpConst }
	negate := func(x *pnode) *pnode { return pushNeg(&pnode{op: OpSub, l: konst(0), r: x}) }
	switch p.op {
	case OpMul, OpDiv:
		switch {
		case neg(l) && neg(r):
			return &pnode{op: p.op, l: l.r, r: r.r}
		case neg(l):
			return negate(&pnode{op: p.op, l: l.r, r: r})
		case neg(r):
			return negate(&pnode{op: p.op, l: l, r: r.r})
		}
	case OpSub:
		switch {
		case isConst(l, 0) && neg(r):
			return r.r
		case neg(r):
			return &pnode{op: OpAdd, l: l, r: r.r}
		}
	case OpAdd:
		switch {
		case neg(r):
			return &pnode{op: OpSub, l: l, r: r.r}
		case neg(l):
			return &pnode{op: OpSub, l: r, r: l.r}
		}
	}
	return &pnode{op: p.op, l: l, r: r}
}

package expr

// Shorten returns a tree that computes exactly what t computes and prints
// (String) no longer than t: bottom-up, the operands of every sum and
// product are put in the order whose infix is shorter (IEEE + and × of
// two operands are commutative, as Simplify already assumes); on a tie
// the order stays, except that a negation 0 − x goes before a leaf, as
// it is typed ((0 - g) * d for -g*d, not d * (0 - g)). t is not modified.
func Shorten(t *Tree) *Tree {
	if t.Size() == 0 {
		return &Tree{}
	}
	p, _ := toPtr(t.nodes, 0)
	st := infixStyle()
	return &Tree{nodes: flatten(shorten(p, st), make([]node, 0, len(t.nodes)))}
}

func shorten(p *pnode, st style) *pnode {
	if !p.op.IsBinary() {
		return p
	}
	q := &pnode{op: p.op, l: shorten(p.l, st), r: shorten(p.r, st)}
	if q.op == OpAdd || q.op == OpMul {
		swapped := &pnode{op: q.op, l: q.r, r: q.l}
		ls, lq := len(st.sub(swapped)), len(st.sub(q))
		if ls < lq || ls == lq && !q.l.op.IsBinary() && isNegation(q.r) {
			return swapped // shorter, or as short with a negation first: (0 - g) * d
		}
	}
	return q
}

// isNegation reports whether p is 0 − x (how the parser reads -x).
func isNegation(p *pnode) bool { return p.op == OpSub && isConst(p.l, 0) }

// SimplifyForPrint is the simplification a reader sees: simplify(t)
// (Simplify, or SimplifyOn with a domain) with its operands ordered by
// Shorten, unless that prints longer than t itself (constant folding can
// turn 1 / 3 into 0.3333333333333333, the canonical operand order can
// move a parenthesised operand to the right), in which case it is
// Shorten(t): the result never prints longer than t and computes what
// simplify(t) computes.
func SimplifyForPrint(t *Tree, simplify func(*Tree) *Tree) *Tree {
	s := Shorten(simplify(t))
	if o := Shorten(t); len(s.String()) > len(t.String()) {
		return o
	}
	return s
}

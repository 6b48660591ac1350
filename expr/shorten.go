package expr

// Shorten returns a tree that computes exactly what t computes and prints
// (String) no longer than t: bottom-up, the operands of every sum and
// product are put in the order whose infix is shorter (IEEE + and × of
// two operands are commutative, as Simplify already assumes); on a tie
// the order stays, except that a negation 0 − x goes before a leaf, as
// it is typed ((0 - g) * d for -g*d, not d * (0 - g)). t is not modified.
func Shorten(t *Tree) *Tree {
	if t.Size() == 0 {
		return &Tree{cat: t.Catalogue()}
	}
	p, _ := toPtr(t.nodes, 0)
	st := infixStyle(t.Catalogue())
	q, _ := shorten(p, st)
	return &Tree{nodes: flatten(q, make([]node, 0, len(t.nodes))), cat: t.cat}
}

// shorten returns p with its sums and products ordered for the shorter
// infix, and the length of that infix, computed from the operands'
// lengths (linear in the tree's size): an operand is parenthesised as
// style.write does (left if it binds more loosely than its parent, right
// also if equally).
func shorten(p *pnode, st style) (*pnode, int) {
	switch {
	case p.op.IsTerminal():
		return p, len(st.varName(p.op))
	case p.op == OpConst:
		return p, len(st.num(p.val))
	}
	l, nl := shorten(p.l, st)
	r, nr := shorten(p.r, st)
	q := &pnode{op: p.op, l: l, r: r}
	n := printedLen(st, q, nl, nr)
	if q.op == OpAdd || q.op == OpMul {
		swapped := &pnode{op: q.op, l: r, r: l}
		ns := printedLen(st, swapped, nr, nl)
		if ns < n || ns == n && !l.op.IsBinary() && isNegation(r) {
			return swapped, ns // shorter, or as short with a negation first: (0 - g) * d
		}
	}
	return q, n
}

// printedLen is the infix length of the binary node p whose operands
// print in nl and nr characters.
func printedLen(st style, p *pnode, nl, nr int) int {
	pp := st.prec(p)
	if st.prec(p.l) < pp {
		nl += 2
	}
	if st.prec(p.r) <= pp {
		nr += 2
	}
	return nl + len(st.op(p.op)) + nr
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

package expr

import (
	"fmt"
	"strings"
)

// FormatOn is Format for a formula that only ever sees inputs of dom: in
// the latex and sympy formats a protected division whose divisor dom
// proves non-zero (interval analysis, as SimplifyOn) is printed as true
// division, \frac{a}{b} or a/b, and only the others keep the protection
// (\operatorname{pdiv}, the pdiv helper of SympyProgram). ProtectedDivisions tells whether any
// remain, so that a caller states the protection once, or not at all.
// LaTeX writes a negation 0 − x as −x; infix is Readable (a safe division
// "/", −x; it parses back to an Equal tree). Other formats print as
// Format does.
func FormatOn(t *Tree, format string, dom Domain) (string, error) {
	if t.Size() == 0 {
		return "", fmt.Errorf("expr: cannot format an empty tree")
	}
	if err := dom.Validate(); err != nil {
		return "", err
	}
	root, _ := toPtr(t.nodes, 0)
	var st style
	switch format {
	case "latex":
		safe := safeDivisions(root, dom, t.Catalogue())
		st = latexStyle(t.Catalogue())
		st.negUnary = true
		st.plainDiv = func(st style, b *strings.Builder, p *pnode) bool {
			if !safe[p] {
				return false
			}
			b.WriteString(`\frac{`)
			st.write(b, p.l)
			b.WriteString("}{")
			st.write(b, p.r)
			b.WriteString("}")
			return true
		}
	case "sympy":
		return SympyProgram([]SympyFormula{{Name: sympyName(t), Tree: t}}, &dom)
	case "infix":
		return Readable(t, dom), nil
	default:
		return Format(t, format)
	}
	var b strings.Builder
	st.write(&b, root)
	return b.String(), nil
}

// Readable is the infix form of t for a reader, on inputs of dom: a
// division dom proves safe (divisor never 0, as FormatOn) is written "/",
// one that may divide by 0 keeps the protected "%", and a negation 0 − x
// is written −x. Parse reads it back to a tree Equal to t ("/" and "%"
// both parse as protected division, −x as 0 − x), which on dom computes
// what the printed true divisions do. A dom that does not validate
// prints t as String does.
func Readable(t *Tree, dom Domain) string {
	if t.Size() == 0 {
		return ""
	}
	st := infixStyle(t.Catalogue())
	st.negUnary = true
	root, _ := toPtr(t.nodes, 0)
	if dom.validateIn(t.Catalogue()) == nil {
		st.safeDiv, st.divOp = safeDivisions(root, dom, t.Catalogue()), " / "
	}
	var b strings.Builder
	st.write(&b, root)
	return b.String()
}

// ProtectedDivisions counts the divisions of t whose divisor dom does not
// prove non-zero: those FormatOn prints with their protection.
func ProtectedDivisions(t *Tree, dom Domain) int {
	if t.Size() == 0 {
		return 0
	}
	p, _ := toPtr(t.nodes, 0)
	safe := safeDivisions(p, dom, t.Catalogue())
	n := 0
	var walk func(q *pnode)
	walk = func(q *pnode) {
		if !q.op.IsBinary() {
			return
		}
		if q.op == OpDiv && !safe[q] {
			n++
		}
		walk(q.l)
		walk(q.r)
	}
	walk(p)
	return n
}

// safeDivisions marks the divisions under p whose divisor's interval on
// dom excludes 0.
func safeDivisions(p *pnode, dom Domain, c Catalogue) map[*pnode]bool {
	var vars [MaxVariables]ival
	for op := range Op(c.Len()) {
		vars[op], _ = dom.BoundIn(c, op).interval()
	}
	safe := map[*pnode]bool{}
	var walk func(q *pnode) ival
	walk = func(q *pnode) ival {
		switch {
		case q.op.IsTerminal():
			return vars[q.op]
		case q.op == OpConst:
			return ival{q.val, q.val}
		}
		l, r := walk(q.l), walk(q.r)
		if q.op == OpDiv && r.nonZero() {
			safe[q] = true
		}
		return rangeOf(q.op, l, r)
	}
	walk(p)
	return safe
}

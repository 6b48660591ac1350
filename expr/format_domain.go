package expr

import (
	"fmt"
	"strings"
)

// FormatOn is Format for a formula that only ever sees inputs of dom: in
// the latex and sympy formats a protected division whose divisor dom
// proves non-zero (interval analysis, as SimplifyOn) is printed as true
// division, \frac{a}{b} or a/b, and only the others keep the protection
// (\operatorname{pdiv}, Piecewise). ProtectedDivisions tells whether any
// remain, so that a caller states the protection once, or not at all.
// Other formats print as Format does.
func FormatOn(t *Tree, format string, dom Domain) (string, error) {
	if t.Size() == 0 {
		return "", fmt.Errorf("expr: cannot format an empty tree")
	}
	if err := dom.Validate(); err != nil {
		return "", err
	}
	var st style
	switch format {
	case "latex":
		st = latexStyle(t.Catalogue())
		st.plainDiv = func(st style, b *strings.Builder, p *pnode) bool {
			if !safeDivisions(p, dom, t.Catalogue())[p] {
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
		st = sympyStyle(t.Catalogue())
		st.plainDiv = func(st style, b *strings.Builder, p *pnode) bool {
			if !safeDivisions(p, dom, t.Catalogue())[p] {
				return false
			}
			st.operand(b, p.l, p.l.op.IsBinary())
			b.WriteString("/")
			st.operand(b, p.r, p.r.op.IsBinary())
			return true
		}
	default:
		return Format(t, format)
	}
	p, _ := toPtr(t.nodes, 0)
	var b strings.Builder
	st.write(&b, p)
	return b.String(), nil
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

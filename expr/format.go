package expr

import (
	"fmt"
	"go/format"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Formats returns the names Format accepts, in a fixed order.
func Formats() []string { return []string{"infix", "prefix", "latex", "go", "sympy", "json", "dot"} }

// Format prints t in one of these forms:
//
//	infix   ((q + g) % q - u) * d — minimal parentheses, "%" for protected
//	        division; Parse reads it back to an Equal tree
//	prefix  Lisp style: (* (- (% (+ q g) q) u) d)
//	latex   math-mode LaTeX without macros; protected division is written
//	        \operatorname{pdiv}\left(a, b\right) so no reader mistakes it
//	        for a/b, and × is \cdot
//	go      gofmt'ed source of func priority(d, q, u, g float64) float64 that
//	        computes exactly what Eval computes (one more parameter per
//	        other terminal t uses, in catalogue order)
//	sympy   a Python program for SymPy (see SympyProgram) that declares
//	        the terminals it uses as symbols, defines protected division
//	        once as pdiv = Lambda(…, Piecewise(…)) when needed, and assigns
//	        the formula to priority (routing for a routing tree)
//	json    the JSON encoding of MarshalJSON
//	dot     a Graphviz digraph, operands in left-to-right order
//
// An unknown format is an error listing the known ones.
func Format(t *Tree, format string) (string, error) {
	if t.Size() == 0 {
		return "", fmt.Errorf("expr: cannot format an empty tree")
	}
	switch format {
	case "infix":
		return t.String(), nil
	case "prefix":
		return formatPrefix(t), nil
	case "latex":
		return formatInfix(t, latexStyle(t.cat)), nil
	case "go":
		return formatGo(t)
	case "sympy":
		return SympyProgram([]SympyFormula{{Name: sympyName(t), Tree: t}}, nil)
	case "json":
		b, err := t.MarshalJSON()
		return string(b), err
	case "dot":
		return formatDot(t), nil
	}
	return "", fmt.Errorf("expr: unknown format %q (want one of %s)", format, strings.Join(Formats(), ", "))
}

// String is the infix form (see Format); the empty tree prints as "".
func (t *Tree) String() string {
	if t.Size() == 0 {
		return ""
	}
	return formatInfix(t, infixStyle(t.cat))
}

// number is the shortest decimal that parses back to exactly v.
func number(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// style describes one infix-like notation.
type style struct {
	op  func(Op) string // binary operator between its operands
	num func(v float64) string
	// open and close parenthesise an operand; they are written around it
	// directly (never by building the operand's string first), so
	// printing stays linear in the tree size however deep it nests.
	open, close string
	// callParts, when set, writes protected division as a call
	// open + a + sep + b + close, linearly like parentheses; when nil,
	// it is the infix operator op(OpDiv).
	callParts *[3]string
	negParen  bool // parenthesise every negative constant operand
	varName   func(Op) string
	// plainDiv, when set, prints the divisions nonZero proves safe (the
	// divisor is never 0, so a % b = a / b) as true division; it writes
	// the operands with write (see format_domain.go).
	plainDiv func(st style, b *strings.Builder, p *pnode) bool
	// negUnary prints a negation 0 − x of a non-constant x as −x (how the
	// parser reads it back), parenthesised as a right operand.
	negUnary bool
	// safeDiv, when set, prints the infix divisions it holds (divisor
	// proved non-zero) with divOp instead of op(OpDiv).
	safeDiv map[*pnode]bool
	divOp   string
}

// isUnaryNeg reports whether st prints p as a unary minus.
func (st style) isUnaryNeg(p *pnode) bool {
	return st.negUnary && isNegation(p) && p.r.op != OpConst
}

func infixStyle(c Catalogue) style {
	return style{
		op:      func(o Op) string { return " " + o.String() + " " },
		num:     number,
		open:    "(",
		close:   ")",
		varName: c.Name,
	}
}

func latexStyle(c Catalogue) style {
	return style{
		op: func(o Op) string {
			switch o {
			case OpMul:
				return ` \cdot `
			}
			return " " + o.String() + " "
		},
		callParts: &[3]string{`\operatorname{pdiv}\left(`, ", ", `\right)`},
		num: func(v float64) string {
			s := number(v)
			if m, e, ok := strings.Cut(s, "e"); ok {
				if n, err := strconv.Atoi(e); err == nil {
					e = strconv.Itoa(n) // 10^{-7}, not 10^{-07}
				}
				if m == "1" {
					return "10^{" + e + "}"
				}
				return m + ` \times 10^{` + e + "}"
			}
			return s
		},
		open:     `\left(`,
		close:    `\right)`,
		negParen: true,
		varName:  c.Name,
	}
}

// sympyStyle prints one SymPy expression with protected division as a
// call of the pdiv helper that SympyProgram defines.
func sympyStyle(c Catalogue) style {
	return style{
		op:        func(o Op) string { return " " + o.String() + " " },
		callParts: &[3]string{"pdiv(", ", ", ")"},
		num:       number,
		open:      "(",
		close:     ")",
		varName:   c.Name,
	}
}

// prec is the binding strength of a node printed in style st: sums 1,
// products and infix divisions 2, leaves and calls 3.
func (st style) prec(p *pnode) int {
	if st.isUnaryNeg(p) {
		return 3
	}
	switch p.op {
	case OpAdd, OpSub:
		return 1
	case OpMul:
		return 2
	case OpDiv:
		if st.callParts == nil {
			return 2
		}
	}
	return 3
}

func formatInfix(t *Tree, st style) string {
	p, _ := toPtr(t.nodes, 0)
	var b strings.Builder
	st.write(&b, p)
	return b.String()
}

// write prints p. A left operand is parenthesised if it binds more loosely
// than its parent, a right operand also if it binds equally (the parser is
// left-associative, so a - (b - c) and a + (b + c) keep their shape).
func (st style) write(b *strings.Builder, p *pnode) {
	switch {
	case p.op.IsTerminal():
		b.WriteString(st.varName(p.op))
		return
	case p.op == OpConst:
		b.WriteString(st.num(p.val))
		return
	}
	if p.op == OpDiv && st.plainDiv != nil && st.plainDiv(st, b, p) {
		return
	}
	if p.op == OpDiv && st.callParts != nil {
		b.WriteString(st.callParts[0])
		st.write(b, p.l)
		b.WriteString(st.callParts[1])
		st.write(b, p.r)
		b.WriteString(st.callParts[2])
		return
	}
	if st.isUnaryNeg(p) {
		b.WriteString("-")
		st.operand(b, p.r, st.prec(p.r) < 3 || st.isUnaryNeg(p.r))
		return
	}
	pp := st.prec(p)
	st.operand(b, p.l, st.prec(p.l) < pp)
	if p.op == OpDiv && st.safeDiv[p] {
		b.WriteString(st.divOp)
	} else {
		b.WriteString(st.op(p.op))
	}
	st.operand(b, p.r, st.prec(p.r) <= pp || st.isUnaryNeg(p.r))
}

func (st style) operand(b *strings.Builder, p *pnode, paren bool) {
	if st.negParen && p.op == OpConst && math.Signbit(p.val) {
		paren = true
	}
	if !paren {
		st.write(b, p)
		return
	}
	b.WriteString(st.open)
	st.write(b, p)
	b.WriteString(st.close)
}

func formatPrefix(t *Tree) string {
	var b strings.Builder
	var rec func(i int) int
	rec = func(i int) int {
		n := t.nodes[i]
		switch {
		case n.op.IsTerminal():
			b.WriteString(t.cat.Name(n.op))
			return i + 1
		case n.op == OpConst:
			b.WriteString(number(n.val))
			return i + 1
		}
		b.WriteString("(" + n.op.String() + " ")
		j := rec(i + 1)
		b.WriteByte(' ')
		k := rec(j)
		b.WriteByte(')')
		return k
	}
	rec(0)
	return b.String()
}

func formatDot(t *Tree) string {
	var b strings.Builder
	b.WriteString("digraph expr {\n\tordering=out;\n\tnode [fontname=\"Helvetica\"];\n")
	var rec func(i int) int
	rec = func(i int) int {
		n := t.nodes[i]
		switch {
		case n.op.IsTerminal():
			fmt.Fprintf(&b, "\tn%d [label=%q, shape=box];\n", i, t.cat.Name(n.op))
			return i + 1
		case n.op == OpConst:
			fmt.Fprintf(&b, "\tn%d [label=%q, shape=box, style=rounded];\n", i, number(n.val))
			return i + 1
		}
		label := n.op.String()
		if n.op == OpDiv {
			label = "% (protected)"
		}
		fmt.Fprintf(&b, "\tn%d [label=%q, shape=ellipse];\n", i, label)
		fmt.Fprintf(&b, "\tn%d -> n%d;\n", i, i+1)
		j := rec(i + 1)
		fmt.Fprintf(&b, "\tn%d -> n%d;\n", i, j)
		return rec(j)
	}
	rec(0)
	b.WriteString("}\n")
	return b.String()
}

// formatGo prints a Go function computing exactly Eval. Three details keep
// it exact: protected division goes through a pdiv closure; products that
// feed +, − or pdiv are wrapped in float64(…) (the Go spec lets a compiler
// fuse x*y + z into an FMA unless x*y is explicitly converted); and
// constants inside constant-only subexpressions are bound to variables,
// because Go evaluates constant expressions exactly instead of in float64.
// A −0 constant becomes a variable too, since the Go constant -0 is +0.
func formatGo(t *Tree) (string, error) {
	p, _ := toPtr(t.nodes, 0)
	var decls []string
	consts := map[uint64]string{}
	usesDiv := false
	var expr func(p *pnode, inConstOnly bool) string
	constOnly := func(p *pnode) bool {
		var rec func(*pnode) bool
		rec = func(p *pnode) bool {
			if p.op.IsTerminal() {
				return false
			}
			return p.op == OpConst || (rec(p.l) && rec(p.r))
		}
		return rec(p)
	}
	wrap := func(p *pnode, s string) string {
		if p.op == OpMul {
			return "float64(" + s + ")"
		}
		return s
	}
	expr = func(p *pnode, inConstOnly bool) string {
		switch {
		case p.op.IsTerminal():
			return t.cat.Name(p.op)
		case p.op == OpConst:
			negZero := p.val == 0 && math.Signbit(p.val)
			if !inConstOnly && !negZero {
				return number(p.val)
			}
			bits := math.Float64bits(p.val)
			name, ok := consts[bits]
			if !ok {
				name = fmt.Sprintf("c%d", len(consts))
				consts[bits] = name
				if negZero {
					decls = append(decls, name+" := 0.0", name+" = -"+name+" // −0: the constant -0 would be +0")
				} else {
					decls = append(decls, fmt.Sprintf("%s := float64(%s)", name, number(p.val)))
				}
			}
			return name
		}
		co := inConstOnly || constOnly(p)
		l, r := expr(p.l, co), expr(p.r, co)
		switch p.op {
		case OpDiv:
			usesDiv = true
			return "pdiv(" + wrap(p.l, l) + ", " + wrap(p.r, r) + ")"
		case OpMul:
			return parenGo(p.l, l, OpMul, false) + " * " + parenGo(p.r, r, OpMul, true)
		}
		return parenGo(p.l, wrap(p.l, l), p.op, false) + " " + p.op.String() + " " + parenGo(p.r, wrap(p.r, r), p.op, true)
	}
	body := expr(p, false)
	var b strings.Builder
	fn, what := "priority", "(smaller = scheduled earlier)"
	if t.cat == Routing {
		fn, what = "routing", "(smaller = cluster preferred)"
	}
	// Every parameter the formula reads is documented; the others are
	// blank, so that the signature keeps its positions (d, q, u, g, then
	// the extra terminals) without unused names.
	used := t.Terminals()
	params := []Op{OpD, OpQ, OpU, OpG}
	params = append(params, used.Minus(PaperTerminals).Ops()...)
	names := make([]string, len(params))
	fmt.Fprintf(&b, "// %s computes %s\n", fn, t.String())
	b.WriteString("// " + what)
	if usesDiv {
		b.WriteString(", where num % den is protected division:\n// num if den == 0, else num / den")
	}
	b.WriteString(".\n")
	first := true
	for i, op := range params {
		names[i] = "_"
		if !used.Has(op) {
			continue
		}
		names[i] = t.cat.Name(op)
		if first {
			b.WriteString("//\n// Inputs of the job")
			if t.cat == Routing {
				b.WriteString(" j and the cluster p")
			}
			b.WriteString(":\n//\n")
			first = false
		}
		fmt.Fprintf(&b, "//   - %s: %s\n", names[i], t.cat.table()[op].Doc)
	}
	if slices.Contains(names, "_") {
		b.WriteString("//\n// Inputs it does not read are blank (_).\n")
	}
	b.WriteString("func " + fn + "(" + strings.Join(names, ", ") + " float64) float64 {\n")
	if usesDiv { // num and den: no terminal is called that, so no job variable is shadowed
		b.WriteString("pdiv := func(num, den float64) float64 {\nif den == 0 {\nreturn num\n}\nreturn num / den\n}\n")
	}
	for _, d := range decls {
		b.WriteString(d + "\n")
	}
	b.WriteString("return " + body + "\n}\n")
	out, err := format.Source([]byte(b.String()))
	if err != nil {
		return "", fmt.Errorf("expr: formatting generated Go: %w", err)
	}
	return string(out), nil
}

// parenGo parenthesises the Go operand s of a parent op by Go's
// precedences (+ − 4, * 5, left-associative); a pdiv call, a float64(…)
// conversion or a leaf never needs parentheses.
func parenGo(p *pnode, s string, parent Op, right bool) string {
	if p.op == OpMul && parent != OpMul {
		return s // wrapped in float64(…) by the caller
	}
	pp := 4
	if parent == OpMul {
		pp = 5
	}
	var cp int
	switch p.op {
	case OpAdd, OpSub:
		cp = 4
	case OpMul:
		cp = 5
	default:
		return s
	}
	if cp < pp || (right && cp == pp) {
		return "(" + s + ")"
	}
	return s
}

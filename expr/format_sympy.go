package expr

import (
	"fmt"
	"strings"
)

// SympyFormula is one named formula of a SymPy program (SympyProgram).
type SympyFormula struct {
	Name    string // the Python variable it is assigned to
	Comment string // an optional line printed as "# Comment" above it
	Tree    *Tree
}

// sympyPdiv defines protected division once (SPEC §5.2: a % b = a if
// b = 0, else a / b). A Lambda, not a Python def, so that pdiv(1, 0) of
// two literal numbers is evaluated by SymPy (to 1), never by Python (a
// ZeroDivisionError). Its bound symbols are named _a and _b so that they
// cannot be mistaken for the terminal a.
const sympyPdiv = "_a, _b = symbols(\"_a _b\")\n" +
	"pdiv = Lambda((_a, _b), Piecewise((_a, Eq(_b, 0)), (_a/_b, True)))\n"

// SympyProgram prints formulas as one Python program for SymPy:
//
//	from sympy import Eq, Lambda, Piecewise, symbols
//
//	d, q, g = symbols("d q g")
//	# protected division (SPEC §5.2): pdiv(a, b) = a if b = 0, else a/b
//	_a, _b = symbols("_a _b")
//	pdiv = Lambda((_a, _b), Piecewise((_a, Eq(_b, 0)), (_a/_b, True)))
//	priority = pdiv(q + g, q) * d
//
// Every terminal the formulas use is declared as a symbol (so that names
// SymPy gives a meaning, such as N and C of a routing tree, are plain
// symbols here), and protected division is one helper, pdiv, defined once
// and only when used: however deeply divisions nest, the text has at most
// one Piecewise. With dom non-nil, a division whose divisor dom proves
// non-zero (the interval analysis of FormatOn) is printed as a true
// division a/b. Running the program assigns each formula's SymPy
// expression to its name.
func SympyProgram(formulas []SympyFormula, dom *Domain) (string, error) {
	if dom != nil {
		if err := dom.Validate(); err != nil {
			return "", err
		}
	}
	var names []string
	seen := map[string]bool{}
	bodies := make([]string, len(formulas))
	usesPdiv := false
	for i, f := range formulas {
		if f.Tree.Size() == 0 {
			return "", fmt.Errorf("expr: cannot format an empty tree (%s)", f.Name)
		}
		var protected int
		bodies[i], protected = sympyExpr(f.Tree, dom)
		usesPdiv = usesPdiv || protected > 0
		for _, n := range f.Tree.Terminals().Names() {
			if !seen[n] {
				seen[n] = true
				names = append(names, n)
			}
		}
	}
	var imports []string
	if usesPdiv {
		imports = append(imports, "Eq", "Lambda", "Piecewise")
	}
	if usesPdiv || len(names) > 0 {
		imports = append(imports, "symbols")
	}
	var b strings.Builder
	if len(imports) > 0 {
		b.WriteString("from sympy import " + strings.Join(imports, ", ") + "\n\n")
	}
	switch len(names) {
	case 0:
	case 1:
		fmt.Fprintf(&b, "%s = symbols(%q)\n", names[0], names[0])
	default:
		fmt.Fprintf(&b, "%s = symbols(%q)\n", strings.Join(names, ", "), strings.Join(names, " "))
	}
	if usesPdiv {
		b.WriteString("# protected division (SPEC §5.2): pdiv(a, b) = a if b = 0, else a/b\n")
		b.WriteString(sympyPdiv)
	}
	for i, f := range formulas {
		if f.Comment != "" {
			b.WriteString("# " + f.Comment + "\n")
		}
		b.WriteString(f.Name + " = " + bodies[i] + "\n")
	}
	return b.String(), nil
}

// sympyName is the variable a lone tree is assigned to: the name of the
// function the go format prints.
func sympyName(t *Tree) string {
	if t.Catalogue() == Routing {
		return "routing"
	}
	return "priority"
}

// sympyExpr is t as one SymPy expression with protected division as
// pdiv(a, b) calls, except the divisions dom (when non-nil) proves safe,
// printed a/b; it also returns how many pdiv calls it printed.
func sympyExpr(t *Tree, dom *Domain) (string, int) {
	p, _ := toPtr(t.nodes, 0)
	st := sympyStyle(t.Catalogue())
	var safe map[*pnode]bool
	var needsParen func(q *pnode) bool
	if dom != nil {
		safe = safeDivisions(p, *dom, t.Catalogue())
		// An operand of a true division is parenthesised unless it is a
		// leaf or a pdiv call.
		needsParen = func(q *pnode) bool { return q.op.IsBinary() && (q.op != OpDiv || safe[q]) }
		st.plainDiv = func(st style, b *strings.Builder, q *pnode) bool {
			if !safe[q] {
				return false
			}
			st.operand(b, q.l, needsParen(q.l))
			b.WriteString("/")
			st.operand(b, q.r, needsParen(q.r))
			return true
		}
	}
	var b strings.Builder
	st.write(&b, p)
	protected := 0
	var walk func(q *pnode)
	walk = func(q *pnode) {
		if !q.op.IsBinary() {
			return
		}
		if q.op == OpDiv && !safe[q] {
			protected++
		}
		walk(q.l)
		walk(q.r)
	}
	walk(p)
	return b.String(), protected
}

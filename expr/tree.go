package expr

import (
	"fmt"
	"math"
)

// Op is the kind of a tree node: a terminal, a constant or a binary operator.
type Op uint8

// The node kinds. The terminals come first: Op(i) for i < MaxVariables is
// the i-th entry of the tree's terminal catalogue (terminals.go for the
// ranking's, catalogue.go for the routing's). The paper's four
// are named here, in the order of the arguments of Eval (d, q, u, g), so
// that their Op is their argument index; the others are reached by name
// (VariableByName) — a terminal is data, not a constant of this list.
const (
	OpD Op = 0 // remaining duration
	OpQ Op = 1 // queuing time so far
	OpU Op = 2 // user priority
	OpG Op = 3 // GPU demand
)

// The constant and operator kinds follow the terminals.
const (
	OpConst Op = MaxVariables + iota // ephemeral constant (finite float64)
	OpAdd                            // a + b
	OpSub                            // a − b
	OpMul                            // a × b
	OpDiv                            // protected division: a if b == 0, else a / b
	numOps
)

// IsTerminal reports whether o is a terminal slot (of some catalogue).
func (o Op) IsTerminal() bool { return o < OpConst }

// IsLeaf reports whether o has no operands (a terminal or a constant).
func (o Op) IsLeaf() bool { return o <= OpConst }

// IsBinary reports whether o is one of + − × %.
func (o Op) IsBinary() bool { return o >= OpAdd && o < numOps }

// String is the infix symbol of o: a terminal's name ("d", "q", …; the
// ranking name of a slot both catalogues have, see Catalogue.Name for a
// tree's own), "const", "+", "-", "*" or "%".
func (o Op) String() string {
	if o.IsTerminal() {
		if o < NumVariables {
			return catalogue[o].Name
		}
		return routingCatalogue[o].Name
	}
	switch o {
	case OpConst:
		return "const"
	case OpAdd:
		return "+"
	case OpSub:
		return "-"
	case OpMul:
		return "*"
	case OpDiv:
		return "%"
	}
	return fmt.Sprintf("Op(%d)", uint8(o))
}

// node is one entry of a tree's prefix (pre-order) encoding.
type node struct {
	op  Op
	val float64 // the value of an OpConst node; 0 otherwise
}

// Tree is an expression tree, stored as its nodes in prefix order (each
// operator followed by its left and then its right operand). Trees have value
// semantics: no exported function or method modifies a Tree it is given,
// except UnmarshalJSON, which sets its receiver. Sharing a *Tree between
// goroutines is therefore safe.
//
// The zero Tree is empty and is not a formula; build trees with Parse,
// MustParse, Terminal, Constant, Binary or the generators.
//
// A tree belongs to one Catalogue (Tree.Catalogue): the zero Tree and every
// tree built without naming one are ranking trees.
type Tree struct {
	nodes []node
	cat   Catalogue
}

// Terminal returns the one-leaf ranking tree for the terminal op (OpD,
// OpQ, OpU, OpG or any other ranking catalogue entry). It panics on any
// other op. Routing.Terminal builds routing leaves.
func Terminal(op Op) *Tree {
	if !op.IsTerminal() || op >= NumVariables {
		panic(fmt.Sprintf("expr.Terminal: %v is not a terminal", op))
	}
	return &Tree{nodes: []node{{op: op}}}
}

// Constant returns the one-leaf tree holding v. It panics if v is NaN or
// ±Inf: constants are finite so that every printed form parses back.
func Constant(v float64) *Tree {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		panic(fmt.Sprintf("expr.Constant: %v is not finite", v))
	}
	return &Tree{nodes: []node{{op: OpConst, val: v}}}
}

// Binary returns the tree op(l, r) for a binary op; l and r are copied, not
// shared. The result has the catalogue of an operand that has terminals
// (a constant-only operand joins either). It panics if op is not binary,
// an operand is empty, or the operands' terminals are of two catalogues.
func Binary(op Op, l, r *Tree) *Tree {
	if !op.IsBinary() {
		panic(fmt.Sprintf("expr.Binary: %v is not a binary operator", op))
	}
	if l.Size() == 0 || r.Size() == 0 {
		panic("expr.Binary: empty operand")
	}
	cat := l.cat
	switch lt, rt := l.Terminals().Len() > 0, r.Terminals().Len() > 0; {
	case lt && rt && l.cat != r.cat:
		panic(fmt.Sprintf("expr.Binary: a %v operand and a %v operand", l.cat, r.cat))
	case !lt:
		cat = r.cat
	}
	n := make([]node, 0, 1+len(l.nodes)+len(r.nodes))
	n = append(n, node{op: op})
	n = append(n, l.nodes...)
	n = append(n, r.nodes...)
	return &Tree{nodes: n, cat: cat}
}

// Size is the number of nodes (leaves and operators).
func (t *Tree) Size() int {
	if t == nil {
		return 0
	}
	return len(t.nodes)
}

// Depth is the number of nodes on the longest root-to-leaf path; a single
// leaf has depth 1 and the empty tree depth 0.
func (t *Tree) Depth() int {
	if t.Size() == 0 {
		return 0
	}
	_, d := subtreeDepth(t.nodes, 0)
	return d
}

// Root is the kind of the root node (meaningless for an empty tree).
func (t *Tree) Root() Op {
	if t.Size() == 0 {
		return numOps
	}
	return t.nodes[0].op
}

// Value is the constant held by a one-leaf constant tree, and whether t is
// one.
func (t *Tree) Value() (float64, bool) {
	if t.Size() == 1 && t.nodes[0].op == OpConst {
		return t.nodes[0].val, true
	}
	return 0, false
}

// Operands returns copies of the left and right operands of a binary root,
// or nil, nil if the root is a leaf.
func (t *Tree) Operands() (l, r *Tree) {
	if t.Size() == 0 || !t.nodes[0].op.IsBinary() {
		return nil, nil
	}
	le := subtreeEnd(t.nodes, 1)
	return &Tree{nodes: cloneNodes(t.nodes[1:le]), cat: t.cat}, &Tree{nodes: cloneNodes(t.nodes[le:]), cat: t.cat}
}

// Clone returns a deep copy of t.
func (t *Tree) Clone() *Tree {
	if t == nil {
		return nil
	}
	return &Tree{nodes: cloneNodes(t.nodes), cat: t.cat}
}

// Equal reports whether t and o have the same catalogue, structure,
// operators, terminals and constants. Constants compare by bit pattern, so
// 0 and −0 differ.
func (t *Tree) Equal(o *Tree) bool {
	if t.Size() != o.Size() || t.Catalogue() != o.Catalogue() {
		return false
	}
	for i, n := range t.nodes {
		m := o.nodes[i]
		if n.op != m.op || math.Float64bits(n.val) != math.Float64bits(m.val) {
			return false
		}
	}
	return true
}

// Uses reports whether terminal op occurs in t.
func (t *Tree) Uses(op Op) bool {
	if t == nil {
		return false
	}
	for _, n := range t.nodes {
		if n.op == op {
			return true
		}
	}
	return false
}

// Eval computes the tree's value at (d, q, u, g), every other terminal
// being 0, by walking it. It is the reference semantics; Program.Eval
// computes the same values faster. An empty tree evaluates to NaN.
func (t *Tree) Eval(d, q, u, g float64) float64 {
	return t.EvalVars(&Vars{d, q, u, g})
}

// EvalVars computes the tree's value with terminal op bound to vars[op].
func (t *Tree) EvalVars(vars *Vars) float64 {
	if t.Size() == 0 {
		return math.NaN()
	}
	v, _ := evalAt(t.nodes, 0, vars)
	return v
}

// evalAt evaluates the subtree starting at nodes[i] and returns its value
// and the index just past it.
func evalAt(nodes []node, i int, vars *Vars) (float64, int) {
	n := nodes[i]
	switch {
	case n.op.IsTerminal():
		return vars[n.op], i + 1
	case n.op == OpConst:
		return n.val, i + 1
	}
	a, j := evalAt(nodes, i+1, vars)
	b, k := evalAt(nodes, j, vars)
	return apply(n.op, a, b), k
}

// apply is the single definition of the four operators.
func apply(op Op, a, b float64) float64 {
	switch op {
	case OpAdd:
		return a + b
	case OpSub:
		return a - b
	case OpMul:
		return float64(a * b) // explicit rounding: forbids FMA fusion
	case OpDiv:
		return pdiv(a, b)
	}
	panic(fmt.Sprintf("expr: apply on %v", op))
}

// pdiv is protected division: a if b == 0, else a / b.
func pdiv(a, b float64) float64 {
	if b == 0 {
		return a
	}
	return a / b
}

// subtreeEnd returns the index just past the subtree that starts at i. Each
// node consumes one pending operand slot and opens as many as it has
// operands.
func subtreeEnd(nodes []node, i int) int {
	need := 1
	for need > 0 {
		if nodes[i].op.IsBinary() {
			need++
		} else {
			need--
		}
		i++
	}
	return i
}

// subtreeDepth returns the end index and the depth of the subtree at i.
func subtreeDepth(nodes []node, i int) (end, depth int) {
	if !nodes[i].op.IsBinary() {
		return i + 1, 1
	}
	j, dl := subtreeDepth(nodes, i+1)
	k, dr := subtreeDepth(nodes, j)
	return k, 1 + max(dl, dr)
}

// nodeDepths returns, for every node, its depth in the tree (root = 1) and
// the depth of the subtree rooted at it (leaf = 1).
func nodeDepths(nodes []node) (at, height []int) {
	at = make([]int, len(nodes))
	height = make([]int, len(nodes))
	var walk func(i, d int) int
	walk = func(i, d int) int {
		at[i] = d
		if !nodes[i].op.IsBinary() {
			height[i] = 1
			return i + 1
		}
		j := walk(i+1, d+1)
		k := walk(j, d+1)
		height[i] = 1 + max(height[i+1], height[j])
		return k
	}
	walk(0, 1)
	return at, height
}

// splice returns a new node slice: dst with dst[i:j] replaced by src.
func splice(dst []node, i, j int, src []node) []node {
	out := make([]node, 0, len(dst)-(j-i)+len(src))
	out = append(out, dst[:i]...)
	out = append(out, src...)
	return append(out, dst[j:]...)
}

func cloneNodes(n []node) []node {
	return append([]node(nil), n...)
}

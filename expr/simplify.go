package expr

import (
	"math"
)

// Simplify returns a tree that computes exactly the same float64 as t for
// every input (d, q, u, g) — including ±0, ±Inf and NaN, and including the
// sign of a zero result — and is usually smaller. t is not modified.
//
// Rules, applied bottom-up until none applies (x, y any subtree, c, k
// constants):
//
//	c ∘ k         → the constant c ∘ k (folding with the evaluator's own
//	                arithmetic), only if the result is finite
//	x × 1, 1 × x  → x          (x·1 = x for every float64)
//	x % 1         → x          (1 ≠ 0, and x/1 = x)
//	x % ±0        → x          (protected division by a zero constant)
//	x + (−0)      → x          (x + (−0) = x, also for x = −0; x + (+0) is
//	                            NOT x when x = −0, so it stays)
//	x − (+0)      → x
//	x + c, c < 0  → x − (−c)   (IEEE defines a − b as a + (−b), so the two
//	x − c, c < 0  → x + (−c)    are bit-identical; keeps constants positive)
//	x + x         → 2 × x      (both are the correctly rounded 2x)
//	x + y, x × y  → operands in canonical order (IEEE + and × of two
//	                operands are commutative, NaN payloads aside)
//
// The canonical order puts constants last in a sum and first in a product
// (d + 0.5, 2 × d), and otherwise orders terminals d < q < u < g before
// operators, comparing operands lexicographically. Sums and products are
// never re-associated ((a + b) + c differs from a + (b + c) in floating
// point), and none of x − x → 0, x % x → 1, 0 % x → 0, x × 0 → 0, x + 0 → x
// is applied, because each is wrong for some input (Inf, NaN, 0 or −0).
//
// Simplify is idempotent, never increases size or depth, and trees that
// differ only by the rules above simplify to Equal trees.
func Simplify(t *Tree) *Tree {
	if t.Size() == 0 {
		return &Tree{cat: t.Catalogue()}
	}
	p, _ := toPtr(t.nodes, 0)
	out := make([]node, 0, len(t.nodes))
	return &Tree{nodes: flatten(simp(p), out), cat: t.cat}
}

// Hash is a 64-bit hash of Simplify(t): trees that simplify to Equal trees
// have the same hash, so the learner can cache fitness by it. The value is
// FNV-1a over the simplified prefix encoding (one byte per node kind, plus
// the 8 bytes of each constant), finished with a 64-bit mixer; it is stable
// across runs, processes and platforms.
func (t *Tree) Hash() uint64 {
	return Simplify(t).rawHash()
}

// rawHash hashes t's nodes as they are (no simplification).
func (t *Tree) rawHash() uint64 {
	const (
		offset = 14695981039346656037
		prime  = 1099511628211
	)
	h := uint64(offset)
	if t.cat != Ranking {
		// A routing tree hashes apart from the ranking tree with the same
		// slots; ranking hashes are those of the one-catalogue encoding.
		h = (h ^ (0x80 | uint64(t.cat))) * prime
	}
	for _, n := range t.nodes {
		h = (h ^ hashCode(n.op)) * prime
		if n.op == OpConst {
			b := math.Float64bits(n.val)
			for range 8 {
				h = (h ^ (b & 0xff)) * prime
				b >>= 8
			}
		}
	}
	// Final avalanche (the splitmix64 finaliser) so that low bits are usable
	// as table indices.
	h ^= h >> 30
	h *= 0xbf58476d1ce4e5b9
	h ^= h >> 27
	h *= 0x94d049bb133111eb
	h ^= h >> 31
	return h
}

// hashCode is the byte that stands for op in Hash. It is fixed per kind, not
// the Op value, so that hashes stay the same when terminals are added to the
// catalogue: d, q, u, g are 0–3, a constant 4, + − × % 5–8 (the codes of the
// original four-terminal encoding), and the other terminals 9, 10, … in
// catalogue order.
func hashCode(op Op) uint64 {
	switch {
	case op <= OpG:
		return uint64(op)
	case op.IsTerminal():
		return 9 + uint64(op-OpG-1)
	}
	return 4 + uint64(op-OpConst)
}

// pnode is the pointer form used while simplifying.
type pnode struct {
	op   Op
	val  float64
	l, r *pnode
}

func toPtr(nodes []node, i int) (*pnode, int) {
	n := &pnode{op: nodes[i].op, val: nodes[i].val}
	if !n.op.IsBinary() {
		return n, i + 1
	}
	var j int
	n.l, j = toPtr(nodes, i+1)
	n.r, j = toPtr(nodes, j)
	return n, j
}

func flatten(p *pnode, out []node) []node {
	out = append(out, node{op: p.op, val: p.val})
	if p.op.IsBinary() {
		out = flatten(p.l, out)
		out = flatten(p.r, out)
	}
	return out
}

// simp simplifies bottom-up.
func simp(p *pnode) *pnode {
	if !p.op.IsBinary() {
		return p
	}
	return mk(p.op, simp(p.l), simp(p.r))
}

func isConst(p *pnode, v float64) bool {
	return p.op == OpConst && math.Float64bits(p.val) == math.Float64bits(v)
}

func konst(v float64) *pnode { return &pnode{op: OpConst, val: v} }

// mk builds op(l, r) from simplified operands and returns it simplified.
// Every rule's result is either an operand (already simplified), a
// constant, or built again through mk, and each rewrite shrinks the tree or
// reaches a form no rule applies to, so the recursion terminates.
func mk(op Op, l, r *pnode) *pnode {
	if l.op == OpConst && r.op == OpConst {
		if v := apply(op, l.val, r.val); !math.IsNaN(v) && !math.IsInf(v, 0) {
			return konst(v)
		}
	}
	switch op {
	case OpAdd:
		if comparePtr(l, r, OpAdd) > 0 {
			l, r = r, l
		}
		switch {
		case isConst(r, math.Copysign(0, -1)):
			return l
		case r.op == OpConst && r.val < 0:
			return mk(OpSub, l, konst(-r.val))
		case equalPtr(l, r):
			return mk(OpMul, konst(2), l)
		}
	case OpSub:
		switch {
		case isConst(r, 0):
			return l
		case r.op == OpConst && (r.val < 0 || isConst(r, math.Copysign(0, -1))):
			return mk(OpAdd, l, konst(-r.val))
		}
	case OpMul:
		if comparePtr(l, r, OpMul) > 0 {
			l, r = r, l
		}
		switch {
		case isConst(l, 1):
			return r
		case isConst(r, 1):
			return l
		}
	case OpDiv:
		if isConst(r, 1) || (r.op == OpConst && r.val == 0) {
			return l
		}
	}
	return &pnode{op: op, l: l, r: r}
}

// rank orders node kinds for the canonical operand order.
func rank(p *pnode) int {
	if p.op == OpConst {
		return -1
	}
	return int(p.op)
}

// comparePtr is a total order on trees used to sort the operands of the
// commutative parent op: constants sort last under + and first under ×,
// then by kind (d < q < u < g < + < − < × < %), then constants by value
// (−0 before +0), then operands lexicographically.
func comparePtr(a, b *pnode, parent Op) int {
	ac, bc := a.op == OpConst, b.op == OpConst
	if ac != bc && parent == OpAdd {
		if ac {
			return 1
		}
		return -1
	}
	return cmpTree(a, b)
}

func cmpTree(a, b *pnode) int {
	if ra, rb := rank(a), rank(b); ra != rb {
		if ra < rb {
			return -1
		}
		return 1
	}
	switch {
	case a.op == OpConst:
		return cmpFloat(a.val, b.val)
	case !a.op.IsBinary():
		return 0
	}
	if c := cmpTree(a.l, b.l); c != 0 {
		return c
	}
	return cmpTree(a.r, b.r)
}

// cmpFloat orders finite constants, −0 before +0.
func cmpFloat(x, y float64) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	sx, sy := math.Signbit(x), math.Signbit(y)
	switch {
	case sx == sy:
		return 0
	case sx:
		return -1
	}
	return 1
}

func equalPtr(a, b *pnode) bool { return cmpTree(a, b) == 0 }

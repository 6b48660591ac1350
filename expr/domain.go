package expr

import (
	"fmt"
	"math"
)

// Bound is the set of values one input of a priority function can take:
// the finite float64 values x with Lo ≤ x ≤ Hi, where "≤" becomes "<" on a
// side whose Strict flag is set. Lo = −Inf or Hi = +Inf leaves that side
// unbounded; the input itself is still finite (a Domain never contains ±Inf
// or NaN).
type Bound struct {
	Lo, Hi             float64
	LoStrict, HiStrict bool
}

// Domain describes the inputs a priority function sees, one Bound per
// terminal: D, Q, U, G for the paper's four, and Extra for the others
// (indexed by Op; an entry left nil takes the catalogue's Bound, see
// Variable). SimplifyOn uses it to prove signs and ranges of subtrees.
type Domain struct {
	D, Q, U, G Bound
	Extra      map[Op]Bound
}

// Bound returns the bound of ranking terminal op in dom.
func (dom Domain) Bound(op Op) Bound { return dom.BoundIn(Ranking, op) }

// BoundIn returns the bound of terminal op of catalogue c in dom: D, Q, U, G
// for the shared four, else Extra[op], else c's catalogue entry. Extra is
// keyed by slot, so one Domain describes one catalogue's extras.
func (dom Domain) BoundIn(c Catalogue, op Op) Bound {
	switch op {
	case OpD:
		return dom.D
	case OpQ:
		return dom.Q
	case OpU:
		return dom.U
	case OpG:
		return dom.G
	}
	if b, ok := dom.Extra[op]; ok {
		return b
	}
	return c.table()[op].Bound
}

// DefaultDomain is the domain of the simulator's inputs (SPEC §2, §3):
//
//	d ≥ 1/3600   a job's remaining duration is at least 1 s: 1/3600 h in
//	             the default hours, 1 with gp.time_unit: seconds
//	q ≥ 0        queuing time so far
//	u ≥ 1        user priority (an integer ≥ 1)
//	g ≥ 1        GPU demand (an integer ≥ 1)
//
// all finite and unbounded above; the other terminals have the Bound of
// their catalogue entry (a, f, n ≥ 0; r, w ≥ 1; e ∈ [0, 1]; v ∈ (0, 1]; s
// unbounded).
func DefaultDomain() Domain {
	inf := math.Inf(1)
	return Domain{
		D: Bound{Lo: 1.0 / 3600, Hi: inf},
		Q: Bound{Lo: 0, Hi: inf},
		U: Bound{Lo: 1, Hi: inf},
		G: Bound{Lo: 1, Hi: inf},
	}
}

// Validate reports a Bound of a ranking terminal that contains no finite
// float64.
func (dom Domain) Validate() error { return dom.validateIn(Ranking) }

// validateIn is Validate for the terminals of catalogue c.
func (dom Domain) validateIn(c Catalogue) error {
	for op := range Op(c.Len()) {
		b := dom.BoundIn(c, op)
		if _, ok := b.interval(); !ok {
			return fmt.Errorf("expr: domain of %v: [%v, %v] (strict %v, %v) holds no finite value",
				c.Name(op), b.Lo, b.Hi, b.LoStrict, b.HiStrict)
		}
	}
	return nil
}

// interval is the smallest closed float interval [lo, hi] ⊆ [−MaxFloat64,
// MaxFloat64] holding every value of b (a strict bound moves to the next
// float inward), and whether it is non-empty.
func (b Bound) interval() (ival, bool) {
	lo, hi := b.Lo, b.Hi
	if math.IsNaN(lo) || math.IsNaN(hi) {
		return ival{}, false
	}
	if b.LoStrict {
		lo = math.Nextafter(lo, math.Inf(1))
	}
	if b.HiStrict {
		hi = math.Nextafter(hi, math.Inf(-1))
	}
	lo, hi = max(lo, -math.MaxFloat64), min(hi, math.MaxFloat64)
	if !(lo <= hi) {
		return ival{}, false
	}
	return ival{lo, hi}, true
}

// SimplifyOn returns a tree that, for every input (d, q, u, g) in dom, computes
// the same float64 as t — NaN results stay NaN, and a zero result may change
// sign (+0 and −0 rank equally under <) — provided that
//
//	no intermediate value of t overflows: evaluating t at the input yields a
//	finite value at every node (the assumption).
//
// Inputs in a Domain are finite, so under the assumption no node of t is ±Inf
// or NaN either (NaN needs an infinite or NaN operand). The assumption holds
// for the learner's trees on realistic inputs, roughly because a tree of
// depth ≤ 7 has at most 64 leaves and at most 6 operators on any
// root-to-leaf path: with inputs and constants of magnitude ≤ ~1e4 (hours
// queued or remaining, GPU counts, priorities) even the product of all 64
// leaves stays below 1e256 < MaxFloat64 ≈ 1.8e308; with magnitudes up to
// ~1e6 an overflow needs a product of more than 50 large leaves, or a
// division by a divisor that is non-zero but tiny (a cancellation residue
// such as d·u − q·g ≈ 1e−16) followed by further products. Nothing checks
// the assumption: SimplifyOn is opt-in, and Simplify, exact for every input,
// stays the canonical form that Hash and the learner use. t is not modified;
// SimplifyOn panics if dom.Validate fails.
//
// # Why the rules are exact under the assumption
//
// With every operand finite, the sign of a zero never reaches a non-zero
// result: a sum with a non-zero operand ignores the zero's sign, a product
// with a zero operand is a zero, and protected division tests b == 0, which
// holds for +0 and −0 alike. So values may be compared up to the sign of zero
// at every node, and each rewrite below replaces a subtree by one whose value
// is equal (up to that sign) at every input satisfying the assumption. Every
// node of the result computes the value of some node of t (or a constant), so
// the result does not overflow either.
//
// # Range analysis
//
// Each subtree gets a float interval [lo, hi] that contains its value at
// every input in dom satisfying the assumption: a terminal gets its Bound,
// a constant c gets [c, c], and an operator combines its operands' intervals
// at their corners (for + − ×, and for % when the divisor interval excludes
// 0; when it does not, the interval also covers the numerator — the b = 0
// branch — and the quotients by the smallest non-zero divisors ±5e−324).
// Float rounding to nearest is monotone, so the rounded corner results bound
// the rounded results inside the box; results beyond ±MaxFloat64 are
// clamped to it, which the assumption allows. From the interval follow the
// flags used below: provably ≠ 0 (lo > 0 or hi < 0) and provably a single
// value (lo = hi).
//
// # Rules
//
// Applied bottom-up, together with every rule of Simplify, and repeated until
// a pass changes nothing (so SimplifyOn is idempotent):
//
//	x with range [c, c]  → the constant c (e.g. a terminal pinned by dom)
//	x − x                → 0    (x finite)
//	x + 0, 0 + x, x − 0  → x    (up to the sign of a zero result)
//	x × 0, 0 × x         → 0    (x finite)
//	0 % x                → 0    (0/x = ±0, and 0 % 0 = 0)
//	x % x                → 1    only if x is provably ≠ 0 (x/x = 1 for
//	                            finite non-zero x; 0 % 0 = 0)
//	x % 0                → x    (from Simplify; after x − x → 0 this removes
//	                            divisions by zero-valued subtrees like q − q)
//
// The result is an ordinary Tree: division stays the protected %. Where the
// divisor is provably non-zero, a % b equals a / b on the domain, but a Tree
// does not record its domain, so no printer could tell which % to show as
// "/"; a separate real-division operator would have to be handled by
// Compile, JSON, every printer and the hash encoding, and "/" already
// parses as protected division. Keeping % means the output prints, parses
// back to an Equal tree and compiles like any other formula.
func SimplifyOn(t *Tree, dom Domain) *Tree {
	if err := dom.Validate(); err != nil {
		panic("expr.SimplifyOn: " + err.Error())
	}
	if t.Size() == 0 {
		return &Tree{cat: t.Catalogue()}
	}
	if err := dom.validateIn(t.cat); err != nil {
		panic("expr.SimplifyOn: " + err.Error())
	}
	var vars [MaxVariables]ival
	for op := range Op(t.cat.Len()) {
		vars[op], _ = dom.BoundIn(t.cat, op).interval()
	}
	cur := t
	for {
		p, _ := toPtr(cur.nodes, 0)
		s, _ := simpOn(p, &vars)
		next := &Tree{nodes: flatten(s, make([]node, 0, len(cur.nodes))), cat: t.cat}
		if next.Equal(cur) {
			return next
		}
		cur = next
	}
}

// ival is a closed interval of finite float64 values, −MaxFloat64 ≤ lo ≤ hi
// ≤ MaxFloat64.
type ival struct{ lo, hi float64 }

func (v ival) nonZero() bool { return v.lo > 0 || v.hi < 0 }

// full is the interval of every finite float64.
func full() ival { return ival{-math.MaxFloat64, math.MaxFloat64} }

// hull is the smallest interval holding the given endpoint candidates,
// clamped to the finite floats. NaN cannot occur (operands are finite and
// divisors non-zero), but would widen to full.
func hull(xs ...float64) ival {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, x := range xs {
		if math.IsNaN(x) {
			return full()
		}
		lo, hi = min(lo, x), max(hi, x)
	}
	if lo == math.Inf(1) || hi == math.Inf(-1) {
		// Every corner overflows the same way: the node overflows at every
		// input, so the assumption excludes it; say nothing about it.
		return full()
	}
	return ival{max(lo, -math.MaxFloat64), min(hi, math.MaxFloat64)}
}

func join(a, b ival) ival { return ival{min(a.lo, b.lo), max(a.hi, b.hi)} }

// rangeOf is the interval of op(a, b) for a in x and b in y.
func rangeOf(op Op, x, y ival) ival {
	switch op {
	case OpAdd:
		return hull(x.lo+y.lo, x.hi+y.hi)
	case OpSub:
		return hull(x.lo-y.hi, x.hi-y.lo)
	case OpMul:
		return hull(x.lo*y.lo, x.lo*y.hi, x.hi*y.lo, x.hi*y.hi)
	}
	// Protected division.
	quot := func(bl, bh float64) ival {
		return hull(x.lo/bl, x.lo/bh, x.hi/bl, x.hi/bh)
	}
	if y.nonZero() {
		return quot(y.lo, y.hi)
	}
	r := x // the b == 0 branch
	const tiny = math.SmallestNonzeroFloat64
	if y.hi > 0 {
		r = join(r, quot(tiny, y.hi))
	}
	if y.lo < 0 {
		r = join(r, quot(y.lo, -tiny))
	}
	return r
}

// isZero reports whether p is the constant +0 or −0.
func isZero(p *pnode) bool { return p.op == OpConst && p.val == 0 }

// simpOn simplifies p bottom-up on the domain whose terminal intervals are
// vars, returning the new subtree and its interval.
func simpOn(p *pnode, vars *[MaxVariables]ival) (*pnode, ival) {
	var r ival
	switch {
	case p.op.IsTerminal():
		r = vars[p.op]
	case p.op == OpConst:
		return p, ival{p.val, p.val}
	default:
		l, lr := simpOn(p.l, vars)
		rt, rr := simpOn(p.r, vars)
		r = rangeOf(p.op, lr, rr)
		if r.lo != r.hi {
			return domainRule(p.op, l, rt, rr), r
		}
	}
	if r.lo == r.hi {
		return konst(r.lo + 0), r // + 0 turns −0 into +0
	}
	return p, r
}

// domainRule builds op(l, r) from simplified operands, applying the rules of
// SimplifyOn that need the assumption and then those of Simplify; rr is r's
// interval.
func domainRule(op Op, l, r *pnode, rr ival) *pnode {
	switch op {
	case OpAdd:
		switch {
		case isZero(r):
			return l
		case isZero(l):
			return r
		}
	case OpSub:
		switch {
		case isZero(r):
			return l
		case equalPtr(l, r):
			return konst(0)
		}
	case OpMul:
		if isZero(l) || isZero(r) {
			return konst(0)
		}
	case OpDiv:
		switch {
		case isZero(l):
			return konst(0)
		case rr.nonZero() && equalPtr(l, r):
			return konst(1)
		}
	}
	return mk(op, l, r)
}

package rule

import (
	"math"
	"slices"

	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/simcore"
)

// The box bound: after a job's current and user clusters are evaluated,
// one interval evaluation of the routing tree over a box holding every
// other feasible cluster's terminals can show that none of them wins, and
// Allocate then evaluates none of them (no tree, no x, no m what-if). In
// scope all most of Js are running jobs off their user cluster that stay
// where they are (a learned quick-1 run: 18 jobs of Js and 6 clusters per
// operation, one move per operation), so most decisions end at the first
// cluster. It is exact for every routing tree:
//
//   - Tie order: the clusters are visited current, user, then ascending
//     index, and better() is a strict total order (value in cmpKey's order,
//     then current, user, index), so which cluster wins does not depend on
//     the visiting order. A cluster that is neither the current nor the
//     user cluster loses to the best so far, when that is the current or
//     the user cluster, unless its value is strictly smaller: at an equal
//     value the preference decides against it, and NaN ranks last.
//   - The box: for each terminal, an interval holding its value on every
//     remaining feasible cluster: the job's own terminals (q u g a r w) as
//     points; d, f, n, N, C, W, h, o as the min and max over those
//     clusters of the very values Allocate would set; x ∈ [0, +∞) (the fit
//     is at t or later); m ∈ [min_p rem_{j,p}, +∞) in the same units (the
//     what-if's start is at t or later, so its finish minus t is at least
//     rem, and float64(·)/unit is monotone).
//   - Interval evaluation (spanProg.lower) in the same IEEE operations as
//     expr's evaluation: round-to-nearest is monotone, so for operands
//     within their intervals, a + b, a − b, a·b and a/b (divisor interval
//     not holding 0) lie between the operations on the interval's corners,
//     and a protected division by an interval that is exactly {0} is the
//     numerator. A corner 0·(±∞) counts as 0 (the intervals hold real
//     values; ∞ is an unattained end, and an operand that overflowed to ∞
//     times 0 is NaN, which ranks last anyway); any other NaN corner, and a
//     divisor interval holding 0 and other values, widen the result to
//     (−∞, +∞). A NaN anywhere in a real evaluation makes its value NaN
//     (no operator hides it), which loses. So every remaining cluster's
//     value is NaN or ≥ the interval's lower end.
//   - Hence if the lower end is a number ≥ the best value (a number) of
//     the current or user cluster, no remaining cluster can win.
//
// Skipping a cluster's what-if leaves allFinish valid (mbound.go's
// argument: its members did not change, and the job goes to a cluster
// asked last for this job). It applies where the bound of m does (scope
// all, m's what-ifs on the level planner, whose queries evaluate no
// ranking key), and to any tree without m in scope all.
//
// Oracles: TestBoxIsExact (whole schedules with and without the box on
// random instances, random and learned trees, both with and without the
// bound of m; it requires pruned decisions) and TestSpanLowerBounds (random
// trees, random boxes, random points in them: the value is NaN or within
// the interval).

// span is a closed interval of float64 values; the ends may be infinite.
type span struct{ lo, hi float64 }

// spanInstr is a postfix instruction of the interval program.
type spanInstr struct {
	op  expr.Op
	val float64
}

// compileSpan compiles t to postfix (the order of expr.Compile).
func compileSpan(t *expr.Tree) []spanInstr {
	if t.Size() == 0 {
		return nil
	}
	var emit func(t *expr.Tree, code []spanInstr) []spanInstr
	emit = func(t *expr.Tree, code []spanInstr) []spanInstr {
		op := t.Root()
		if !op.IsBinary() {
			v, _ := t.Value()
			return append(code, spanInstr{op: op, val: v})
		}
		l, r := t.Operands()
		return append(emit(r, emit(l, code)), spanInstr{op: op})
	}
	return emit(t, nil)
}

// lowerEnd is the lower end of code's value over box (NaN if code is
// empty), using st as the operand stack (len ≥ the tree's size).
func lowerEnd(code []spanInstr, box *[expr.MaxVariables]span, st []span) float64 {
	if len(code) == 0 {
		return math.NaN()
	}
	sp := 0
	for _, in := range code {
		switch op := in.op; {
		case op < expr.OpConst:
			st[sp] = box[op&(expr.MaxVariables-1)]
			sp++
		case op == expr.OpConst:
			st[sp] = span{in.val, in.val}
			sp++
		default:
			sp--
			st[sp-1] = combine(op, st[sp-1], st[sp])
		}
	}
	return st[0].lo
}

var wide = span{math.Inf(-1), math.Inf(1)}

// combine is the interval of op(a, b) for a in x and b in y (see the
// type's comment).
func combine(op expr.Op, x, y span) span {
	var s span
	switch op {
	case expr.OpAdd:
		s = span{x.lo + y.lo, x.hi + y.hi}
	case expr.OpSub:
		s = span{x.lo - y.hi, x.hi - y.lo}
	case expr.OpMul:
		a, b, c, d := mulEnd(x.lo, y.lo), mulEnd(x.lo, y.hi), mulEnd(x.hi, y.lo), mulEnd(x.hi, y.hi)
		s = span{min(a, b, c, d), max(a, b, c, d)}
		if math.IsNaN(a) || math.IsNaN(b) || math.IsNaN(c) || math.IsNaN(d) {
			return wide
		}
	default: // protected division: a if b == 0, else a / b
		switch {
		case y.lo == 0 && y.hi == 0:
			return x
		case y.lo > 0 || y.hi < 0:
			a, b, c, d := x.lo/y.lo, x.lo/y.hi, x.hi/y.lo, x.hi/y.hi
			if math.IsNaN(a) || math.IsNaN(b) || math.IsNaN(c) || math.IsNaN(d) {
				return wide
			}
			s = span{min(a, b, c, d), max(a, b, c, d)}
		default:
			return wide
		}
	}
	if math.IsNaN(s.lo) {
		s.lo = math.Inf(-1)
	}
	if math.IsNaN(s.hi) {
		s.hi = math.Inf(1)
	}
	return s
}

// mulEnd is a corner product, 0 when a factor is 0 (the other may be an
// infinite, unattained end).
func mulEnd(a, b float64) float64 {
	if a == 0 || b == 0 {
		return 0
	}
	return float64(a * b) // explicit rounding, as expr's evaluation
}

// clusterSpans are the operation's ranges of the cluster terminals over
// every cluster (a superset of any job's remaining feasible clusters, so
// a valid box): f, N, C are fixed in the operation; n and W only grow at
// assignments (count + 1, work + g·rem ≥ 0), so their minimum at the
// start stays a lower end and assign raises the upper end.
type clusterSpans struct {
	free, count, nodes, gpus, work span
}

// start sets the spans from the books at the start of the operation.
func (cs *clusterSpans) start(books []book, perHour float64) {
	for p := range books {
		b := &books[p]
		c := float64(b.nodes * b.gpn)
		w := b.work / c / perHour
		if p == 0 {
			*cs = clusterSpans{span{b.freeJn, b.freeJn}, span{b.count, b.count}, span{float64(b.nodes), float64(b.nodes)}, span{c, c}, span{w, w}}
			continue
		}
		cs.free = widen(cs.free, b.freeJn)
		cs.count = widen(cs.count, b.count)
		cs.nodes = widen(cs.nodes, float64(b.nodes))
		cs.gpus = widen(cs.gpus, c)
		cs.work = widen(cs.work, w)
	}
}

// assigned raises the upper ends after an assignment to b.
func (cs *clusterSpans) assigned(b *book, perHour float64) {
	cs.count.hi = max(cs.count.hi, b.count)
	cs.work.hi = max(cs.work.hi, b.work/float64(b.nodes*b.gpn)/perHour)
}

func widen(s span, v float64) span {
	if v < s.lo {
		s.lo = v
	}
	if v > s.hi {
		s.hi = v
	}
	return s
}

// noneWins reports whether no cluster of rest can beat bestR, a number and
// the best value so far, which belongs to the job's current or user
// cluster (box.go): the lower end of the tree over a box holding rest's
// feasible clusters is a number ≥ bestR. vars holds the job's own
// terminals; rem is its remaining time on the cluster just evaluated;
// st is the operand stack.
func (r Rule) noneWins(a *simcore.Allocation, st []span, vars *expr.Vars, cs *clusterSpans, rest []int, j, cur, user int, rem int64, bestR float64) bool {
	if len(rest) == 0 {
		return true
	}
	var box [expr.MaxVariables]span
	for _, op := range [...]expr.Op{expr.OpQ, expr.OpU, expr.OpG, 4, 5, 6} { // q u g a r w
		box[op] = span{vars[op], vars[op]}
	}
	// d over rest's feasible clusters, in Allocate's expression: on a
	// homogeneous instance rem_{j,p} is the same on every cluster
	// (simcore's remOn reads no cluster there). h is 1 only on the user
	// cluster, o only on the current one, which the tie order visits
	// first: o is 0 on rest, h is 1 at most if user is still in rest.
	d := span{float64(rem) / r.perHour, float64(rem) / r.perHour}
	if a.Heterogeneous() {
		seen := false
		for _, p := range rest {
			if !a.Feasible(j, p) {
				continue
			}
			v := float64(a.RemainingOn(j, p)) / r.perHour
			if !seen {
				d, seen = span{v, v}, true
			}
			d = widen(d, v)
		}
		if !seen {
			return true // no feasible cluster left
		}
	}
	h := span{0, 0}
	if user >= 0 && slices.Contains(rest, user) {
		h.hi = 1
	}
	inf := math.Inf(1)
	box[expr.OpD] = d
	box[expr.OpRouteFree] = cs.free
	box[expr.OpRouteAssigned] = cs.count
	box[expr.OpRouteNodes] = cs.nodes
	box[expr.OpRouteGPUs] = cs.gpus
	box[expr.OpRouteWork] = cs.work
	box[expr.OpRouteFit] = span{0, inf}
	box[expr.OpRouteHome] = h
	box[expr.OpRouteCurrent] = span{0, 0}
	box[expr.OpRouteMCT] = span{d.lo, inf} // m ≥ rem_{j,p} in the same units
	lo := lowerEnd(r.span, &box, st)
	return !math.IsNaN(lo) && lo >= bestR
}

// boxGate decides whether to try the box bound, from its record in the
// simulation so far: on trees where the box rarely ends a decision (its
// lower end is loose, e.g. for terms such as n·W·m) every attempt is
// wasted work, so after a warm-up it is tried at one decision in eight
// while it ends fewer than one in eight of those it was tried at. Whether
// it is tried never changes a decision (the box only ends a decision that
// the full visit would end the same way), so the gate is exact by the
// box's own argument; TestBoxIsExact runs through it.
type boxGate struct {
	tried, won, skipped int
}

func (g *boxGate) try() bool {
	if g.tried < 64 || 8*g.won >= g.tried {
		return true
	}
	g.skipped++
	return g.skipped%8 == 0
}

func (g *boxGate) record(won bool) {
	g.tried++
	if won {
		g.won++
	}
}

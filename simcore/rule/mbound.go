package rule

import (
	"math"
	"sync/atomic"

	"github.com/evogp/evogp/expr"
)

// A routing tree that uses m and is non-decreasing in it (nonDecreasingInM:
// m alone, as wait-first's R, and most learned trees, e.g. 3m + 2h or
// m + g·m + h − g) lets Allocate skip m's what-if on a cluster that cannot
// win, exactly:
//
//   - The clusters of a job are visited in the tie-break order (its
//     current cluster, its user cluster, then ascending index), so a
//     cluster visited later wins only with a value strictly smaller than
//     the best so far in cmpKey's order (numbers ascending, NaN last).
//     Which cluster wins does not depend on the visiting order: better()
//     is a strict total order (value, preference, index).
//   - A lower bound of m on p: the start the what-if gives j is ≥ t and ≥
//     x_p, the earliest time j's shape fits on p beside p's Jn jobs alone
//     (book.fitTime, the terminal x). The what-if plan holds the Jn jobs
//     and more, so at every time its free GPUs per node are at most the Jn
//     jobs' alone and its capacity Σ_n ⌊max(0, σ)/w⌋ at most theirs; the
//     start is a time at which j fits in the plan, so beside the Jn jobs
//     alone, so ≥ x_p (the Jn capacity changes only at their releases,
//     the candidate times fitTime scans). The scope-all what-if
//     (allFinish) plans the Jn jobs first. So
//     m ≥ lb = max(t, x_p) + rem_{j,p}, and float64(· − t)/unit keeps the
//     order.
//   - With every other terminal at its value, R evaluated at m = lb is
//     ≤ R at the true m, or R there is NaN (ranked last): IEEE addition,
//     subtraction, multiplication by a value of known sign and division by
//     a positive value are monotone (rounding is monotone), and a NaN
//     anywhere makes the result NaN (no operator hides it: protected
//     division tests b == 0, false for NaN). So if R(lb) is a number, not
//     below the best value, and the best value is a number, p cannot win
//     and is skipped (cannotWin).
//
// Skipping a query leaves allFinish's state valid for later queries: the
// cluster's members did not change, so its last plan and shared prefix
// still describe them, and the job goes to a cluster that was asked,
// last, for this job (allFinish.assign's promise).
//
// Where it applies: scope all, with the level planner behind m's
// what-ifs (no backfilling or greedy, best fit or round robin), whose
// queries evaluate no ranking key. MCT's what-if in scope arrivals
// (FinishOn) and the list scheduler's what-if planner (conservative
// backfilling) evaluate keys as they plan, so a skipped query would
// change the calls a recording ranking sees (learn's behaviour samples
// and their warnings), though never a schedule; Allocate does not bound
// there.
//
// Oracle: TestMBoundIsExact (whole simulations with and without the bound,
// both scopes (arrivals: unchanged), every backfill mode m takes, random and overloaded
// instances, m alone and learned non-decreasing trees; it requires skipped
// what-ifs) and TestNonDecreasingInM (the analysis on hand-picked trees and
// against sampled evaluations of random trees).

// cannotWin reports whether a cluster, with vars set but for m, cannot
// beat bestR whatever m's what-if gives: R at m's lower bound
// max(t, fit) + rem is a number not below bestR, itself a number.
func (r Rule) cannotWin(vars *expr.Vars, now, fit, rem int64, bestR float64) bool {
	if math.IsNaN(bestR) || fit == math.MaxInt64 {
		return false
	}
	vars[expr.OpRouteMCT] = float64(max(now, fit)+rem-now) / r.perHour
	lv := r.prog.EvalVars(vars)
	if math.IsNaN(lv) || lv < bestR {
		return false
	}
	if r.stats != nil {
		r.stats.skipped.Add(1)
	}
	return true
}

// identity is 0..P−1 in *buf (grown as needed).
func identity(buf *[]int, P int) []int {
	if cap(*buf) < P {
		*buf = make([]int, P)
	}
	v := (*buf)[:P]
	for p := range v {
		v[p] = p
	}
	return v
}

// tieOrder rewrites v (0..P−1) as the tie-break order of better(): cur
// (if a cluster), user (if another), then the rest ascending.
func tieOrder(v []int, cur, user int) []int {
	k := 0
	if cur >= 0 {
		v[k] = cur
		k++
	}
	if user != cur && user >= 0 {
		v[k] = user
		k++
	}
	for p := range len(v) {
		if p != cur && p != user {
			v[k] = p
			k++
		}
	}
	return v
}

// mStats counts m's what-ifs asked and skipped (tests only: Rule.stats is
// nil otherwise).
type mStats struct{ asked, skipped, boxed atomic.Int64 }

// sign and mono describe a subtree over the routing terminals: its sign
// for every value of the terminals, and how it varies with m when the
// other terminals are fixed.
type sign uint8

const (
	anySign sign = iota
	nonNeg
	nonPos
)

type mono uint8

const (
	anyMono mono = iota
	constM       // does not read m
	incM         // non-decreasing in m
	decM         // non-increasing in m
)

// nonNegative are the routing terminals that are ≥ 0 at every decision:
// times and counts (u, a priority, is not assumed).
var nonNegative = map[expr.Op]bool{
	expr.OpD: true, expr.OpQ: true, expr.OpG: true, 4: true, 5: true, 6: true, // d q g a r w
	expr.OpRouteFree: true, expr.OpRouteAssigned: true, expr.OpRouteNodes: true, expr.OpRouteGPUs: true,
	expr.OpRouteWork: true, expr.OpRouteFit: true, expr.OpRouteHome: true, expr.OpRouteCurrent: true,
	expr.OpRouteMCT: true,
}

// nonDecreasingInM reports whether t is provably non-decreasing in m.
func nonDecreasingInM(t *expr.Tree) bool {
	_, m := analyse(t)
	return m == incM || m == constM
}

func analyse(t *expr.Tree) (sign, mono) {
	op := t.Root()
	if op == expr.OpConst {
		v, _ := t.Value()
		switch {
		case v >= 0:
			return nonNeg, constM
		case v <= 0:
			return nonPos, constM
		}
		return anySign, constM
	}
	if op.IsTerminal() {
		s := anySign
		if nonNegative[op] {
			s = nonNeg
		}
		if op == expr.OpRouteMCT {
			return s, incM
		}
		return s, constM
	}
	l, rt := t.Operands()
	ls, lm := analyse(l)
	rs, rm := analyse(rt)
	switch op {
	case expr.OpAdd:
		return addSign(ls, rs), addMono(lm, rm)
	case expr.OpSub:
		return addSign(ls, negSign(rs)), addMono(lm, negMono(rm))
	case expr.OpMul:
		return mulSign(ls, rs), mulMono(ls, lm, rs, rm)
	case expr.OpDiv:
		// a if b == 0 else a / b. With b ≥ 0 and constant in m: a or a/b
		// with b > 0, both of a's monotonicity. Its sign: a's when b ≥ 0.
		s := anySign
		if rs == nonNeg {
			s = ls
		}
		if lm == constM && rm == constM {
			return s, constM
		}
		if rm == constM && rs == nonNeg {
			return s, lm
		}
		return s, anyMono
	}
	return anySign, anyMono
}

func negSign(s sign) sign {
	switch s {
	case nonNeg:
		return nonPos
	case nonPos:
		return nonNeg
	}
	return anySign
}

func negMono(m mono) mono {
	switch m {
	case incM:
		return decM
	case decM:
		return incM
	}
	return m
}

func addSign(a, b sign) sign {
	if a == b {
		return a
	}
	return anySign
}

func addMono(a, b mono) mono {
	switch {
	case a == constM:
		return b
	case b == constM:
		return a
	case a == b:
		return a
	}
	return anyMono
}

func mulSign(a, b sign) sign {
	switch {
	case a == anySign || b == anySign:
		return anySign
	case a == b:
		return nonNeg
	}
	return nonPos
}

// mulMono: a constant factor of known sign keeps (≥ 0) or flips (≤ 0)
// the other's direction; two non-negative factors of one direction keep
// it.
func mulMono(as sign, am mono, bs sign, bm mono) mono {
	scale := func(m mono, s sign) mono {
		switch s {
		case nonNeg:
			return m
		case nonPos:
			return negMono(m)
		}
		return anyMono
	}
	switch {
	case am == constM && bm == constM:
		return constM
	case bm == constM:
		return scale(am, bs)
	case am == constM:
		return scale(bm, as)
	case am == bm && as == nonNeg && bs == nonNeg:
		return am
	}
	return anyMono
}

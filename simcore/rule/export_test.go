package rule

import "github.com/evogp/evogp/expr"

// WithoutMBound is r with the bound of m's bound off (the reference path) and
// WithMStats r counting the what-ifs' asked and skipped what-ifs into asked
// and skipped (tests only).
func WithoutMBound(r Rule) Rule { r.noBound = true; return r }

// MStats are the what-ifs' counts.
type MStats = mStats

// WithMStats is r counting into st.
func WithMStats(r Rule, st *MStats) Rule { r.stats = st; return r }

// Asked and Skipped read the counts.
func (st *mStats) Asked() int64   { return st.asked.Load() }
func (st *mStats) Skipped() int64 { return st.skipped.Load() }

// NonDecreasingInM exposes the monotonicity analysis (mbound.go).
var NonDecreasingInM = nonDecreasingInM

// WithoutBox is r with the box bound off (box.go), the bound of m kept.
func WithoutBox(r Rule) Rule { r.noBox = true; return r }

// Boxed reads the decisions the box bound ended early.
func (st *mStats) Boxed() int64 { return st.boxed.Load() }

// Span is an interval (box.go's span, exported for the tests).
type Span struct{ Lo, Hi float64 }

// SpanBounds is the interval of t's value over box by box.go's interval
// evaluation (both ends; the lower end checked against lowerEnd's).
func SpanBounds(t *expr.Tree, box *[expr.MaxVariables]Span) Span {
	code := compileSpan(t)
	var b [expr.MaxVariables]span
	for op, s := range box {
		b[op] = span{s.Lo, s.Hi}
	}
	st := make([]span, len(code))
	sp := 0
	for _, in := range code {
		switch op := in.op; {
		case op < expr.OpConst:
			st[sp] = b[op]
			sp++
		case op == expr.OpConst:
			st[sp] = span{in.val, in.val}
			sp++
		default:
			sp--
			st[sp-1] = combine(op, st[sp-1], st[sp])
		}
	}
	if lo := lowerEnd(code, &b, make([]span, len(code))); lo != st[0].lo {
		panic("lowerEnd disagrees with the interval evaluation")
	}
	return Span{st[0].lo, st[0].hi}
}

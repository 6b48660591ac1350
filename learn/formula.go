package learn

import (
	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/simcore"
)

// FormulaRanking ranks jobs by a compiled expression: d = remaining duration, q = queuing time so far,
// u = user priority, g = GPU demand; d and q in hours unless Seconds is set (SPEC §2).
// Smaller values are scheduled earlier (SPEC §5.2).
//
// It is the adapter between expr and simcore (neither imports the other):
// Priority evaluates the program with
//
//	d = rem_j / 3600, q = queued_j / 3600   (hours; raw seconds if Seconds)
//	u = u_j, g = g_j
//
// Program.Eval allocates nothing and is safe for concurrent use, so one
// FormulaRanking may be shared by simulations running in parallel.
type FormulaRanking struct {
	Prog    *expr.Program
	Seconds bool
}

// NewFormulaRanking compiles t into a ranking; seconds selects the time
// unit of d and q (false: hours, the default of SPEC §2).
func NewFormulaRanking(t *expr.Tree, seconds bool) FormulaRanking {
	return FormulaRanking{Prog: expr.Compile(t), Seconds: seconds}
}

// Priority is the formula's value for job j (smaller = earlier).
func (f FormulaRanking) Priority(j simcore.JobView) float64 {
	d, q := simcore.Hours(j.Remaining), simcore.Hours(j.Queued)
	if f.Seconds {
		d, q = float64(j.Remaining), float64(j.Queued)
	}
	return f.Prog.Eval(d, q, float64(j.Priority), float64(j.GPUs))
}

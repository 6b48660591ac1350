package formula

import (
	"fmt"

	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/simcore"
)

// NoDeadlineSlack is the slack s, in hours, of a job without a deadline:
// 10⁶ h (about 114 years), larger than any slack a deadline in a
// simulated trace produces, so such jobs rank as "not urgent" under a
// formula increasing in s. With gp.time_unit: seconds it is 3.6·10⁹ s.
const NoDeadlineSlack = 1e6

// Feature computes one terminal's value for a job; unit is the number of
// seconds in the formula's time unit (3600 for hours, 1 for seconds), and
// times are divided by it (as simcore.Hours does, so values are the same
// to the bit).
type Feature func(j simcore.JobView, unit float64) float64

// Features maps every terminal of expr's catalogue (by name) to its value
// for a job ranked on a cluster at the operation time t = j.Now. It is the
// one place that says what a terminal means in the simulator: a new
// terminal is a catalogue entry in expr plus one line here
// (TestEveryTerminalHasAFeature checks the two agree).
//
//	d = rem_j             q = queued_j          (time unit)
//	u = u_j               g = g_j
//	a = t − a_j           (time unit)
//	r = workers           w = GPUs per worker
//	f = free GPUs of the ranking cluster at t   (cluster state)
//	n = jobs queued on the ranking cluster at t (cluster state)
//	e = 1 if the job fits on its free GPUs at t, else 0 (cluster state)
//	s = deadline − t − rem_j (time unit), NoDeadlineSlack h without one
//	v = speed on the ranking cluster's GPU type (1 when the engine does
//	    not supply it, i.e. on homogeneous instances)
func Features() map[string]Feature {
	return map[string]Feature{
		"d": func(j simcore.JobView, k float64) float64 { return float64(j.Remaining) / k },
		"q": func(j simcore.JobView, k float64) float64 { return float64(j.Queued) / k },
		"u": func(j simcore.JobView, _ float64) float64 { return float64(j.Priority) },
		"g": func(j simcore.JobView, _ float64) float64 { return float64(j.GPUs) },
		"a": func(j simcore.JobView, k float64) float64 { return float64(j.Now-j.Arrival) / k },
		"r": func(j simcore.JobView, _ float64) float64 { return float64(j.Workers) },
		"w": func(j simcore.JobView, _ float64) float64 { return float64(j.PerWorker) },
		"f": func(j simcore.JobView, _ float64) float64 { return float64(j.FreeGPUs) },
		"n": func(j simcore.JobView, _ float64) float64 { return float64(j.QueueLen) },
		"e": func(j simcore.JobView, _ float64) float64 {
			if j.FitsNow {
				return 1
			}
			return 0
		},
		"s": func(j simcore.JobView, k float64) float64 {
			if j.Deadline <= 0 {
				return NoDeadlineSlack * 3600 / k
			}
			return float64(j.Deadline-j.Now-j.Remaining) / k
		},
		"v": func(j simcore.JobView, _ float64) float64 {
			if j.Speed <= 0 {
				return 1
			}
			return j.Speed
		},
	}
}

// ClusterState are the terminals whose values the engine fills only for a
// ranking that asks for them (simcore.ClusterAware).
const ClusterState = "fnev"

// SupportedTerminals is the set of terminals this adapter can supply: every
// catalogue entry that has a feature.
func SupportedTerminals() expr.Terminals {
	var s expr.Terminals
	fs := Features()
	for _, v := range expr.Variables() {
		if _, ok := fs[v.Name]; ok {
			op, _ := expr.VariableByName(v.Name)
			s |= 1 << op
		}
	}
	return s
}

// CheckTerminals reports an error if t uses a terminal outside allowed or
// one this adapter cannot supply.
func CheckTerminals(t *expr.Tree, allowed expr.Terminals) error {
	if extra := t.Terminals().Minus(SupportedTerminals()); extra != 0 {
		return fmt.Errorf("formula %s uses terminal(s) %s that the simulator cannot supply", t, extra)
	}
	if extra := t.Terminals().Minus(allowed); extra != 0 {
		return fmt.Errorf("formula %s uses terminal(s) %s outside the terminal set [%s]", t, extra, allowed)
	}
	return nil
}

// slot is one terminal the formula reads: where to store it and how to
// compute it.
type slot struct {
	op expr.Op
	fn Feature
}

// Ranking ranks jobs by a compiled expression over the terminals of
// expr's catalogue (see Features for what each means; d, q, a and s in
// hours unless Seconds is set, SPEC §2). Smaller values are scheduled
// earlier (SPEC §5.2).
//
// It is the adapter between expr and simcore (neither imports the other).
// Priority computes only the terminals the formula uses, into a Vars array
// on the stack, and evaluates the program: it allocates nothing and is safe
// for concurrent use, so one Ranking may be shared by simulations
// running in parallel.
type Ranking struct {
	Prog      *expr.Program
	Seconds   bool
	uses      []slot
	paper     bool // uses only d, q, u, g: computed inline
	cluster   bool
	invariant bool // uses only terminals that do not change while a job waits
}

// WaitInvariant are the terminals whose values do not change while a job
// waits on a cluster: the remaining duration d (it changes only while the
// job runs), the priority u, the GPUs g, workers r and GPUs per worker w.
// q, a and s move with time; f, n, e and v are cluster state.
func WaitInvariant() expr.Terminals {
	t, err := expr.ParseTerminals([]string{"d", "u", "g", "r", "w"})
	if err != nil {
		panic(err) // every name is in the catalogue (TestTimeInvariantFormulaExact)
	}
	return t
}

// NewRanking compiles t into a ranking; seconds selects the time
// unit of d, q, a and s (false: hours, the default of SPEC §2). A terminal
// without a feature (impossible while TestEveryTerminalHasAFeature passes)
// evaluates to 0; use CheckTerminals to refuse such formulas.
func NewRanking(t *expr.Tree, seconds bool) Ranking {
	f := Ranking{Prog: expr.Compile(t), Seconds: seconds}
	fs := Features()
	f.paper = t.Terminals().Minus(expr.PaperTerminals) == 0
	f.invariant = t.Terminals().Minus(WaitInvariant()) == 0
	for _, op := range t.Terminals().Ops() {
		if fn, ok := fs[op.String()]; ok {
			f.uses = append(f.uses, slot{op, fn})
		}
		for _, c := range ClusterState {
			f.cluster = f.cluster || op.String() == string(c)
		}
	}
	return f
}

// TimeInvariant implements simcore.TimeInvariant: a formula over d, u, g,
// r and w only (after simplification, as a learned formula is compiled)
// ranks a waiting job the same at every operation, so the engine computes
// its key once per job and cluster and again only while the job runs.
// The results are exactly those of evaluating it at every operation
// (TestTimeInvariantFormulaExact).
func (f Ranking) TimeInvariant() bool { return f.invariant }

// NeedsClusterState reports whether the formula reads a terminal that
// depends on the cluster at t (f, n, e, or the speed v), so that the engine
// fills those JobView fields (simcore.ClusterAware).
func (f Ranking) NeedsClusterState() bool { return f.cluster }

// ClusterBlind implements simcore.ClusterBlind: no terminal reads the
// identity of the cluster a job is ranked on (JobView's Cluster and User);
// f, n, e and v read the cluster's state and type, which the engine fills
// only for a ClusterAware ranking or a heterogeneous instance.
func (f Ranking) ClusterBlind() bool { return true }

// Priority is the formula's value for job j (smaller = earlier).
func (f Ranking) Priority(j simcore.JobView) float64 {
	if f.paper {
		d, q := simcore.Hours(j.Remaining), simcore.Hours(j.Queued)
		if f.Seconds {
			d, q = float64(j.Remaining), float64(j.Queued)
		}
		return f.Prog.Eval(d, q, float64(j.Priority), float64(j.GPUs))
	}
	unit := 3600.0
	if f.Seconds {
		unit = 1
	}
	var vars expr.Vars
	for _, s := range f.uses {
		vars[s.op] = s.fn(j, unit)
	}
	return f.Prog.EvalVars(&vars)
}

package formula

import (
	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/simcore"
)

// keyChunk is how many views a batch evaluates with one EvalColumns call.
const keyChunk = 256

// KeyBatch implements simcore.KeyBatcher: the formula over up to keyChunk
// views at a time (expr.Program.EvalColumns), each key bit for bit what
// Priority returns. The returned function owns its scratch memory: one
// simulation, one goroutine.
func (f Ranking) KeyBatch() func(views []simcore.JobView, keys []float64) {
	unit := Unit(f.Seconds)
	var cols expr.Columns
	zero := make([]float64, keyChunk)
	for v := range cols {
		cols[v] = zero // terminals the formula does not read
	}
	for _, s := range f.uses {
		cols[s.op] = make([]float64, keyChunk)
	}
	if f.paper {
		// d, q, u, g in one pass over the views, as Priority computes them
		// (a column the formula does not read is filled but never read).
		for _, op := range []expr.Op{expr.OpD, expr.OpQ, expr.OpU, expr.OpG} {
			cols[op] = make([]float64, keyChunk)
		}
	}
	var b expr.Batch
	return func(views []simcore.JobView, keys []float64) {
		for lo := 0; lo < len(views); lo += keyChunk {
			vs := views[lo:min(lo+keyChunk, len(views))]
			if f.paper {
				d, q, u, g := cols[expr.OpD][:len(vs)], cols[expr.OpQ][:len(vs)], cols[expr.OpU][:len(vs)], cols[expr.OpG][:len(vs)]
				for k := range vs {
					v := &vs[k]
					d[k] = float64(v.Remaining) / unit
					q[k] = float64(v.Queued) / unit
					u[k] = float64(v.Priority)
					g[k] = float64(v.GPUs)
				}
			} else {
				for _, s := range f.uses {
					col := cols[s.op]
					for k := range vs {
						col[k] = s.fn(vs[k], unit)
					}
				}
			}
			f.Prog.EvalColumns(&cols, len(vs), keys[lo:lo+len(vs)], &b)
		}
	}
}

// CoreViews implements simcore.CoreViews: a formula over d, q, u, g reads
// only Remaining, Queued, Priority and GPUs.
func (f Ranking) CoreViews() bool { return f.paper }

// Unit is the number of seconds in the formula time unit: 1 with seconds,
// 3600 for hours (SPEC §2).
func Unit(seconds bool) float64 {
	if seconds {
		return 1
	}
	return 3600
}

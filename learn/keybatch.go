package learn

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
func (f FormulaRanking) KeyBatch() func(views []simcore.JobView, keys []float64) {
	unit := unitOf(f.Seconds)
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
func (f FormulaRanking) CoreViews() bool { return f.paper }

// CoreViews implements simcore.CoreViews: a formula over d, q, u, g
// recorded as paper rows reads, with the recording, only the core fields
// (record: Remaining, Queued, Priority, GPUs, Now and Cluster).
func (r viewRecorder) CoreViews() bool { return r.f.paper && r.rec.paper }

// KeyBatch implements simcore.KeyBatcher: the formula's keys in one batch,
// then each view recorded with its key in order, as Priority records them
// one at a time.
func (r viewRecorder) KeyBatch() func(views []simcore.JobView, keys []float64) {
	eval := r.f.KeyBatch()
	return func(views []simcore.JobView, keys []float64) {
		eval(views, keys)
		for i := range views {
			r.record(&views[i], keys[i])
		}
	}
}

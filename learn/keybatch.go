package learn

import (
	"github.com/evogp/evogp/simcore"
)

// CoreViews implements simcore.CoreViews: a formula over d, q, u, g
// recorded as paper rows reads, with the recording, only the core fields
// (record: Remaining, Queued, Priority, GPUs, Now and Cluster).
func (r viewRecorder) CoreViews() bool { return r.f.CoreViews() && r.rec.paper }

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

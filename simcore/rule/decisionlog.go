package rule

import (
	"hash/fnv"

	"github.com/evogp/evogp/simcore"
)

// Decision is one decision of the rule allocator, as WithDecisionLog
// reports it (a study record: issue 39's "which decisions at an operation
// have the inputs of the previous operation's", scripts/optime -study).
type Decision struct {
	Op      int   // the operation (Allocation.Op)
	Now     int64 // its time
	Job     int   // the job decided (an index into the instance's jobs)
	Cluster int   // the cluster the rule gives it
	Current int   // its cluster before the operation, −1 for an arrival
	// Fixed is a hash of the Jn jobs of every cluster at the operation
	// (cluster, job and absolute finish): two operations with equal Fixed
	// have the same fixed state on every cluster, up to hash collisions
	// (2⁻⁶⁴ per pair).
	Fixed uint64
}

// WithDecisionLog returns r calling log with every decision it makes, in
// decision order (a study hook, like WithQueryLog). The hook reads the
// allocation and changes nothing, so schedules are the same with and
// without it (TestDecisionLogChangesNothing); without it nothing is
// computed.
func WithDecisionLog(r Rule, log func(Decision)) Rule { r.decisionLog = log; return r }

// fixedHash is Decision.Fixed for the allocation's operation.
func fixedHash(a *simcore.Allocation) uint64 {
	h := fnv.New64a()
	put := func(x int64) { putInt64(h, x) }
	now := a.Now()
	for p := range a.Clusters() {
		put(-1 - int64(p))
		for _, j := range a.FixedOn(p) {
			put(int64(j))
			put(now + a.RemainingOn(j, p))
		}
	}
	return h.Sum64()
}

package simcore

// ClusterBlind is implemented by rankings whose Priority reads neither the
// Cluster nor the User field of JobView. On a homogeneous instance (no
// per-type durations, SPEC §12) every other field a ranking may read is the
// same on every cluster (Duration, Remaining and Queued are the job's own
// counters there, Speed is 1), except the cluster-state fields, which the
// engine fills only for a ClusterAware ranking. So on such an instance,
// for a ranking that is ClusterBlind and not ClusterAware, a job's key is
// the same on every cluster, and the allocation seam evaluates it once per
// job and operation (rankKey) instead of once per job and cluster. FIFO,
// SRSF, Lyra, SJF, SRTF and WeightedWait declare it; so does a learned
// formula (package formula), whose terminals never read the cluster's
// identity.
type ClusterBlind interface {
	ClusterBlind() bool
}

// ClusterBlind implements ClusterBlind.
func (FIFO) ClusterBlind() bool { return true }

// ClusterBlind implements ClusterBlind.
func (SRSF) ClusterBlind() bool { return true }

// ClusterBlind implements ClusterBlind.
func (Lyra) ClusterBlind() bool { return true }

// ClusterBlind implements ClusterBlind.
func (SJF) ClusterBlind() bool { return true }

// ClusterBlind implements ClusterBlind.
func (SRTF) ClusterBlind() bool { return true }

// ClusterBlind implements ClusterBlind.
func (WeightedWait) ClusterBlind() bool { return true }

// keyMemo holds, during one operation, the key of each job the allocation
// seam asked for, when keys do not depend on the cluster (sharedKeys).
//
// Exact: within an operation's allocation, s.priority(j, p) reads s.now,
// the job's fixed fields and its counters (rem, ranSecs, updated, fixed),
// none of which Allocate changes (Assign sets c_j only, which a
// homogeneous instance's remaining time does not read), and the view's
// Cluster field, which a ClusterBlind ranking does not read; the
// cluster-state fields are not filled (not aware). So the first value
// computed in the operation is the value of every later call, on any
// cluster. The stamp is the operation counter, which every operation
// increments. Oracle: TestSharedRankKeysExact (rule scope all, EVO and
// mct-all on random instances, with the memo and without it:
// testHooks.noKeyMemo).
type keyMemo struct {
	on  bool
	at  []int // at[j]: the operation val[j] was computed at (0: never)
	val []float64
}

// initKeyMemo turns the memo on where keys are shared by every cluster.
func (s *sim) initKeyMemo() {
	if s.list == nil || s.aware || s.dur != nil || s.hooks.noKeyMemo {
		return
	}
	if cb, ok := s.list.Ranking.(ClusterBlind); !ok || !cb.ClusterBlind() {
		return
	}
	s.keys.on = true
}

// rankKey is s.priority(j, p) for the allocation seam, memoised per
// operation when keys do not depend on the cluster.
func (s *sim) rankKey(j, p int) float64 {
	m := &s.keys
	if !m.on {
		return s.priority(j, p)
	}
	if m.at == nil {
		m.at = make([]int, len(s.inst.Jobs))
		m.val = make([]float64, len(s.inst.Jobs))
	}
	if m.at[j] != s.ops {
		m.val[j] = s.priority(j, p)
		m.at[j] = s.ops
	}
	return m.val[j]
}

// seedKeyMemo records job j's key, just computed by the list step of the
// operation (ListScheduler.operation: one by one, or keyBatch.keys), in
// the allocation seam's memo, so that the allocator's rank orders do not
// evaluate it again (that second evaluation was 5–7 % of the scope-all
// rule's CPU on the quick splits, docs/PERFORMANCE.md, issue 39 fifth
// round).
//
// Exact: the memo is on only where a job's key is the same on every
// cluster (initKeyMemo). The list step's key of j is Priority of j's view
// on its cluster at this operation: setKey evaluates it, and a batch
// returns exactly that value by KeyBatcher's contract — with only the core
// fields for a CoreViews batch, which equal the view's for a job that is
// not fixed (no lag) on a homogeneous instance without estimates. So it is
// the value rankKey would compute at its first call in the operation: the
// list step runs before Allocate, at the same now and counters, which
// nothing between them changes (keyMemo's comment). Fixed jobs are left
// out (a batch's core Queued ignores their lag; the seam never asks for
// their keys). Oracle: TestSharedRankKeysExact (whole simulations with the
// seeded memo against no memo, one-by-one and batch rankings; it requires
// seeded keys, and fails when a seed is off by one ulp).
func (s *sim) seedKeyMemo(j int, key float64) {
	m := &s.keys
	if !m.on || s.fixed[j] {
		return
	}
	if m.at == nil {
		m.at = make([]int, len(s.inst.Jobs))
		m.val = make([]float64, len(s.inst.Jobs))
	}
	m.val[j], m.at[j] = key, s.ops
	if s.hooks.stats != nil {
		s.hooks.stats.SeededKeys++
	}
}

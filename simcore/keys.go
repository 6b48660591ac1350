package simcore

import "math"

// TimeInvariant is implemented by rankings whose Priority depends only on
// the job's fixed fields, its cluster and its remaining work (Remaining):
// not on Now, Queued or the cluster-state fields. A job's remaining work
// changes only while it runs (or when the preemptive mode charges it an
// overhead), so the engine computes such a key once per job and cluster
// and recomputes it only for a job running at the operation; the keys,
// and so every plan, are exactly those of evaluating at every operation
// (TestTimeInvariantKeysExact). FIFO, SJF, Lyra, SRSF and SRTF declare
// it; a learned formula without q or t may.
type TimeInvariant interface {
	TimeInvariant() bool
}

// TimeInvariant implements TimeInvariant.
func (FIFO) TimeInvariant() bool { return true }

// TimeInvariant implements TimeInvariant.
func (SJF) TimeInvariant() bool { return true }

// TimeInvariant implements TimeInvariant.
func (Lyra) TimeInvariant() bool { return true }

// TimeInvariant implements TimeInvariant.
func (SRSF) TimeInvariant() bool { return true }

// TimeInvariant implements TimeInvariant.
func (SRTF) TimeInvariant() bool { return true }

// initKeys enables key reuse for a time-invariant ranking on homogeneous
// instances without estimates (where remaining work is a plain counter).
func (s *sim) initKeys() {
	if s.list == nil || s.aware || s.dur != nil || s.estimated {
		return
	}
	if ti, ok := s.list.Ranking.(TimeInvariant); !ok || !ti.TimeInvariant() {
		return
	}
	s.keyOn = make([]int32, len(s.inst.Jobs))
	for i := range s.keyOn {
		s.keyOn[i] = -1
	}
}

// setKey evaluates job j's ranking key on cluster p. For a time-invariant
// ranking it records on the cluster whether a key it already held moved,
// so that planner.reuse can skip its order check when none did.
func (s *sim) setKey(j, p int) {
	if s.keyOn == nil {
		s.key[j] = s.priority(j, p)
		return
	}
	if s.keyOn[j] == int32(p) {
		if s.state[j] != running {
			return
		}
		if k := s.priority(j, p); math.Float64bits(k) != math.Float64bits(s.key[j]) {
			s.key[j] = k
			s.clusters[p].keyMoved = true
		}
		return
	}
	s.key[j] = s.priority(j, p)
	s.keyOn[j] = int32(p)
	if s.assigned[j] == p { // on p's list (an arrival's what-if key is not)
		s.clusters[p].keyMoved = true
	}
}

// staleKey forgets job j's key (its remaining work changed while waiting).
func (s *sim) staleKey(j int) {
	if s.keyOn != nil {
		s.keyOn[j] = -1
		s.stale = append(s.stale, j)
	}
}

// rankCmp is the ranking key order (f, a_j, id) with NaN last, as a
// three-way comparison (rankLess in one call).
func (s *sim) rankCmp(a, b int) int {
	ka, kb := s.key[a], s.key[b]
	if ka != kb && !(math.IsNaN(ka) && math.IsNaN(kb)) {
		if lessKey(ka, kb) {
			return -1
		}
		return 1
	}
	ja, jb := &s.inst.Jobs[a], &s.inst.Jobs[b]
	if ja.Arrival != jb.Arrival {
		return cmpInt64(ja.Arrival, jb.Arrival)
	}
	return cmpInt64(ja.ID, jb.ID)
}

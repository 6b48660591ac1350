package simcore

// feasMask is, on a homogeneous instance of at most 64 clusters, each
// job's feasible clusters as a bit set (bit p: Job.FitsOn(cluster p)),
// computed once per simulation: the allocation seam asks Feasible for
// every schedulable job and cluster at every operation, and FitsOn's
// divisions were 6 % of a scope-all learner's CPU (docs/PERFORMANCE.md,
// issue 39).
//
// Exact: FitsOn reads only the job's and the cluster's fields, which no
// simulation changes, so its value at newSim is its value at every later
// call. Oracle: TestFeasibleMaskIsFitsOn (every job and cluster of random
// instances) and every whole-simulation test, which reach feasible through
// the mask.
func (s *sim) initFeasMask() {
	P := len(s.inst.Clusters)
	if s.dur != nil || P > 64 {
		return
	}
	s.feasMask = make([]uint64, len(s.inst.Jobs))
	for j := range s.inst.Jobs {
		var m uint64
		for p, c := range s.inst.Clusters {
			if s.inst.Jobs[j].FitsOn(c) {
				m |= 1 << p
			}
		}
		s.feasMask[j] = m
	}
}

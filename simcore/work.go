package simcore

import "math/big"

// Durations and progress (SPEC §12). On a homogeneous instance (no job has
// TypeDurations) every helper below reduces to the job's Duration and the
// engine's rem, so the hot paths pay one nil check.
//
// On a heterogeneous instance a job's progress is the fraction of its work
// done, Σ_T e_T / d_{j,T} over the seconds e_T it ran on GPU type T. rem is
// kept in seconds on the job's assigned cluster; when the job is assigned
// to a cluster of another type its remaining time there is
// ⌈(1 − Σ_T e_T/d_{j,T}) · d_{j,p}⌉, computed exactly in rationals. While it
// then runs on that type, rem − x equals the same formula with e_T + x, so
// the two never drift apart.

// initTypes builds the per-cluster duration table of a heterogeneous
// instance.
func (s *sim) initTypes() {
	hetero := false
	for i := range s.inst.Jobs {
		if s.inst.Jobs[i].TypeDurations != nil {
			hetero = true
			break
		}
	}
	if !hetero {
		return
	}
	P := len(s.inst.Clusters)
	s.typeOf = make([]int, P)
	index := map[string]int{}
	for p, c := range s.inst.Clusters {
		k, ok := index[c.GPUType]
		if !ok {
			k = len(index)
			index[c.GPUType] = k
		}
		s.typeOf[p] = k
	}
	s.types = len(index)
	s.dur = make([]int64, len(s.inst.Jobs)*P)
	s.exec = make([]int64, len(s.inst.Jobs)*s.types)
	for j := range s.inst.Jobs {
		job := &s.inst.Jobs[j]
		for p, c := range s.inst.Clusters {
			if job.FitsOn(c) {
				s.dur[j*P+p] = job.DurationOn(c.GPUType)
			}
		}
		// Before a job is assigned, rem holds its duration on its user
		// cluster (any feasible one if the user cluster is not).
		s.rem[j] = job.Duration
		if d := s.dur[j*P+job.Cluster]; d > 0 {
			s.rem[j] = d
		}
	}
}

// feasible reports whether job j can ever run on cluster p.
func (s *sim) feasible(j, p int) bool {
	if s.feasMask != nil {
		return s.feasMask[j]>>uint(p)&1 != 0
	}
	if s.dur != nil {
		return s.dur[j*len(s.inst.Clusters)+p] > 0
	}
	return s.inst.Jobs[j].FitsOn(s.inst.Clusters[p])
}

// durationOn is d_{j,p} as schedulers see it (0 if j cannot run on p):
// with an estimate (SPEC §14) the estimate, scaled to p's GPU type as the
// true durations are, ⌈d̂_j · d_{j,p} / d_j⌉.
func (s *sim) durationOn(j, p int) int64 {
	d := s.trueDurationOn(j, p)
	if e := s.inst.Jobs[j].Estimate; e > 0 && d > 0 {
		if s.dur == nil {
			return e
		}
		return ceilDiv(e*d, s.inst.Jobs[j].Duration)
	}
	return d
}

// trueDurationOn is the duration the engine runs on p.
func (s *sim) trueDurationOn(j, p int) int64 {
	if s.dur != nil {
		return s.dur[j*len(s.inst.Clusters)+p]
	}
	return s.inst.Jobs[j].Duration
}

func ceilDiv(a, b int64) int64 { return (a + b - 1) / b }

// speed is v_{j,p} = min_p' d_{j,p'} / d_{j,p}.
func (s *sim) speed(j, p int) float64 {
	if s.dur == nil {
		return 1
	}
	P := len(s.inst.Clusters)
	row := s.dur[j*P : (j+1)*P]
	best := int64(0)
	for _, d := range row {
		if d > 0 && (best == 0 || d < best) {
			best = d
		}
	}
	if row[p] <= 0 {
		return 0
	}
	return float64(best) / float64(row[p])
}

// remOn is job j's remaining time if it runs on cluster p from now, as
// schedulers see it. With an estimate d̂ (SPEC §14) it is d̂_p minus the
// work already done expressed in seconds on p, at least 1 s; for a job
// that ran x seconds on a homogeneous instance, max(1, d̂ − x).
func (s *sim) remOn(j, p int) int64 {
	if s.estimated && s.inst.Jobs[j].Estimate > 0 {
		done := s.trueDurationOn(j, p) - s.trueRemOn(j, p)
		return max(1, s.durationOn(j, p)-done)
	}
	return s.trueRemOn(j, p)
}

// trueRemOn is the remaining time the engine would run on p.
func (s *sim) trueRemOn(j, p int) int64 {
	if s.dur == nil {
		return s.rem[j] - s.lag(j)
	}
	if a := s.assigned[j]; a >= 0 && s.typeOf[a] == s.typeOf[p] {
		return s.rem[j]
	}
	return s.rescaled(j, p)
}

// rescaled is ⌈(1 − Σ_T e_T/d_{j,T}) · d_{j,p}⌉ (heterogeneous only).
func (s *sim) rescaled(j, p int) int64 {
	P := len(s.inst.Clusters)
	dp := s.dur[j*P+p]
	if s.ranSecs[j] == 0 {
		return dp
	}
	done := new(big.Rat)
	for t := range s.types {
		e := s.exec[j*s.types+t]
		if e == 0 {
			continue
		}
		// d_{j,T}: the duration on any cluster of type T.
		for q := range P {
			if s.typeOf[q] == t && s.dur[j*P+q] > 0 {
				done.Add(done, big.NewRat(e, s.dur[j*P+q]))
				break
			}
		}
	}
	left := new(big.Rat).Sub(big.NewRat(1, 1), done)
	left.Mul(left, big.NewRat(dp, 1))
	if left.Sign() <= 0 {
		return 1 // rounding left a sliver: one more second finishes it
	}
	n, d := left.Num(), left.Denom()
	q, m := new(big.Int).QuoRem(n, d, new(big.Int))
	if m.Sign() != 0 {
		q.Add(q, big.NewInt(1))
	}
	return max(q.Int64(), 1)
}

// assign sets c_j = p, rescaling the remaining time when the GPU type
// changes.
func (s *sim) assign(j, p int) {
	if s.dur != nil && s.assigned[j] != p {
		s.rem[j] = s.trueRemOn(j, p)
	}
	s.assigned[j] = p
}

// ran records that running job j executed x more seconds.
func (s *sim) ran(j int, x int64) {
	s.rem[j] -= x
	s.ranSecs[j] += x
	if s.exec != nil {
		s.exec[j*s.types+s.typeOf[s.runOn[j]]] += x
	}
}

// queued is the job's queuing time so far: time since arrival not running.
func (s *sim) queued(j int) int64 {
	return s.now - s.inst.Jobs[j].Arrival - s.ranSecs[j] - s.lag(j)
}

// lag is how many seconds job j ran since its counters were last brought
// up to date: the time since its start, or since the last operation, for
// a Jn job under lazyJn (its rem and ranSecs stay as of then); 0 for every
// other job.
func (s *sim) lag(j int) int64 {
	if s.lazyJn && s.fixed[j] {
		return max(0, s.now-s.updated[j])
	}
	return 0
}

// snapshotClusters records, for ClusterAware rankings, every cluster's free
// GPUs per node and its queue length at the start of the operation.
func (s *sim) snapshotClusters() {
	for p, c := range s.inst.Clusters {
		for n := range s.freeNow[p] {
			s.freeNow[p][n] = c.GPUsPerNode
		}
		s.queueLen[p] = 0
	}
	for _, j := range s.active {
		p := s.assigned[j]
		if p < 0 {
			continue
		}
		if s.state[j] != running {
			s.queueLen[p]++
			continue
		}
		p = s.runOn[j]
		w := s.inst.Jobs[j].PerWorker()
		for _, sl := range s.placement[j] {
			s.freeNow[p][sl.Node] -= int(sl.Workers) * w
		}
	}
}

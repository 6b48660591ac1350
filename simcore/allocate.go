package simcore

// Allocation is an allocator's window on one scheduling operation: the jobs
// that arrived, their feasible clusters, the finish a job would get on a
// cluster, and the assignment itself.
type Allocation struct {
	s *sim
}

// Now is the operation time t.
func (a *Allocation) Now() int64 { return a.s.now }

// Arrivals lists the jobs (indices into Instance.Jobs) that arrived at this
// operation, in (arrival, id) order. They have no cluster yet.
func (a *Allocation) Arrivals() []int { return a.s.arrivals }

// Job returns job i of the instance.
func (a *Allocation) Job(i int) Job { return a.s.inst.Jobs[i] }

// Clusters is the number of clusters.
func (a *Allocation) Clusters() int { return len(a.s.clusters) }

// Feasible reports whether job i fits cluster p at all.
func (a *Allocation) Feasible(i, p int) bool { return a.s.feasible(i, p) }

// RemainingOn is job i's remaining time if it runs on cluster p from now.
func (a *Allocation) RemainingOn(i, p int) int64 { return a.s.remOn(i, p) }

// FinishOn is the finish time job i would get if added now to the plan of
// cluster p, ranked among that cluster's jobs (never if it cannot be placed).
func (a *Allocation) FinishOn(i, p int) (int64, error) {
	a.s.setKey(i, p)
	return a.s.clusters[p].finishIfAdded(i)
}

// Assign sets the cluster of schedulable job i to p: an arrival, or (for
// allocators that re-decide every job, such as EVO) a job of Js that had
// another cluster.
func (a *Allocation) Assign(i, p int) {
	s := a.s
	if old := s.assigned[i]; old >= 0 {
		if old == p {
			return
		}
		s.clusters[old].remove(i)
		s.wait(i) // until cluster p's plan places it (deferFrom)
	}
	s.assign(i, p)
	s.setKey(i, p)
	s.clusters[p].add(i)
}

// Schedulable lists Js in (arrival, id) order (see State.Schedulable).
func (a *Allocation) Schedulable() []int { return (&State{s: a.s}).Schedulable() }

// Assigned is the job's current cluster (−1 while unset).
func (a *Allocation) Assigned(i int) int { return a.s.assigned[i] }

// minRemaining is min_p rem_{j,p} over the clusters j fits: no plan can
// finish it before now + that.
func (a *Allocation) minRemaining(i int) int64 {
	if a.s.dur == nil {
		return a.s.rem[i]
	}
	best := int64(never)
	for p := range a.s.inst.Clusters {
		if a.s.feasible(i, p) {
			best = min(best, a.s.remOn(i, p))
		}
	}
	return best
}

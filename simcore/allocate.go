package simcore

import "context"

// Allocation is an allocator's window on one scheduling operation (the
// allocation seam): the jobs that arrived, their feasible clusters, the
// finish a job would get on a cluster, and the assignment itself. An
// allocator that re-decides every job of Js (EVO and mct-all in
// simcore/evo, a learned allocation rule) also finds here what it needs to
// score assignments of its own: the read-only State (Jn, remaining and
// queued times), the ranking key and order on a cluster (RankKey,
// RankSort), the placer and options, the operation index and context,
// side-effect-free what-if plans of member sets (WhatIfs, whatif.go), and
// the operation log (RecordOp).
type Allocation struct {
	s *sim
}

// State is the operation's read-only view (valid during Allocate only):
// Js, Jn (IsFixed), remaining and queued times, placements.
func (a *Allocation) State() *State { return &State{s: a.s} }

// Instance is the simulated instance (read-only).
func (a *Allocation) Instance() *Instance { return a.s.inst }

// Options are the simulation's options (read-only).
func (a *Allocation) Options() Options { return a.s.opts }

// Op is the 1-based index of this operation within the simulation.
func (a *Allocation) Op() int { return a.s.ops }

// Context is the simulation's context; long-running allocators should
// check it.
func (a *Allocation) Context() context.Context { return a.s.ctx }

// Ranking is the list scheduler's ranking.
func (a *Allocation) Ranking() Ranking { return a.s.list.Ranking }

// Placer is the list scheduler's placer.
func (a *Allocation) Placer() Placer { return a.s.list.Placer }

// Heterogeneous reports whether durations depend on the cluster (SPEC §12).
func (a *Allocation) Heterogeneous() bool { return a.s.dur != nil }

// FixedOn lists the Jn jobs of cluster p (running on their user cluster,
// so they keep it), in (arrival, id) order.
func (a *Allocation) FixedOn(p int) []int {
	s := a.s
	var out []int
	for _, j := range s.active {
		if s.fixed[j] && s.assigned[j] == p {
			out = append(out, j)
		}
	}
	return out
}

// RecordOp appends one row to the simulation's operation log
// (Result.Ops) when Options.RecordOps is set, and does nothing otherwise.
func (a *Allocation) RecordOp(r OpRecord) {
	if a.s.opts.RecordOps {
		a.s.opLog = append(a.s.opLog, r)
	}
}

// Scratch is the allocator's per-simulation storage, kept across the
// simulation's operations (nil at the first): an allocator value may be
// shared by simulations running in parallel, so it keeps its reusable
// buffers here rather than in itself. What it holds must not change the
// allocator's decisions (buffers only, reset at each operation).
func (a *Allocation) Scratch() *any { return &a.s.allocScratch }

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
	if s.dur != nil {
		// sim.assign rescales rem[i]: load the what-if planners'
		// deferred candidates first (levelSets.loadPending).
		s.levelSets.loadPending(s)
	}
	s.assign(i, p)
	s.setKey(i, p)
	s.clusters[p].add(i)
}

// Schedulable lists Js in (arrival, id) order (see State.Schedulable).
func (a *Allocation) Schedulable() []int { return (&State{s: a.s}).Schedulable() }

// Assigned is the job's current cluster (−1 while unset).
func (a *Allocation) Assigned(i int) int { return a.s.assigned[i] }

// MinRemaining is min_p rem_{j,p} over the clusters job i fits: no plan can
// finish it before now + that.
func (a *Allocation) MinRemaining(i int) int64 {
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

package simcore

import (
	"context"
	"fmt"
)

// Scheduler is the engine's only view of a scheduling policy (the seam of
// SPEC §10): at every scheduling operation the engine hands it a read-only
// State and an empty Plan; the scheduler fills the Plan; the engine
// validates it against SPEC §4 and executes it until the next operation
// (§4.4).
//
// Implementations must be safe for concurrent use when one value is shared
// by simulations running in parallel: keep per-simulation scratch in the
// State (see State.Scratch), not in the scheduler.
type Scheduler interface {
	// Name labels results and errors.
	Name() string
	// Plan decides, for every schedulable job of st, a cluster and either
	// a start time and placement (Plan.Start) or waiting (Plan.Wait).
	Plan(st *State, pl *Plan) error
}

// CompletionTriggered is implemented by schedulers that need a scheduling
// operation at every job completion as well as at every arrival
// (non-preemptive list dispatchers such as Hydra's model of SPEC §13).
type CompletionTriggered interface {
	OnCompletions() bool
}

// Slot is a job's workers on one node of its cluster.
type Slot struct {
	Node    int32
	Workers int32
}

// State is the read-only view of one scheduling operation at time t: the
// unfinished jobs with their remaining work and accumulated queueing, which
// of them are non-preemptible (Jn) and which schedulable (Js), the running
// placements, the clusters, and per-cluster durations. Job arguments are
// indices into Instance().Jobs.
//
// A State is valid only during the Plan call it is passed to.
type State struct {
	s *sim
}

// Now is the operation time t (seconds).
func (st *State) Now() int64 { return st.s.now }

// Op is the 1-based index of this operation within the simulation.
func (st *State) Op() int { return st.s.ops }

// Context is the simulation's context; long-running schedulers should
// check it.
func (st *State) Context() context.Context { return st.s.ctx }

// Instance is the simulated instance (read-only).
func (st *State) Instance() *Instance { return st.s.inst }

// Options are the simulation's options (read-only).
func (st *State) Options() Options { return st.s.opts }

// Clusters is the number of clusters.
func (st *State) Clusters() int { return len(st.s.inst.Clusters) }

// Job is job j of the instance.
func (st *State) Job(j int) *Job { return &st.s.inst.Jobs[j] }

// Active lists the arrived, unfinished jobs in (arrival, id) order. The
// slice belongs to the engine: do not modify it.
func (st *State) Active() []int { return st.s.active }

// Arrivals lists the jobs that arrived at this operation, in (arrival, id)
// order.
func (st *State) Arrivals() []int { return st.s.arrivals }

// Schedulable lists Js (SPEC §4.2): queued jobs and running jobs off their
// user cluster, in (arrival, id) order.
func (st *State) Schedulable() []int {
	s := st.s
	s.js = append(s.js[:0], s.open...)
	return s.js
}

// IsFixed reports whether j is in Jn: running on its user cluster, so it
// keeps its placement until it finishes.
func (st *State) IsFixed(j int) bool { return st.s.fixed[j] }

// Running reports whether j is running at t (before this operation's plan).
func (st *State) Running(j int) bool { return st.s.state[j] == running }

// Assigned is c_j, the job's current cluster, or −1 while unset.
func (st *State) Assigned(j int) int { return st.s.assigned[j] }

// Placement is the running job's current placement (nil when not running).
func (st *State) Placement(j int) []Slot {
	if st.s.state[j] != running {
		return nil
	}
	return st.s.placement[j]
}

// Feasible reports whether j can ever run on cluster p (SPEC §3, §12).
func (st *State) Feasible(j, p int) bool { return st.s.feasible(j, p) }

// DurationOn is d_{j,p}, the job's total duration on cluster p as the
// scheduler sees it (its estimate when estimates are in use), 0 if the job
// cannot run there.
func (st *State) DurationOn(j, p int) int64 { return st.s.durationOn(j, p) }

// Remaining is the job's remaining time on its assigned cluster as the
// scheduler sees it (seconds; on the user cluster while unassigned).
func (st *State) Remaining(j int) int64 {
	p := st.s.assigned[j]
	if p < 0 {
		p = st.s.inst.Jobs[j].Cluster
	}
	return st.s.remOn(j, p)
}

// RemainingOn is the job's remaining time if it ran on cluster p from now
// (SPEC §12: progress is work, so a move between GPU types rescales it).
func (st *State) RemainingOn(j, p int) int64 { return st.s.remOn(j, p) }

// Queued is the job's accumulated queuing time up to t: the time since its
// arrival during which it did not run.
func (st *State) Queued(j int) int64 { return st.s.queued(j) }

// Plan is what a scheduler returns for one operation: for every job of Js a
// cluster and a start S_j ≥ t with a placement, or waiting. The engine
// validates it before executing it.
type Plan struct {
	s   *sim
	err error
}

// Start plans job j on cluster p from time at with the given placement
// (copied). Starting a running job at t on the same placement keeps it
// running; on another placement migrates it; later preempts it.
func (pl *Plan) Start(j, p int, at int64, slots []Slot) {
	s := pl.s
	if pl.check(j, p) {
		return
	}
	s.assign(j, p)
	s.planStart[j] = at
	s.planPlace[j] = append(s.planPlace[j][:0], slots...)
	s.decided[j] = true
}

// Wait plans job j on cluster p without a start at this operation: it is
// queued (preempted if running) and planned again at the next operation.
func (pl *Plan) Wait(j, p int) {
	s := pl.s
	if pl.check(j, p) {
		return
	}
	s.assign(j, p)
	s.planStart[j] = never
	s.planPlace[j] = s.planPlace[j][:0]
	s.decided[j] = true
}

// Err is the first rule a Start or Wait call broke, if any.
func (pl *Plan) Err() error { return pl.err }

func (pl *Plan) check(j, p int) bool {
	if pl.err != nil {
		return true
	}
	s := pl.s
	switch {
	case j < 0 || j >= len(s.inst.Jobs):
		pl.err = fmt.Errorf("job index %d out of range", j)
	case s.state[j] != queued && s.state[j] != running:
		pl.err = fmt.Errorf("job %d is not active", s.inst.Jobs[j].ID)
	case s.fixed[j]:
		pl.err = fmt.Errorf("job %d runs on its user cluster (Jn): its placement is not the scheduler's to change", s.inst.Jobs[j].ID)
	case p < 0 || p >= len(s.inst.Clusters):
		pl.err = fmt.Errorf("job %d: unknown cluster %d", s.inst.Jobs[j].ID, p)
	case !s.feasible(j, p):
		pl.err = fmt.Errorf("job %d cannot run on cluster %d", s.inst.Jobs[j].ID, p)
	}
	return pl.err != nil
}

package simcore

import (
	"fmt"
	"math"
)

// BoundExceeded is returned by Simulate under Options.StopAbove when a
// lower bound of the final objective exceeds the threshold at an
// operation.
type BoundExceeded struct {
	LowerBound float64 // the bound that exceeded Options.StopAbove
	Time       int64   // the operation time at which it did
}

func (e *BoundExceeded) Error() string {
	return fmt.Sprintf("simcore: objective lower bound %.6g exceeds the threshold at t=%d", e.LowerBound, e.Time)
}

// doneStats accumulates the final objective terms of the settled jobs:
// the finished ones, and the running jobs of Jn, whose finish F_j is fixed
// when they start (they run to completion, SPEC §4.2), so their queuing
// time q_j = S_j − a_j − (seconds run before S_j), JCT and tardiness are
// already final.
type doneStats struct {
	sumUQ, maxUQ float64 // hours
	sumJCT, maxQ float64 // hours
	tard         float64 // hours
}

// add settles job j, which finishes at finish after running ran seconds
// in all.
func (d *doneStats) add(s *sim, j int, finish, ran int64) {
	job := &s.inst.Jobs[j]
	q := Hours(finish - job.Arrival - ran)
	uq := float64(job.Priority) * q
	d.sumUQ += uq
	d.maxUQ = math.Max(d.maxUQ, uq)
	d.sumJCT += Hours(finish - job.Arrival)
	d.maxQ = math.Max(d.maxQ, q)
	d.tard += Hours(Tardiness(job.Deadline, finish))
}

// lowerBound is a lower bound, at the current operation time t, of the
// objective the simulation will end with: the objective kind's Bound
// (objective.go) of the terms' bounds. A settled job's terms are final
// (finished, or running in Jn to a known finish: doneStats), another
// arrived job's q_j is at least its queuing so far and its JCT and
// tardiness at least those of its earliest possible finish; jobs not yet
// arrived count through ObjectiveBound.WithFuture. The walk is over Js only
// (the settled terms are kept as jobs settle), so an operation costs
// O(|Js|) plus what the kind's Bound asks for.
func (s *sim) lowerBound() float64 {
	b := ObjectiveBound{Jobs: len(s.inst.Jobs), SumUQ: s.done.sumUQ, MaxUQ: s.done.maxUQ, SumJCT: s.done.sumJCT, MaxQ: s.done.maxQ, Tard: s.done.tard, s: s}
	for _, j := range s.open {
		job := &s.inst.Jobs[j]
		q := Hours(s.queued(j))
		uq := float64(job.Priority) * q
		b.SumUQ += uq
		b.MaxUQ = math.Max(b.MaxUQ, uq)
		b.MaxQ = math.Max(b.MaxQ, q)
		rem := s.rem[j]
		if s.dur != nil {
			rem = s.minTrueRem(j)
		}
		b.SumJCT += Hours(s.now - job.Arrival + rem)
		b.Tard += Hours(Tardiness(job.Deadline, s.now+rem))
	}
	return s.opts.Objective.LowerBound(b)
}

// minTrueRem is the job's smallest remaining time over the clusters it can
// run on.
func (s *sim) minTrueRem(j int) int64 {
	if s.dur == nil {
		return s.rem[j]
	}
	best := int64(math.MaxInt64)
	for p := range s.inst.Clusters {
		if s.feasible(j, p) {
			best = min(best, s.trueRemOn(j, p))
		}
	}
	return best
}

// maxWork is an upper bound of Σ g_j d_j over the run: exact on
// homogeneous instances, the largest per-type duration otherwise (plus a
// second per type change of rounding).
func (s *sim) maxWork() float64 {
	w := 0.0
	for j := range s.inst.Jobs {
		job := &s.inst.Jobs[j]
		d := job.Duration
		if s.dur != nil {
			for p := range s.inst.Clusters {
				d = max(d, s.dur[j*len(s.inst.Clusters)+p]+int64(s.types))
			}
		}
		w += float64(job.GPUs) * float64(d)
	}
	return w
}

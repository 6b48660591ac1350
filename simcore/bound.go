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
	d.tard += Hours(int64(tardiness(job, finish)))
}

// lowerBound is a lower bound, at the current operation time t, of the
// objective the simulation will end with. Queuing times only grow: a
// settled job's q_j is final (finished, or running in Jn to a known
// finish: doneStats), another arrived job's is at least its queuing so
// far, a future job's at least 0. So
//
//	C_q,avg ≥ (Σ_done u_j q_j + Σ_active u_j q_j(t)) / |J|,
//	C_q,max ≥ max of the same terms,
//	1 − C_u ≥ 1 − min(1, W / (C · (t − min_j a_j)))  (max_j F_j > t while jobs remain),
//
// with W an upper bound of the work Σ g_j d_j (exact on homogeneous
// instances; the largest per-type duration otherwise) and C the capacity.
// For Eq. 16: avg JCT ≥ (Σ_settled JCT_j + Σ_Js (t − a_j + rem_j) +
// Σ_future d_min,j) / |J| and max q ≥ the largest q so far; for the
// deadline objective, each job's tardiness is at least that of its
// earliest possible finish. The walk is over Js only (the settled terms
// are kept as jobs settle), so an operation costs O(|Js|).
func (s *sim) lowerBound() float64 {
	n := float64(len(s.inst.Jobs))
	sumUQ, maxUQ, sumJCT, maxQ, tard := s.done.sumUQ, s.done.maxUQ, s.done.sumJCT, s.done.maxQ, s.done.tard
	for _, j := range s.open {
		job := &s.inst.Jobs[j]
		q := Hours(s.queued(j))
		uq := float64(job.Priority) * q
		sumUQ += uq
		maxUQ = math.Max(maxUQ, uq)
		maxQ = math.Max(maxQ, q)
		rem := s.rem[j]
		if s.dur != nil {
			rem = s.minTrueRem(j)
		}
		sumJCT += Hours(s.now - job.Arrival + rem)
		tard += Hours(int64(tardiness(job, s.now+rem)))
	}
	obj := s.opts.Objective
	if obj.Kind != MultiCluster {
		for _, j := range s.order[s.next:] {
			job := &s.inst.Jobs[j]
			d := s.minTrueRem(j)
			sumJCT += Hours(d)
			tard += Hours(int64(tardiness(job, job.Arrival+d)))
		}
		if obj.Kind == DeadlineAware {
			return obj.Omega*sumJCT/n + (1-obj.Omega)*tard/n
		}
		return obj.Omega*sumJCT/n + (1-obj.Omega)*maxQ
	}
	lb := obj.Weights[0]*sumUQ/n + obj.Weights[1]*maxUQ
	first := s.inst.Jobs[s.order[0]].Arrival
	if span := s.now - first; span > 0 && len(s.active)+len(s.order)-s.next > 0 {
		if s.workUB == 0 {
			s.workUB = s.maxWork()
		}
		capacity := 0.0
		for _, c := range s.inst.Clusters {
			capacity += float64(c.GPUs())
		}
		lb += obj.Weights[2] * (1 - math.Min(1, s.workUB/(capacity*float64(span))))
	}
	return lb
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

package simcore

import (
	"errors"
	"fmt"
)

// Side-by-side modes (docs/DESIGN.md, beside SPEC §4.3).
//
// BackfillStrict is greedy with head-of-line blocking, as the FIFO, SJF
// and QSSF policies of Helios-style simulators run: at every operation
// (arrivals and completions) each cluster walks its ranked jobs and starts
// each one that fits now, and stops at the first that does not — it and
// every job ranked after it wait, even if a later one would fit.
//
// BackfillPreemptive is greedy with preemption, as Helios's SRTF: no job
// is fixed; at every operation each cluster ranks all its unfinished jobs,
// running ones included, and walks them in order on an empty cluster:
//   - a running job keeps its nodes if they still hold it after the jobs
//     ranked before it; otherwise it is displaced;
//   - any other job (waiting, or displaced) starts now if it fits on the
//     GPUs left free by the jobs placed so far and by the running jobs
//     still to visit (so it does not preempt when idle GPUs suffice);
//     failing that, if it fits when those running lower-ranked jobs are
//     ignored, it starts there and they are preempted when visited;
//     otherwise it waits (a displaced running job is preempted).
//
// A preempted or moved job pays Options.PreemptOverhead seconds of
// checkpoint/restore: its remaining time grows by that much.
//
// These are modes, not refinements: nothing here must equal another path.
// Their tests are hand-computed cases (TestStrictHeadOfLineBlocking,
// TestPreemptiveUsesIdleGPUsFirst, TestSRTFPreemptionCounts) and the
// invariants on random instances (TestStrictInvariantsRandom,
// TestPreemptiveInvariantsRandom, TestModesHeterogeneousInvariants); the
// widened golden results fix their job-level output.

// startsNowOnly reports whether the mode starts jobs only at the
// operation time (no reservations into the future), so that operations
// run at completions too.
func (b Backfill) startsNowOnly() bool {
	return b == BackfillGreedy || b == BackfillStrict || b == BackfillPreemptive
}

// BackfillChecker is implemented by schedulers and allocators that support
// only some backfill modes: CheckBackfill says why b is not one of them
// (nil if it is). The engine asks it before simulating.
type BackfillChecker interface {
	CheckBackfill(b Backfill) error
}

// checkMode rejects combinations the modes do not support.
func checkMode(inst *Instance, sched Scheduler, opts Options) error {
	if opts.PreemptOverhead < 0 {
		return fmt.Errorf("simcore: preemption overhead %d s: must be ≥ 0", opts.PreemptOverhead)
	}
	if opts.PreemptOverhead > 0 {
		if opts.Backfill != BackfillPreemptive {
			return errors.New("simcore: a preemption overhead needs backfill preemptive")
		}
		for _, j := range inst.Jobs {
			if j.TypeDurations != nil {
				return errors.New("simcore: a preemption overhead is not supported on heterogeneous instances")
			}
		}
	}
	if c, ok := sched.(BackfillChecker); ok {
		if err := c.CheckBackfill(opts.Backfill); err != nil {
			return fmt.Errorf("simcore: scheduler %q: %w", sched.Name(), err)
		}
	}
	if ls, ok := sched.(*ListScheduler); ok {
		if c, ok := ls.Allocator.(BackfillChecker); ok {
			if err := c.CheckBackfill(opts.Backfill); err != nil {
				return fmt.Errorf("simcore: scheduler %q: %w", ls.Label, err)
			}
		}
	}
	return nil
}

// initPending records, before a preemptive plan is walked, the GPUs the
// cluster's running jobs hold on each node.
func (p *planner) initPending() {
	s := p.s
	if len(p.preempt.pending) != p.nodes {
		p.preempt.pending = make([]int, p.nodes)
	}
	clear(p.preempt.pending)
	for _, j := range p.jobs {
		if s.state[j] == running && s.runOn[j] == p.index {
			w := s.inst.Jobs[j].PerWorker()
			for _, sl := range s.placement[j] {
				p.preempt.pending[sl.Node] += int(sl.Workers) * w
			}
		}
	}
}

// startPreemptive is the preemptive rule for job j at the operation time
// (see the mode comment). keep reports that j keeps its current placement;
// otherwise a start of now leaves the capacity to place it on in p.free.
func (p *planner) startPreemptive(j int) (start int64, keep bool) {
	s := p.s
	job := &s.inst.Jobs[j]
	w, r := job.PerWorker(), job.Workers
	if s.state[j] == running && s.runOn[j] == p.index {
		fitsHere := true
		for _, sl := range s.placement[j] {
			gpus := int(sl.Workers) * w
			p.preempt.pending[sl.Node] -= gpus
			if p.sigma[sl.Node] < gpus {
				fitsHere = false
			}
		}
		if fitsHere {
			return s.now, true
		}
	}
	count := 0
	for n := range p.free {
		p.free[n] = p.sigma[n] - p.preempt.pending[n]
		count += fits(p.free[n], w)
	}
	if count >= r {
		return s.now, false
	}
	if p.earliestNow(w, r) == s.now {
		return s.now, false
	}
	return never, false
}

// startStrict is the strict rule: now if j fits now and no job ranked
// before it on this cluster waits; never otherwise.
func (p *planner) startStrict(w, r int) int64 {
	if p.strict.blocked {
		return never
	}
	start := p.earliestNow(w, r)
	if start == never {
		p.strict.blocked = true
	}
	return start
}

// payOverhead charges a preempted or moved job the checkpoint/restore
// overhead of the preemptive mode.
func (s *sim) payOverhead(j int) {
	if s.opts.Backfill == BackfillPreemptive {
		s.rem[j] += s.opts.PreemptOverhead
		s.staleKey(j)
	}
}

// strictMode is a strict plan's state: head-of-line blocking.
type strictMode struct {
	blocked bool // a job of this plan could not start now
}

// preemptMode is a preemptive plan's state.
type preemptMode struct {
	pending []int // GPUs per node of running jobs not yet walked
}

package hydra

import (
	"cmp"
	"fmt"
	"slices"
)

// GPU is one GPU at an operation: its type (an index into the problem's
// type list) and its offset, the seconds from the operation time until it
// is free (the remaining time of its running job; 0 when idle).
type GPU struct {
	Type   int
	Offset int64
}

// Idle reports whether the GPU is free at the operation time.
func (g GPU) Idle() bool { return g.Offset == 0 }

// Job is one waiting job at an operation.
type Job struct {
	ID int64
	// Dur[t] is the job's duration on GPU type t in seconds (its remaining
	// duration); ≤ 0 means it cannot run on that type.
	Dur []int64
	// Due is the deadline measured from the operation time (deadline − now;
	// ≤ 0 when already due), or NoDue.
	Due int64
}

// Fastest is the job's smallest duration over the types it can run on
// (0 if none).
func (j Job) Fastest() int64 {
	var best int64
	for _, d := range j.Dur {
		if d > 0 && (best == 0 || d < best) {
			best = d
		}
	}
	return best
}

// Problem is one scheduling operation in Hydra's model: GPUs, each running
// at most one job, and the jobs that wait. Types is the number of GPU types.
type Problem struct {
	Types int
	GPUs  []GPU
	Jobs  []Job
}

// Validate checks that every index is in range, durations exist for every
// type, and every job can run on some GPU of the problem.
func (p *Problem) Validate() error {
	has := make([]bool, p.Types)
	for k, g := range p.GPUs {
		if g.Type < 0 || g.Type >= p.Types {
			return fmt.Errorf("gpu %d: type %d out of range 0..%d", k, g.Type, p.Types-1)
		}
		if g.Offset < 0 {
			return fmt.Errorf("gpu %d: offset %d < 0", k, g.Offset)
		}
		has[g.Type] = true
	}
	for i, j := range p.Jobs {
		if len(j.Dur) != p.Types {
			return fmt.Errorf("job %d (index %d): %d durations for %d types", j.ID, i, len(j.Dur), p.Types)
		}
		ok := false
		for t, d := range j.Dur {
			if d > 0 && has[t] {
				ok = true
			}
		}
		if !ok {
			return fmt.Errorf("job %d: it can run on no GPU of the problem", j.ID)
		}
	}
	return nil
}

// Schedule is the outcome of a scheduler at one operation: per GPU the
// planned sequence of jobs (indices into Problem.Jobs) in run order. The
// head of an idle GPU's sequence starts now; the rest wait. Dispatch rules
// (EDF, sjf-fastest, Chronus) fill only idle GPUs, one job each.
type Schedule struct {
	Queues [][]int
}

// Check verifies a schedule against its problem: every index in range,
// no job twice, and every job on a GPU whose type it can run on. It
// returns the number of jobs placed.
func (s Schedule) Check(p *Problem) (int, error) {
	if len(s.Queues) != len(p.GPUs) {
		return 0, fmt.Errorf("schedule has %d queues for %d GPUs", len(s.Queues), len(p.GPUs))
	}
	seen := make([]bool, len(p.Jobs))
	n := 0
	for k, q := range s.Queues {
		for _, j := range q {
			if j < 0 || j >= len(p.Jobs) {
				return 0, fmt.Errorf("gpu %d: job index %d out of range", k, j)
			}
			if seen[j] {
				return 0, fmt.Errorf("job %d placed twice", p.Jobs[j].ID)
			}
			seen[j] = true
			if p.Jobs[j].Dur[p.GPUs[k].Type] <= 0 {
				return 0, fmt.Errorf("job %d placed on gpu %d of a type it cannot run on", p.Jobs[j].ID, k)
			}
			n++
		}
	}
	return n, nil
}

// itemOn is job j as an item of a GPU of type t.
func (p *Problem) itemOn(j, t int) Item {
	return Item{ID: p.Jobs[j].ID, Dur: p.Jobs[j].Dur[t], Due: p.Jobs[j].Due}
}

// byID returns the job indices in ascending job id order.
func (p *Problem) byID() []int {
	idx := make([]int, len(p.Jobs))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return cmp.Compare(p.Jobs[a].ID, p.Jobs[b].ID) })
	return idx
}

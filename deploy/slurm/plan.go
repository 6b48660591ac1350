package slurm

import (
	"context"
	"errors"
	"fmt"
	"sort"

	"github.com/evogp/evogp/simcore"
)

// Decision is the plan for one managed pending job.
type Decision struct {
	Job       QueueJob
	Partition string // the partition the scheduler chose
	Rank      int    // 1-based rank in that partition's order
	Priority  int64  // the Slurm priority that gives that order
	// SlurmRank is the job's 1-based rank among the managed jobs of its
	// current partition in Slurm's own order (priority descending, then
	// submit time, then id): what Slurm would do without the plan.
	SlurmRank int
}

// errCaptured stops the simulation once the deploy operation is planned.
var errCaptured = errors.New("deploy operation captured")

// capture is the allocator that runs the learned scheduler's own
// allocator at the deploy operation and reads its decisions. Before it
// (the running jobs' arrivals) it keeps each job on its partition, so
// that they run there as fixed jobs.
type capture struct {
	inner   simcore.Allocator
	now     int64 // instance time of the deploy operation
	pending []int
	// Results: the cluster of each pending job (by position in pending)
	// and each cluster's pending jobs in ranking order.
	cluster []int
	order   [][]int
	fixed   func(j int) bool
	running []int
}

func (c *capture) Allocate(a *simcore.Allocation) error {
	st := a.State()
	if st.Now() < c.now {
		for _, j := range a.Arrivals() {
			a.Assign(j, a.Instance().Jobs[j].Cluster)
		}
		return nil
	}
	for _, j := range c.running {
		if !st.Running(j) || !st.IsFixed(j) {
			job := a.Instance().Jobs[j]
			return fmt.Errorf("the running jobs of cluster %d do not fit its nodes in the simulator's model (job %d, %d GPUs on %d nodes)", job.Cluster, job.ID, job.GPUs, job.Workers)
		}
	}
	if err := c.inner.Allocate(a); err != nil {
		return err
	}
	k := a.Instance().Clusters
	per := make([][]int, len(k))
	c.cluster = make([]int, len(c.pending))
	for i, j := range c.pending {
		p := a.Assigned(j)
		if p < 0 {
			return fmt.Errorf("the scheduler left job %d without a partition", a.Instance().Jobs[j].ID)
		}
		c.cluster[i] = p
		per[p] = append(per[p], j)
	}
	c.order = make([][]int, len(k))
	for p, jobs := range per {
		for _, pos := range a.RankOrder(p, jobs) {
			c.order[p] = append(c.order[p], jobs[pos])
		}
	}
	return errCaptured
}

// PlanOperation runs the scheduler sched on the model's instance up to
// the deploy operation and returns its decisions: each pending job's
// cluster and each cluster's pending jobs in the ranking order
// (instance indices). sched must be a list scheduler (every learned
// scheduler is one); its own allocator, ranking and placer decide, as in
// simulate.
func PlanOperation(ctx context.Context, md *Model, sched simcore.Scheduler, opts simcore.Options) (cluster []int, order [][]int, err error) {
	if len(md.Pending) == 0 {
		return nil, make([][]int, len(md.Partitions)), nil
	}
	ls, ok := sched.(*simcore.ListScheduler)
	if !ok {
		return nil, nil, fmt.Errorf("scheduler %s is not a list scheduler (allocator + ranking + placer); deploy runs learned schedulers", sched.Name())
	}
	c := &capture{inner: ls.Allocator, now: md.Now - md.Origin, pending: md.Pending, running: md.Running}
	run := *ls
	run.Allocator = c
	_, err = simcore.Simulate(ctx, &md.Instance, &run, opts)
	if !errors.Is(err, errCaptured) {
		if err == nil {
			err = errors.New("the simulation ended before the deploy operation")
		}
		return nil, nil, fmt.Errorf("planning with %s: %w", sched.Name(), err)
	}
	return c.cluster, c.order, nil
}

// Plan is PlanOperation turned into Slurm terms: the partition, rank and
// priority of every managed pending job, in partition order then rank.
// Priorities are base + (n − rank) for the n jobs of a partition, so the
// first-ranked job has the highest.
func Plan(ctx context.Context, md *Model, sched simcore.Scheduler, opts simcore.Options, base int64) ([]Decision, error) {
	_, order, err := PlanOperation(ctx, md, sched, opts)
	if err != nil {
		return nil, err
	}
	slurmRank := SlurmOrder(md)
	var out []Decision
	for p, jobs := range order {
		for k, j := range jobs {
			out = append(out, Decision{Job: md.Jobs[j], Partition: md.Partitions[p], Rank: k + 1,
				Priority: base + int64(len(jobs)-1-k), SlurmRank: slurmRank[md.Jobs[j].ID]})
		}
	}
	return out, nil
}

// SlurmOrder ranks the managed pending jobs of each partition as Slurm
// orders them: priority descending, then submit time, then id.
func SlurmOrder(md *Model) map[int64]int {
	by := map[string][]QueueJob{}
	for _, j := range md.Pending {
		q := md.Jobs[j]
		by[q.Partition] = append(by[q.Partition], q)
	}
	rank := map[int64]int{}
	for _, jobs := range by {
		sort.Slice(jobs, func(a, b int) bool {
			x, y := jobs[a], jobs[b]
			if x.Priority != y.Priority {
				return x.Priority > y.Priority
			}
			if !x.Submit.Equal(y.Submit) {
				return x.Submit.Before(y.Submit)
			}
			return x.ID < y.ID
		})
		for k, j := range jobs {
			rank[j.ID] = k + 1
		}
	}
	return rank
}

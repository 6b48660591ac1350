package experiment

import (
	"context"
	"fmt"

	"github.com/evogp/evogp/internal/parallel"
	"github.com/evogp/evogp/internal/progress"
	"github.com/evogp/evogp/reports"
	"github.com/evogp/evogp/simcore"
)

// SimulateAll runs every instance under the policy on a pool of workers
// (0 = all cores) and returns the results in instance order, so the output
// does not depend on the number of workers. prog, if not nil, advances by
// one per finished simulation.
func SimulateAll(ctx context.Context, insts []simcore.Instance, p Policy, opts simcore.Options, workers int, prog *progress.Reporter) ([]simcore.Result, error) {
	out := make([]simcore.Result, len(insts))
	err := parallel.For(ctx, len(insts), workers, func(i int) error {
		var err error
		out[i], err = simcore.Simulate(ctx, &insts[i], p.sched, opts)
		if prog != nil {
			prog.Add(1)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// ResultRow converts one simulation to a row of results.parquet.
func ResultRow(r simcore.Result, scheduler string, seed int64) reports.ResultRow {
	m := r.Metrics
	return reports.ResultRow{
		Instance: r.Instance, Scheduler: scheduler, Seed: seed, Jobs: int64(m.Jobs),
		CQAvg: m.CQAvg, CQMax: m.CQMax, Util: m.Util, Objective: m.Objective,
		AvgJCT: m.AvgJCT, MaxQT: m.MaxQT, Makespan: m.Makespan,
		TotalTardiness: m.TotalTardiness, DeadlineMisses: int64(m.DeadlineMisses),
	}
}

// JobRows converts one simulation's per-job results to rows of jobs.parquet.
func JobRows(r simcore.Result, scheduler string) []reports.JobRow {
	rows := make([]reports.JobRow, len(r.Jobs))
	for i, j := range r.Jobs {
		rows[i] = reports.JobRow{
			Instance: r.Instance, Scheduler: scheduler, Job: j.ID, Cluster: int64(j.Cluster),
			UserCluster: int64(j.User), Priority: int64(j.Priority), GPUs: int64(j.GPUs),
			Arrival: j.Arrival, Duration: j.Duration, Start: j.Start, Finish: j.Finish,
			Queue: j.Queue, Preemptions: int64(j.Preemptions), Migrations: int64(j.Migrations),
		}
	}
	return rows
}

// SimulateRows simulates the policy on every instance and returns one
// result row per instance and, if withJobs, the per-job rows, both
// labelled with the policy's label.
func SimulateRows(ctx context.Context, insts []simcore.Instance, p Policy, sim SimSettings, workers int, withJobs bool, po progress.Options) ([]reports.ResultRow, []reports.JobRow, error) {
	if workers < 0 {
		return nil, nil, fmt.Errorf("workers = %d: must be ≥ 0 (0 = all cores)", workers)
	}
	opts, err := sim.Options()
	if err != nil {
		return nil, nil, err
	}
	prog := progress.New("simulate", len(insts), po)
	results, err := SimulateAll(ctx, insts, p, opts, workers, prog)
	prog.Finish()
	if err != nil {
		return nil, nil, err
	}
	rows := make([]reports.ResultRow, len(results))
	var jobs []reports.JobRow
	for i, r := range results {
		rows[i] = ResultRow(r, p.Label, 0)
		if withJobs {
			jobs = append(jobs, JobRows(r, p.Label)...)
		}
	}
	return rows, jobs, nil
}

package experiment

import (
	"context"
	"fmt"
	"time"

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
		out[i], err = simcore.Simulate(ctx, &insts[i], p.sched, withTicks(opts, &insts[i], prog))
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

// SimulateOutput holds the tables of one policy simulated on a dataset.
type SimulateOutput struct {
	Results []reports.ResultRow
	Jobs    []reports.JobRow // with SimulateTables' withJobs
	Ops     []reports.OpsRow // with withOps: the EVO operation log
}

// SimulateRows simulates the policy on every instance and returns one
// result row per instance and, if withJobs, the per-job rows, both
// labelled with the policy's label.
func SimulateRows(ctx context.Context, insts []simcore.Instance, p Policy, sim SimSettings, workers int, withJobs bool, po progress.Options) ([]reports.ResultRow, []reports.JobRow, error) {
	out, err := SimulateTables(ctx, insts, p, sim, workers, withJobs, false, po)
	return out.Results, out.Jobs, err
}

// SimulateTables simulates the policy on every instance and returns one
// result row per instance, and, if asked, the per-job rows and the EVO
// operation log (one row per operation of an evo allocator; empty for
// other schedulers), all labelled with the policy's label and in instance
// order.
func SimulateTables(ctx context.Context, insts []simcore.Instance, p Policy, sim SimSettings, workers int, withJobs, withOps bool, po progress.Options) (SimulateOutput, error) {
	if workers < 0 {
		return SimulateOutput{}, fmt.Errorf("workers = %d: must be ≥ 0 (0 = all cores)", workers)
	}
	opts, err := sim.Options()
	if err != nil {
		return SimulateOutput{}, err
	}
	opts.RecordOps = withOps
	prog := progress.New("simulate", len(insts), po)
	results, err := SimulateAll(ctx, insts, p, opts, workers, prog)
	prog.Finish()
	if err != nil {
		return SimulateOutput{}, err
	}
	out := SimulateOutput{Results: make([]reports.ResultRow, len(results))}
	for i, r := range results {
		out.Results[i] = ResultRow(r, p.Label, 0)
		if withJobs {
			out.Jobs = append(out.Jobs, JobRows(r, p.Label)...)
		}
		if withOps {
			out.Ops = append(out.Ops, OpsRows(r, p.Label)...)
		}
	}
	return out, nil
}

// withTicks makes a simulation report its progress (simulated time, jobs
// finished) to prog about once a second, so a long simulation shows
// progress on a terminal and in logs. The reports do not affect results.
func withTicks(opts simcore.Options, inst *simcore.Instance, prog *progress.Reporter) simcore.Options {
	if prog == nil {
		return opts
	}
	ops, last := 0, time.Now()
	first := int64(0)
	for k, j := range inst.Jobs {
		if k == 0 || j.Arrival < first {
			first = j.Arrival
		}
	}
	opts.OnOperation = func(t int64, arrived, finished int) {
		if ops++; ops%256 != 0 {
			return
		}
		if now := time.Now(); now.Sub(last) >= time.Second {
			last = now
			prog.Tick(fmt.Sprintf("%s: simulated %.1f h, %d/%d jobs finished", inst.Name, simcore.Hours(t-first), finished, len(inst.Jobs)))
		}
	}
	return opts
}

// SelectInstances keeps the instances named in names, in dataset order
// (all of them when names is empty). An unknown name is an error.
func SelectInstances(insts []simcore.Instance, names []string) ([]simcore.Instance, error) {
	if len(names) == 0 {
		return insts, nil
	}
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	var out []simcore.Instance
	for _, in := range insts {
		if want[in.Name] {
			out = append(out, in)
			delete(want, in.Name)
		}
	}
	for _, n := range names {
		if want[n] {
			return nil, fmt.Errorf("--instances: no instance %q in the dataset", n)
		}
	}
	return out, nil
}

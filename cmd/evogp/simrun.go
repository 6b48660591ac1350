package main

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/internal/parallel"
	"github.com/evogp/evogp/internal/progress"
	"github.com/evogp/evogp/learn"
	"github.com/evogp/evogp/reports"
	"github.com/evogp/evogp/simcore"
)

// buildScheduler resolves a scheduler spec (a named baseline or
// ALLOCATOR+RANKING+PLACER) and an optional priority formula. With a
// formula, the ranking part "formula" (or, for a spec without it, the
// spec's ranking) is replaced by the formula over d, q, u, g.
func buildScheduler(spec, formula string, seconds bool) (simcore.Scheduler, error) {
	if formula == "" {
		if strings.Contains(spec, "+formula+") {
			return nil, fmt.Errorf("scheduler %q uses a formula ranking: give it with --priority", spec)
		}
		return simcore.ParseScheduler(spec, nil)
	}
	tree, err := expr.Parse(formula)
	if err != nil {
		return nil, fmt.Errorf("priority %q: %w", formula, err)
	}
	rank := learn.NewFormulaRanking(tree, seconds)
	sched, err := simcore.ParseScheduler(spec, map[string]simcore.Ranking{"formula": rank})
	if err != nil {
		return nil, err
	}
	ls, ok := sched.(*simcore.ListScheduler)
	if !ok {
		return nil, fmt.Errorf("scheduler %q has no ranking for --priority to set", spec)
	}
	if !strings.Contains(spec, "+formula+") {
		ls.Ranking = rank
	}
	ls.Label = fmt.Sprintf("%s[%s]", ls.Label, tree.String())
	return ls, nil
}

// simOptions gathers the simulator flags shared by several commands.
type simOptions struct {
	Trigger, Backfill, Objective string
	Weights                      string
	Omega                        float64
}

func (o simOptions) options() (simcore.Options, error) {
	var opts simcore.Options
	var err error
	if opts.Trigger, err = simcore.ParseTrigger(o.Trigger); err != nil {
		return opts, err
	}
	if opts.Backfill, err = simcore.ParseBackfill(o.Backfill); err != nil {
		return opts, err
	}
	opts.Objective = simcore.DefaultObjective()
	switch o.Objective {
	case "", "multi":
	case "single":
		opts.Objective.Kind = simcore.SingleCluster
	default:
		return opts, fmt.Errorf("objective %q: want multi or single", o.Objective)
	}
	opts.Objective.Omega = o.Omega
	if o.Weights != "" {
		parts := strings.Split(o.Weights, ",")
		if len(parts) != 3 {
			return opts, fmt.Errorf("weights %q: want three numbers ω1,ω2,ω3", o.Weights)
		}
		for i, p := range parts {
			w, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
			if err != nil {
				return opts, fmt.Errorf("weights %q: %w", o.Weights, err)
			}
			opts.Objective.Weights[i] = w
		}
	}
	return opts, opts.Objective.Validate()
}

// simulateAll runs every instance under sched on a pool of workers.
// Results are returned in instance order, so output does not depend on the
// number of workers.
func simulateAll(ctx context.Context, insts []simcore.Instance, sched simcore.Scheduler, opts simcore.Options, workers int, prog *progress.Reporter) ([]simcore.Result, error) {
	out := make([]simcore.Result, len(insts))
	err := parallel.For(ctx, len(insts), workers, func(i int) error {
		var err error
		out[i], err = simcore.Simulate(ctx, &insts[i], sched, opts)
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

// resultRow converts one simulation to a row of results.parquet.
func resultRow(r simcore.Result, scheduler string, seed int64) reports.ResultRow {
	m := r.Metrics
	return reports.ResultRow{
		Instance: r.Instance, Scheduler: scheduler, Seed: seed, Jobs: int64(m.Jobs),
		CQAvg: m.CQAvg, CQMax: m.CQMax, Util: m.Util, Objective: m.Objective,
		AvgJCT: m.AvgJCT, MaxQT: m.MaxQT, Makespan: m.Makespan,
		TotalTardiness: m.TotalTardiness, DeadlineMisses: int64(m.DeadlineMisses),
	}
}

// jobRows converts one simulation's per-job results to rows of jobs.parquet.
func jobRows(r simcore.Result, scheduler string) []reports.JobRow {
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

package experiment

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/evogp/evogp/datasets"
	"github.com/evogp/evogp/internal/progress"
	"github.com/evogp/evogp/policies"
	"github.com/evogp/evogp/reports"
	"github.com/evogp/evogp/simcore"
	"github.com/evogp/evogp/simcore/rule"
)

// SimulateCommand is what `evogp simulate` runs: one scheduler over the
// instances of a dataset.
type SimulateCommand struct {
	Dataset   string
	Instances []string // by name; empty = all (SelectInstances)
	// Builder builds the scheduler Scheduler with the formula Priority
	// (a spec whose ranking is formula); Builder.Seconds is the time unit
	// of formulas.
	Builder             PolicyBuilder
	Scheduler, Priority string
	// Routing and Scope replace Builder.Rule (rule.ParseParams) when
	// RuleGiven.
	Routing, Scope string
	RuleGiven      bool
	// Prepare, if not nil, is run on the selected instances before they
	// are simulated (the estimates flags fill Job.Estimate).
	Prepare func([]simcore.Instance) error
	// Clock is engine (the simulator) or hydra-float (FloatClock).
	Clock string
	// Given reports whether a flag was given, for the flags the float
	// clock refuses (FloatClock); nil means none was.
	Given   func(flag string) bool
	Sim     SimSettings
	Workers int // instances in parallel; 0 = all cores
	// JobsOut, OpsOut and SummaryOut, if not empty, are the files the
	// per-job rows, the EVO operation log and the metric table are
	// written to (.csv or .parquet).
	JobsOut, OpsOut, SummaryOut string
	JSON                        bool // one JSON object per instance instead of the table
	Progress                    progress.Options
}

// SimulateHelp is the description of `evogp simulate`: the schedulers
// the registry holds and what the evo and rule allocators take.
func SimulateHelp() string {
	return "--scheduler is " + policies.List().Help() + ".\n" +
		"The evo allocator (SPEC §11) takes the --evo-* flags and --seed;\n" +
		"--ops-out writes its per-operation log (columns in docs/RESULTS.md). The rule allocator (SPEC §16)\n" +
		"sends each job to the feasible cluster with the smallest --routing value, for the arrivals or\n" +
		"(--scope all) every schedulable job; m (MCT's finish; in scope all, given the jobs assigned so far in the\n" +
		"operation) and scope all need backfill none, conservative or greedy.\n" +
		"Metrics are in hours (util is a fraction); per-job outputs are in seconds."
}

// RunSimulate builds the policy, reads and selects the instances, runs
// o.Prepare and simulates them, writes the files o names and prints the
// metric table (or JSON lines) to w; on an error nothing is printed.
func RunSimulate(ctx context.Context, o SimulateCommand, w io.Writer) error {
	b := o.Builder
	if o.RuleGiven {
		var err error
		if b.Rule, err = rule.ParseParams(o.Routing, o.Scope, b.Seconds); err != nil {
			return err
		}
	}
	p, err := simulatePolicy(b, o.Scheduler, o.Priority)
	if err != nil {
		return err
	}
	ds, err := datasets.ReadContext(ctx, o.Dataset)
	if err != nil {
		return err
	}
	if ds.Instances, err = SelectInstances(ds.Instances, o.Instances); err != nil {
		return err
	}
	if o.Prepare != nil {
		if err := o.Prepare(ds.Instances); err != nil {
			return err
		}
	}
	switch o.Clock {
	case "engine":
	case "hydra-float":
		return FloatClock(ctx, o, ds.Instances, w)
	default:
		return fmt.Errorf("--clock %q: want engine or hydra-float", o.Clock)
	}
	out, err := SimulateTables(ctx, ds.Instances, p, o.Sim, o.Workers, o.JobsOut != "", o.OpsOut != "", o.Progress)
	if err != nil {
		return err
	}
	rows := out.Results
	if o.JobsOut != "" {
		if err := reports.WriteJobs(o.JobsOut, out.Jobs); err != nil {
			return err
		}
	}
	if o.OpsOut != "" {
		if err := reports.WriteOps(o.OpsOut, out.Ops); err != nil {
			return err
		}
	}
	if o.SummaryOut != "" {
		if err := reports.WriteResults(o.SummaryOut, rows); err != nil {
			return err
		}
	}
	if o.JSON {
		return reports.WriteResultsJSON(w, rows)
	}
	return reports.WriteResultsTable(w, rows, datasets.HasDeadlines(ds.Instances))
}

// simulatePolicy builds simulate's one scheduler: a spec with an optional
// --priority formula, or a LABEL=SOURCE entry read as eval reads it
// (gp=RUN, a best.json, a formula, a spec under a label), which then
// takes no --priority.
func simulatePolicy(b PolicyBuilder, scheduler, priority string) (Policy, error) {
	// A label is a plain word: "hydra:budget=10" is a spec with a parameter.
	if !policies.LabelledWord(scheduler) {
		return b.Policy(scheduler, priority)
	}
	if priority != "" {
		return Policy{}, fmt.Errorf("--scheduler %s carries its own formula: drop --priority", scheduler)
	}
	if strings.Contains(scheduler, ",") {
		return Policy{}, fmt.Errorf("--scheduler %s: simulate runs one scheduler (eval compares several)", scheduler)
	}
	ps, err := b.Policies(scheduler)
	if err != nil {
		return Policy{}, err
	}
	if len(ps) != 1 {
		return Policy{}, fmt.Errorf("--scheduler %s: names %d schedulers (a front run? pick one member with evogp export --omega, or use eval)", scheduler, len(ps))
	}
	return ps[0], nil
}

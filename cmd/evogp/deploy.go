package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	deployslurm "github.com/evogp/evogp/deploy/slurm"
)

// deployCommand is `evogp deploy`: run a learned scheduler on a live
// cluster's queue.
func deployCommand() *cli.Command {
	return &cli.Command{
		Name:        "deploy",
		Usage:       "run a learned scheduler on a live cluster queue (Slurm)",
		UsageText:   "evogp deploy slurm RUN --partitions a,b [--dry-run] [--once | --interval 1m] [options]",
		Subcommands: []*cli.Command{deploySlurmCommand()},
	}
}

func deploySlurmCommand() *cli.Command {
	return &cli.Command{
		Name:      "slurm",
		Usage:     "order and route the pending jobs of Slurm partitions with a learned scheduler (SPEC §20)",
		ArgsUsage: "RUN",
		UsageText: "evogp deploy slurm RUN --partitions a,b [--dry-run] [--once | --interval 1m] [options]\n\n" +
			"Examples:\n" +
			"   evogp deploy slurm runs/quick --partitions gpu-a,gpu-b --dry-run          # shadow mode: print, change nothing\n" +
			"   evogp deploy slurm runs/quick --partitions gpu-a,gpu-b --once --save-snapshot snap\n" +
			"   evogp deploy slurm runs/quick/best.json --snapshot snap --decisions-out decisions.csv\n" +
			"   evogp deploy slurm runs/front --omega 0.3 --partitions gpu --interval 2m\n" +
			"   evogp deploy slurm --restore                                               # put back what deploy changed",
		Description: deployslurm.Help(),
		Flags: []cli.Flag{
			&cli.StringSliceFlag{Name: "partitions", Usage: "the partitions (clusters) whose pending jobs deploy may change (repeat or comma-separate; required unless --snapshot or --restore)"},
			&cli.Float64Flag{Name: "omega", Usage: "of a front run (gp.selection: nsga2), the member minimising ω·objective1 + (1−ω)·objective2 on validation"},
			&cli.BoolFlag{Name: "dry-run", Usage: "shadow mode: print what would change and Slurm's own order; change nothing"},
			&cli.BoolFlag{Name: "once", Usage: "run once (the default without --interval)"},
			&cli.DurationFlag{Name: "interval", Usage: "run every D (e.g. 1m) until interrupted: a controller"},
			&cli.StringFlag{Name: "save-snapshot", Usage: "keep the squeue and sinfo outputs read in DIR (DIR/0001, … with --interval)"},
			&cli.StringFlag{Name: "snapshot", Usage: "replay a saved snapshot DIR instead of asking Slurm; nothing is changed"},
			&cli.StringFlag{Name: "decisions-out", Usage: "write the decisions to FILE as CSV: job,partition,rank"},
			&cli.StringFlag{Name: "record", Value: deployslurm.DefaultRecordFile, Usage: "restore record: each changed job's earlier partition and priority, written before any change"},
			&cli.BoolFlag{Name: "restore", Usage: "put back the partition and priority of every job in --record that is still pending"},
			&cli.StringFlag{Name: "gpus-from", Value: "gres", Usage: "g and each node's GPUs: gres (the gpu GRES) | cpus (CPUs stand in for GPUs, for clusters without GPUs)"},
			&cli.StringFlag{Name: "workers-from", Value: "nodes", Usage: "r: nodes | tasks requested"},
			&cli.StringFlag{Name: "duration-from", Value: "limit", Usage: "d: limit (the time limit) | comment (an estimate in the job's comment: seconds or [D-]HH:MM:SS; else the limit)"},
			&cli.StringFlag{Name: "qos-priority", Usage: "u by QOS, e.g. normal=1,high=4 (any other QOS: 1)"},
			&cli.Int64Flag{Name: "priority-base", Value: deployslurm.DefaultPriorityBase, Usage: "priority of a partition's last-ranked job; the first of n gets base + n − 1"},
		},
		Action: runDeploySlurm,
	}
}

func runDeploySlurm(c *cli.Context) error {
	args, err := positionalArgs(c)
	if err != nil {
		return err
	}
	o := deployslurm.Options{Omega: c.Float64("omega"), OmegaGiven: c.IsSet("omega"),
		DryRun: c.Bool("dry-run"), Once: c.Bool("once"), Interval: c.Duration("interval"),
		SaveSnapshot: c.String("save-snapshot"), Snapshot: c.String("snapshot"), DecisionsOut: c.String("decisions-out"),
		Record: c.String("record"), Restore: c.Bool("restore"), PriorityBase: c.Int64("priority-base"),
		Mapping: deployslurm.Mapping{GPUs: c.String("gpus-from"), Workers: c.String("workers-from"), Duration: c.String("duration-from")}}
	for _, p := range c.StringSlice("partitions") {
		for _, q := range strings.Split(p, ",") {
			if q = strings.TrimSpace(q); q != "" {
				o.Partitions = append(o.Partitions, q)
			}
		}
	}
	if o.Mapping.QOSPriority, err = deployslurm.ParseQOSPriority(c.String("qos-priority")); err != nil {
		return err
	}
	switch {
	case o.Restore && len(args) > 0:
		return fmt.Errorf("deploy slurm --restore takes no RUN (got %s)", strings.Join(args, " "))
	case !o.Restore && len(args) != 1:
		return fmt.Errorf("deploy slurm: give one RUN (a learn run directory or best.json), got %d arguments", len(args))
	case !o.Restore:
		o.Run = args[0]
	}
	return deployslurm.Run(c.Context, o, c.App.Writer)
}

package main

import (
	"fmt"
	"os"
	"runtime"

	"github.com/urfave/cli/v2"

	"github.com/evogp/evogp/experiment"
	"github.com/evogp/evogp/internal/progress"
	"github.com/evogp/evogp/launch"
)

// launcherFlags are the flags of evogp learn -m and evogp eval that choose
// where the tasks run.
func launcherFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "launcher", Value: experiment.LauncherLocal, Usage: "where the tasks run: local (here, a worker pool) | slurm (one job array, submitted with sbatch) | k8s (an Indexed Job manifest, written only)"},
		&cli.BoolFlag{Name: "dry-run", Usage: "slurm: write the task directory and the sbatch script but do not submit; k8s is always a dry run"},
		&cli.StringFlag{Name: "partition", Usage: "slurm: partition (sbatch --partition)"},
		&cli.StringFlag{Name: "time", Usage: "slurm: time limit per task (sbatch --time, e.g. 2:00:00)"},
		&cli.IntFlag{Name: "cpus-per-task", Usage: "slurm: cores per task (sbatch --cpus-per-task; the task's GOMAXPROCS)"},
		&cli.StringFlag{Name: "mem", Usage: "slurm: memory per task (sbatch --mem, e.g. 4G); k8s: the pod's memory (e.g. 4Gi)"},
		&cli.StringFlag{Name: "account", Usage: "slurm: account (sbatch --account)"},
		&cli.IntFlag{Name: "throttle", Usage: fmt.Sprintf("slurm: K of --array=0-(N-1)%%K, tasks running at once; k8s: parallelism (default %d)", launch.DefaultThrottle)},
		&cli.StringSliceFlag{Name: "sbatch-arg", Usage: "slurm: a further sbatch argument (repeatable), e.g. --sbatch-arg=--qos=long"},
		&cli.StringFlag{Name: "k8s-image", Usage: "k8s: container image holding evogp"},
		&cli.StringFlag{Name: "k8s-volume-claim", Usage: "k8s: PersistentVolumeClaim holding the task directory, mounted at its path"},
		&cli.StringFlag{Name: "k8s-namespace", Usage: "k8s: namespace of the Job"},
	}
}

// launchOptions are the launcher flags; Given lists those after --launcher
// that the user gave.
func launchOptions(c *cli.Context) experiment.LaunchOptions {
	o := experiment.LaunchOptions{Launcher: c.String("launcher"), DryRun: c.Bool("dry-run"),
		Partition: c.String("partition"), Time: c.String("time"), CPUsPerTask: c.Int("cpus-per-task"), Mem: c.String("mem"),
		Account: c.String("account"), Throttle: c.Int("throttle"), SbatchArgs: c.StringSlice("sbatch-arg"),
		K8sImage: c.String("k8s-image"), K8sVolumeClaim: c.String("k8s-volume-claim"), K8sNamespace: c.String("k8s-namespace")}
	for _, f := range launcherFlags()[1:] {
		if c.IsSet(f.Names()[0]) {
			o.Given = append(o.Given, f.Names()[0])
		}
	}
	return o
}

func taskCommand() *cli.Command {
	return &cli.Command{
		Name:  "task",
		Usage: "run one task of a sweep or eval directory (what a Slurm array element or Kubernetes pod runs)",
		Subcommands: []*cli.Command{{
			Name:      "run",
			Usage:     "run task INDEX of DIR (idempotent: a finished task exits at once; an interrupted learn resumes)",
			ArgsUsage: "DIR",
			UsageText: "evogp task run DIR [--index I]\n\n" +
				"Without --index the index is $SLURM_ARRAY_TASK_ID, else $JOB_COMPLETION_INDEX.\n" +
				"$SLURM_CPUS_PER_TASK, when set, is the number of cores the task uses (GOMAXPROCS).",
			Flags: []cli.Flag{
				&cli.IntFlag{Name: "index", Usage: "task index, 0..N−1"},
				&cli.BoolFlag{Name: "quiet", Usage: "no progress output"},
			},
			Action: runTask,
		}},
	}
}

func runTask(c *cli.Context) error {
	args, err := positionalArgs(c)
	if err != nil {
		return err
	}
	return experiment.RunTaskCommand(c.Context, experiment.TaskRunCommand{Args: args, Index: c.Int("index"), IndexGiven: c.IsSet("index"),
		LookupEnv: os.LookupEnv, SetCores: func(n int) { runtime.GOMAXPROCS(n) },
		Progress: progress.Options{Out: c.App.ErrWriter, Quiet: c.Bool("quiet")}, Provenance: provenance(c)}, c.App.Writer)
}

func statusCommand() *cli.Command {
	return &cli.Command{
		Name:      "status",
		Usage:     "show the state of every task of a sweep or eval directory: pending, running, done, failed",
		ArgsUsage: "DIR",
		UsageText: "evogp status DIR\n\n" +
			"Reads the directory's task states and, for a Slurm submission, what sacct (or squeue) says;\n" +
			"prints the last lines of each failed task's log.",
		Action: runStatus,
	}
}

func runStatus(c *cli.Context) error {
	return experiment.StatusCommand(c.Context, c.Args().Slice(), c.App.Writer)
}

func collectCommand() *cli.Command {
	return &cli.Command{
		Name:      "collect",
		Usage:     "merge the task outputs of a sweep or eval directory into the files the local launcher writes",
		ArgsUsage: "DIR",
		UsageText: "evogp collect DIR [--resubmit-failed]\n\n" +
			"A sweep gets sweep.parquet and baselines.parquet; an eval gets results.parquet, jobs.parquet,\n" +
			"the summaries, figures and " + experiment.MarkerFile + ". Every task must be done. --resubmit-failed\n" +
			"instead submits the failed tasks (only those) to Slurm again, with the same options.",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "resubmit-failed", Usage: "submit the failed tasks again instead of collecting"},
		},
		Action: runCollect,
	}
}

func runCollect(c *cli.Context) error {
	args, err := positionalArgs(c)
	if err != nil {
		return err
	}
	return experiment.RunCollectCommand(c.Context, experiment.CollectCommand{Args: args, ResubmitFailed: c.Bool("resubmit-failed"), Provenance: provenance(c)}, c.App.Writer)
}

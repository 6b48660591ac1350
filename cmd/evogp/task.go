package main

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/evogp/evogp/experiment"
	"github.com/evogp/evogp/internal/progress"
)

// Launchers of sweeps and evals (SPEC §15).
const (
	launcherLocal = "local"
	launcherSlurm = "slurm"
	launcherK8s   = "k8s"
)

// launcherFlags are the flags of evogp learn -m and evogp eval that choose
// where the tasks run.
func launcherFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "launcher", Value: launcherLocal, Usage: "where the tasks run: local (here, a worker pool) | slurm (one job array, submitted with sbatch) | k8s (an Indexed Job manifest, written only)"},
		&cli.BoolFlag{Name: "dry-run", Usage: "slurm: write the task directory and the sbatch script but do not submit; k8s is always a dry run"},
		&cli.StringFlag{Name: "partition", Usage: "slurm: partition (sbatch --partition)"},
		&cli.StringFlag{Name: "time", Usage: "slurm: time limit per task (sbatch --time, e.g. 2:00:00)"},
		&cli.IntFlag{Name: "cpus-per-task", Usage: "slurm: cores per task (sbatch --cpus-per-task; the task's GOMAXPROCS)"},
		&cli.StringFlag{Name: "mem", Usage: "slurm: memory per task (sbatch --mem, e.g. 4G); k8s: the pod's memory (e.g. 4Gi)"},
		&cli.StringFlag{Name: "account", Usage: "slurm: account (sbatch --account)"},
		&cli.IntFlag{Name: "throttle", Usage: fmt.Sprintf("slurm: K of --array=0-(N-1)%%K, tasks running at once; k8s: parallelism (default %d)", experiment.DefaultThrottle)},
		&cli.StringSliceFlag{Name: "sbatch-arg", Usage: "slurm: a further sbatch argument (repeatable), e.g. --sbatch-arg=--qos=long"},
		&cli.StringFlag{Name: "k8s-image", Usage: "k8s: container image holding evogp"},
		&cli.StringFlag{Name: "k8s-volume-claim", Usage: "k8s: PersistentVolumeClaim holding the task directory, mounted at its path"},
		&cli.StringFlag{Name: "k8s-namespace", Usage: "k8s: namespace of the Job"},
	}
}

// checkLauncher validates --launcher and refuses launcher flags with the
// local launcher.
func checkLauncher(c *cli.Context) (string, error) {
	l := c.String("launcher")
	switch l {
	case launcherLocal:
		for _, f := range launcherFlags()[1:] {
			if c.IsSet(f.Names()[0]) {
				return "", fmt.Errorf("%s: --%s applies to --launcher slurm or k8s, not local", c.Command.Name, f.Names()[0])
			}
		}
	case launcherSlurm, launcherK8s:
	default:
		return "", fmt.Errorf("%s: --launcher %q: want local, slurm or k8s", c.Command.Name, l)
	}
	return l, nil
}

// launch submits the prepared task directory dir with the Slurm or k8s
// launcher and prints what to do next.
func launch(c *cli.Context, launcher, dir string) error {
	w := c.App.Writer
	if launcher == launcherK8s {
		path, err := experiment.WriteK8sJob(dir, experiment.K8sOptions{Image: c.String("k8s-image"), VolumeClaim: c.String("k8s-volume-claim"),
			Namespace: c.String("k8s-namespace"), Parallelism: c.Int("throttle"), CPU: cpuString(c.Int("cpus-per-task")), Mem: c.String("mem")})
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "wrote %s (an Indexed Job; not applied)\n", path)
		fmt.Fprintf(w, "submit:  kubectl apply -f %s\nwatch:   evogp status %s\ncollect: evogp collect %s\n", path, dir, dir)
		return nil
	}
	sub, err := experiment.SubmitSlurm(c.Context, dir, nil, experiment.SlurmOptions{
		Partition: c.String("partition"), Time: c.String("time"), CPUsPerTask: c.Int("cpus-per-task"), Mem: c.String("mem"),
		Account: c.String("account"), Throttle: c.Int("throttle"), Extra: c.StringSlice("sbatch-arg"), DryRun: c.Bool("dry-run")})
	if err != nil {
		return err
	}
	if c.Bool("dry-run") {
		fmt.Fprintf(w, "wrote %s/%s (array %s); not submitted (--dry-run)\nsubmit:  %s\n", dir, experiment.SlurmScriptFile, sub.Array, strings.Join(sub.Command, " "))
	} else {
		fmt.Fprintf(w, "submitted job %s (array %s)\nwatch:   squeue -j %s; evogp status %s\n", sub.JobID, sub.Array, sub.JobID, dir)
	}
	fmt.Fprintf(w, "collect: evogp collect %s   (failed tasks: evogp collect %s --resubmit-failed)\n", dir, dir)
	return nil
}

func cpuString(n int) string {
	if n <= 0 {
		return ""
	}
	return strconv.Itoa(n)
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

// taskIndex is --index, else the batch system's (experiment.TaskIndexFromEnv).
func taskIndex(c *cli.Context) (int, error) {
	if c.IsSet("index") {
		return c.Int("index"), nil
	}
	return experiment.TaskIndexFromEnv(os.LookupEnv)
}

func runTask(c *cli.Context) error {
	args, err := positionalArgs(c)
	if err != nil {
		return err
	}
	if len(args) != 1 {
		return errors.New("task run: give exactly one task directory (evogp task run DIR [--index I])")
	}
	dir := args[0]
	i, err := taskIndex(c)
	if err != nil {
		return err
	}
	if n, err := experiment.TaskCoresFromEnv(os.LookupEnv); err != nil {
		return err
	} else if n > 0 {
		runtime.GOMAXPROCS(n)
	}
	skipped, err := experiment.RunTask(c.Context, dir, i, experiment.TaskRunOptions{
		Workers:    runtime.GOMAXPROCS(0),
		Progress:   progress.Options{Out: c.App.ErrWriter, Quiet: c.Bool("quiet")},
		Provenance: provenance(c),
	})
	if err != nil {
		return err
	}
	if skipped {
		fmt.Fprintf(c.App.Writer, "task %d of %s: already done\n", i, dir)
	} else {
		fmt.Fprintf(c.App.Writer, "task %d of %s: done\n", i, dir)
	}
	return nil
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
	if c.NArg() != 1 {
		return errors.New("status: give exactly one task directory")
	}
	dir := c.Args().First()
	set, st, source, err := experiment.Status(c.Context, dir)
	if err != nil {
		return err
	}
	return experiment.WriteStatusText(c.App.Writer, dir, set, st, source)
}

func collectCommand() *cli.Command {
	return &cli.Command{
		Name:      "collect",
		Usage:     "merge the task outputs of a sweep or eval directory into the files the local launcher writes",
		ArgsUsage: "DIR",
		UsageText: "evogp collect DIR [--resubmit-failed]\n\n" +
			"A sweep gets sweep.parquet and baselines.parquet; an eval gets results.parquet, jobs.parquet,\n" +
			"the summaries, figures and " + markerFile + ". Every task must be done. --resubmit-failed\n" +
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
	if len(args) != 1 {
		return errors.New("collect: give exactly one task directory")
	}
	dir := args[0]
	w := c.App.Writer
	if c.Bool("resubmit-failed") {
		failed, sub, err := experiment.ResubmitFailed(c.Context, dir)
		if err != nil {
			return err
		}
		if len(failed) == 0 {
			fmt.Fprintf(w, "%s: no failed tasks\n", dir)
			return nil
		}
		fmt.Fprintf(w, "resubmitted tasks %s as job %s (array %s)\nwatch:   evogp status %s\n", experiment.IndexList(failed), sub.JobID, sub.Array, dir)
		return nil
	}
	kind, err := experiment.Collect(c.Context, dir, provenance(c))
	if err != nil {
		return err
	}
	files := "results.parquet, jobs.parquet, summary.md, summary.csv, figures, " + markerFile
	if kind == experiment.TaskLearnPoint {
		files = "sweep.parquet, sweep.csv, sweep.md, baselines.parquet"
	}
	fmt.Fprintf(w, "collected %s: %s (evogp report %s draws the figures)\n", dir, files, dir)
	return nil
}

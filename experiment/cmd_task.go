package experiment

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"

	"github.com/evogp/evogp/internal/progress"
	"github.com/evogp/evogp/launch"
)

// TaskRunCommand is what `evogp task run` was given.
type TaskRunCommand struct {
	Args       []string                    // the positional arguments: the task directory
	Index      int                         // the task index, when IndexGiven
	IndexGiven bool                        // else the index comes from the batch system's environment
	LookupEnv  func(string) (string, bool) // the environment (os.LookupEnv)
	SetCores   func(n int)                 // sets the process's cores (runtime.GOMAXPROCS) to $SLURM_CPUS_PER_TASK when it is set
	Progress   progress.Options
	Provenance Provenance
}

// RunTaskCommand runs one task of a sweep or eval directory, as a Slurm
// array element or a Kubernetes pod does (see RunTask), with the cores the
// batch system gave it, and writes to w whether it ran or was done already.
func RunTaskCommand(ctx context.Context, o TaskRunCommand, w io.Writer) error {
	if len(o.Args) != 1 {
		return errors.New("task run: give exactly one task directory (evogp task run DIR [--index I])")
	}
	dir := o.Args[0]
	i := o.Index
	if !o.IndexGiven {
		var err error
		if i, err = launch.TaskIndexFromEnv(o.LookupEnv); err != nil {
			return err
		}
	}
	if n, err := launch.TaskCoresFromEnv(o.LookupEnv); err != nil {
		return err
	} else if n > 0 {
		o.SetCores(n)
	}
	skipped, err := RunTask(ctx, dir, i, TaskRunOptions{Workers: runtime.GOMAXPROCS(0), Progress: o.Progress, Provenance: o.Provenance})
	if err != nil {
		return err
	}
	if skipped {
		fmt.Fprintf(w, "task %d of %s: already done\n", i, dir)
	} else {
		fmt.Fprintf(w, "task %d of %s: done\n", i, dir)
	}
	return nil
}

// StatusCommand writes to w the state of every task of the task directory
// in args, the one positional argument of `evogp status` (see Status and
// WriteStatusText).
func StatusCommand(ctx context.Context, args []string, w io.Writer) error {
	if len(args) != 1 {
		return errors.New("status: give exactly one task directory")
	}
	dir := args[0]
	set, st, source, err := launch.Status(ctx, dir)
	if err != nil {
		return err
	}
	return launch.WriteStatusText(w, dir, set, st, source)
}

// CollectCommand is what `evogp collect` was given.
type CollectCommand struct {
	Args           []string // the positional arguments: the task directory
	ResubmitFailed bool     // submit the failed tasks to Slurm again instead of collecting
	Provenance     Provenance
}

// RunCollectCommand merges the task outputs of a sweep or eval directory
// (Collect) or resubmits its failed tasks (ResubmitFailed), and writes to
// w what it did.
func RunCollectCommand(ctx context.Context, o CollectCommand, w io.Writer) error {
	if len(o.Args) != 1 {
		return errors.New("collect: give exactly one task directory")
	}
	dir := o.Args[0]
	if o.ResubmitFailed {
		failed, sub, err := launch.ResubmitFailed(ctx, dir)
		if err != nil {
			return err
		}
		if len(failed) == 0 {
			fmt.Fprintf(w, "%s: no failed tasks\n", dir)
			return nil
		}
		fmt.Fprintf(w, "resubmitted tasks %s as job %s (array %s)\nwatch:   evogp status %s\n", launch.IndexList(failed), sub.JobID, sub.Array, dir)
		return nil
	}
	kind, err := Collect(ctx, dir, o.Provenance)
	if err != nil {
		return err
	}
	files := "results.parquet, jobs.parquet, summary.md, summary.csv, figures, " + MarkerFile
	if kind == launch.TaskLearnPoint {
		files = "sweep.parquet, sweep.csv, sweep.md, baselines.parquet"
	}
	fmt.Fprintf(w, "collected %s: %s (evogp report %s draws the figures)\n", dir, files, dir)
	return nil
}

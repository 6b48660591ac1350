package experiment

import (
	"context"
	"fmt"
	"time"

	"github.com/evogp/evogp/internal/progress"
	"github.com/evogp/evogp/launch"
)

// The task directories of SPEC §15 and their launchers are package
// launch; this file gives them experiment's two task kinds: a sweep's
// learn-point (tasks_sweep.go) and an eval's eval-instance (tasks_eval.go).

// ProgramVersion is the version a task spec records and checks: the
// module version, VCS revision and Go version of the running binary, from
// its build information only (not git: the version must not depend on the
// directory a task runs in).
func ProgramVersion() string { return buildProvenance(nil, time.Time{}).VersionString() }

// TaskRunOptions say how RunTask runs a task.
type TaskRunOptions struct {
	Workers    int // goroutines inside the task (gp.workers when the config leaves it 0, simulations in parallel); 0 = GOMAXPROCS
	Progress   progress.Options
	Provenance Provenance
}

// RunTask runs task i of the task directory dir with this program's
// version and o (launch.RunTask).
func RunTask(ctx context.Context, dir string, i int, o TaskRunOptions) (skipped bool, err error) {
	return launch.RunTask(ctx, dir, i, ProgramVersion(), func(dir string, spec launch.TaskSpec) (func(context.Context) error, error) {
		run, err := prepareTask(dir, spec)
		if err != nil {
			return nil, err
		}
		return func(ctx context.Context) error { return run(ctx, o) }, nil
	})
}

// prepareTask checks a spec's configuration hash against its inputs as
// this program reads them and returns the function that runs it.
func prepareTask(dir string, spec launch.TaskSpec) (func(context.Context, TaskRunOptions) error, error) {
	switch spec.Kind {
	case launch.TaskLearnPoint:
		return prepareLearnPoint(dir, spec)
	case launch.TaskEvalInstance:
		return prepareEvalInstance(dir, spec)
	}
	return nil, fmt.Errorf("unknown task kind %q", spec.Kind)
}

// RunTasksLocal runs every task of dir on a pool of jobs goroutines (the
// local launcher), each task with its share of the cores. tick is called
// after each finished task (nil for none).
func RunTasksLocal(ctx context.Context, dir string, jobs int, o TaskRunOptions, tick func(task int)) error {
	return launch.RunLocal(ctx, dir, jobs, func(ctx context.Context, i int) error {
		_, err := RunTask(ctx, dir, i, o)
		return err
	}, tick)
}

// Collect merges the outputs of dir's tasks into the files the local
// launcher writes: sweep.parquet and baselines.parquet for a sweep;
// results.parquet, jobs.parquet, the summaries, figures and MarkerFile for
// an eval. Every task must be done. kind is the directory's task kind.
func Collect(ctx context.Context, dir string, prov Provenance) (kind string, err error) {
	set, err := launch.CheckAllDone(ctx, dir)
	if err != nil {
		return set.Kind, err
	}
	switch set.Kind {
	case launch.TaskLearnPoint:
		_, err = CollectSweep(dir)
	case launch.TaskEvalInstance:
		_, err = CollectEval(ctx, dir, prov)
	}
	return set.Kind, err
}

package launch

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
)

// WriteStatusText prints what Status returned for the task directory dir,
// as evogp status shows it: one line per task, the counts by state, each
// failed task's error and the last lines of its log, and how to resubmit
// the failed ones.
func WriteStatusText(w io.Writer, dir string, set TaskSet, st []TaskStatus, source string) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "task\tstate\tjob\tdetail")
	counts := map[string]int{}
	for _, s := range st {
		counts[s.State]++
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\n", s.Index, s.State, s.Job, firstLine(s.Detail))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	from := "the directory"
	if source != "" {
		from += " and " + source
	}
	fmt.Fprintf(w, "%s: %d %s tasks: %d done, %d running, %d pending, %d failed (from %s)\n", dir, set.Count, set.Kind,
		counts[TaskDone], counts[TaskRunning], counts[TaskPending], counts[TaskFailed], from)
	for _, s := range st {
		if s.State != TaskFailed {
			continue
		}
		fmt.Fprintf(w, "\ntask %d failed: %s\n", s.Index, s.Detail)
		if len(s.Log) > 0 {
			fmt.Fprintf(w, "last lines of %s:\n", TaskLogPath(dir, s.Index))
			for _, l := range s.Log {
				fmt.Fprintf(w, "  %s\n", l)
			}
		}
	}
	if counts[TaskFailed] > 0 {
		_, err := fmt.Fprintf(w, "\nresubmit the failed tasks: evogp collect %s --resubmit-failed\n", dir)
		return err
	}
	return nil
}

// firstLine is the first line of s, cut at 100 bytes.
func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	if len(l) > 100 {
		l = l[:100] + "…"
	}
	return l
}

// TaskIndexFromEnv is the task index a batch system gives a task:
// $SLURM_ARRAY_TASK_ID, else $JOB_COMPLETION_INDEX (Kubernetes), read with
// lookup (os.LookupEnv).
func TaskIndexFromEnv(lookup func(string) (string, bool)) (int, error) {
	for _, env := range []string{"SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX"} {
		if v, ok := lookup(env); ok {
			i, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil {
				return 0, fmt.Errorf("task run: $%s = %q: not a task index", env, v)
			}
			return i, nil
		}
	}
	return 0, errors.New("task run: no task index: give --index I (or run it as a Slurm array task or an Indexed Job pod)")
}

// TaskCoresFromEnv is the number of cores Slurm gives a task
// ($SLURM_CPUS_PER_TASK, read with lookup), or 0 when it says none.
func TaskCoresFromEnv(lookup func(string) (string, bool)) (int, error) {
	v, ok := lookup("SLURM_CPUS_PER_TASK")
	if !ok || v == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		return 0, fmt.Errorf("task run: $SLURM_CPUS_PER_TASK = %q: not a core count", v)
	}
	return n, nil
}

package launch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/evogp/evogp/internal/atomicio"
	"github.com/evogp/evogp/internal/cliargs"
	"github.com/evogp/evogp/internal/slurmcli"
)

// slurmRunner runs the Slurm commands of the launcher through the one
// package evogp calls Slurm with (deploy/slurm uses it too).
func slurmRunner() slurmcli.Runner { return slurmcli.Exec{} }

// The Slurm launcher submits a task directory as one job array: element i
// runs `evogp task run DIR` with SLURM_ARRAY_TASK_ID = i, at most K at a
// time (--array=0-(N-1)%K). Nothing else is scheduled by evogp.

// Files of the Slurm launcher inside a task directory.
const (
	SlurmScriptFile = "slurm/array.sbatch"
	SlurmJobsFile   = "slurm/jobs.json"
)

// DefaultThrottle is K of --array=…%K when none is given.
const DefaultThrottle = 32

// SlurmOptions are passed through to sbatch.
type SlurmOptions struct {
	Partition   string   `json:"partition,omitempty"`
	Time        string   `json:"time,omitempty"`          // time limit, as sbatch takes it (e.g. 2:00:00)
	CPUsPerTask int      `json:"cpus_per_task,omitempty"` // 0 = sbatch's default (1)
	Mem         string   `json:"mem,omitempty"`           // memory per task (e.g. 4G)
	Account     string   `json:"account,omitempty"`
	Throttle    int      `json:"throttle,omitempty"` // K: array tasks running at once; 0 = DefaultThrottle
	Extra       []string `json:"extra,omitempty"`    // further sbatch arguments, given on its command line
	Binary      string   `json:"binary,omitempty"`   // the evogp executable the tasks run; "" = this program
	DryRun      bool     `json:"-"`                  // write the directory and script, do not submit
}

// SlurmOptionsFile records the options of the last submission, which a
// resubmission reuses.
const SlurmOptionsFile = "slurm/options.json"

// ReadSlurmOptions reads the options dir was last submitted with.
func ReadSlurmOptions(dir string) (SlurmOptions, error) {
	var o SlurmOptions
	b, err := os.ReadFile(filepath.Join(dir, SlurmOptionsFile))
	if errors.Is(err, fs.ErrNotExist) {
		return o, fmt.Errorf("%s was not submitted to Slurm (no %s); run the same evogp command again with --launcher local or --launcher slurm", dir, SlurmOptionsFile)
	}
	if err != nil {
		return o, fmt.Errorf("slurm: %w", err)
	}
	if err := json.Unmarshal(b, &o); err != nil {
		return o, fmt.Errorf("%s: %w", filepath.Join(dir, SlurmOptionsFile), err)
	}
	return o, nil
}

// SlurmSubmission is one sbatch call recorded in SlurmJobsFile.
type SlurmSubmission struct {
	JobID   string    `json:"job_id"` // "" for a dry run
	Array   string    `json:"array"`  // the array indices, with %K
	Command []string  `json:"command"`
	Time    time.Time `json:"time"`
}

// ErrNoSbatch is returned when sbatch is not on PATH.
var ErrNoSbatch = errors.New("sbatch not found on PATH: this machine cannot submit to Slurm; use --launcher local to run the tasks here, or --dry-run to only write the job script")

// arraySpec is the --array value for indices with throttle k:
// "0-5%2", "1,4%2".
func arraySpec(indices []int, k int) string {
	return fmt.Sprintf("%s%%%d", IndexList(indices), k)
}

// SlurmScript is the sbatch script of a task directory dir (absolute) of
// n tasks run by the executable bin.
func SlurmScript(dir, bin string, n int, o SlurmOptions) string {
	var b strings.Builder
	fmt.Fprintf(&b, "#!/bin/bash\n")
	fmt.Fprintf(&b, "# evogp: the tasks 0..%d of %s, one per array element (SPEC §15).\n", n-1, dir)
	fmt.Fprintf(&b, "# Each element runs task $SLURM_ARRAY_TASK_ID; a finished task exits at once and an\n")
	fmt.Fprintf(&b, "# interrupted one resumes from its checkpoint, so requeueing loses nothing.\n")
	fmt.Fprintf(&b, "#SBATCH --job-name=evogp-%s\n", filepath.Base(dir))
	fmt.Fprintf(&b, "#SBATCH --array=%s\n", scriptArray(n, o))
	fmt.Fprintf(&b, "#SBATCH --output=%s\n", filepath.Join(dir, "logs", "task-%a.log"))
	fmt.Fprintf(&b, "#SBATCH --open-mode=append\n")
	fmt.Fprintf(&b, "#SBATCH --requeue\n")
	if o.CPUsPerTask > 0 {
		fmt.Fprintf(&b, "#SBATCH --cpus-per-task=%d\n", o.CPUsPerTask)
	}
	for _, f := range []struct{ name, val string }{{"partition", o.Partition}, {"time", o.Time}, {"mem", o.Mem}, {"account", o.Account}} {
		if f.val != "" {
			fmt.Fprintf(&b, "#SBATCH --%s=%s\n", f.name, f.val)
		}
	}
	fmt.Fprintf(&b, "exec %s task run %s\n", cliargs.ShellQuote(bin), cliargs.ShellQuote(dir))
	return b.String()
}

// checkSlurmOptions refuses values sbatch would misread in a script line.
func checkSlurmOptions(o SlurmOptions) error {
	if o.CPUsPerTask < 0 || o.Throttle < 0 {
		return fmt.Errorf("slurm: --cpus-per-task %d, --throttle %d: must be ≥ 0", o.CPUsPerTask, o.Throttle)
	}
	for _, f := range []struct{ name, val string }{{"partition", o.Partition}, {"time", o.Time}, {"mem", o.Mem}, {"account", o.Account}} {
		if strings.ContainsAny(f.val, " \t\n'\"") {
			return fmt.Errorf("slurm: --%s %q: no spaces or quotes", f.name, f.val)
		}
	}
	return nil
}

// SubmitSlurm writes dir's sbatch script and submits the tasks indices
// (nil = all) as one job array, unless o.DryRun. It records the
// submission in SlurmJobsFile and returns it.
func SubmitSlurm(ctx context.Context, dir string, indices []int, o SlurmOptions) (SlurmSubmission, error) {
	if err := checkSlurmOptions(o); err != nil {
		return SlurmSubmission{}, err
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return SlurmSubmission{}, err
	}
	set, err := ReadTaskSet(abs)
	if err != nil {
		return SlurmSubmission{}, err
	}
	bin := o.Binary
	if bin == "" {
		if bin, err = os.Executable(); err != nil {
			return SlurmSubmission{}, fmt.Errorf("slurm: the evogp executable: %w", err)
		}
	}
	if !o.DryRun && !slurmcli.Installed("sbatch") {
		return SlurmSubmission{}, ErrNoSbatch
	}
	script := filepath.Join(abs, SlurmScriptFile)
	// Slurm does not create the directory of --output.
	for _, d := range []string{filepath.Dir(script), filepath.Join(abs, "logs")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return SlurmSubmission{}, fmt.Errorf("slurm: %w", err)
		}
	}
	if err := writeExecutable(script, SlurmScript(abs, bin, set.Count, o)); err != nil {
		return SlurmSubmission{}, err
	}
	o.Binary = bin
	if err := writeJSON(filepath.Join(abs, SlurmOptionsFile), o); err != nil {
		return SlurmSubmission{}, err
	}
	args := []string{"--parsable"}
	args = append(args, o.Extra...)
	if indices != nil {
		k := o.Throttle
		if k <= 0 {
			k = DefaultThrottle
		}
		for _, i := range indices {
			if i < 0 || i >= set.Count {
				return SlurmSubmission{}, fmt.Errorf("task index %d out of range: %s has %d tasks (0..%d)", i, dir, set.Count, set.Count-1)
			}
		}
		args = append(args, "--array="+arraySpec(indices, k))
	}
	args = append(args, script)
	sub := SlurmSubmission{Command: append([]string{"sbatch"}, args...), Time: time.Now().UTC()}
	sub.Array = scriptArray(set.Count, o)
	if indices != nil {
		sub.Array = strings.TrimPrefix(args[len(args)-2], "--array=")
	}
	if o.DryRun {
		return sub, nil
	}
	stdout, err := slurmRunner().Run(ctx, "sbatch", args...)
	if err != nil {
		return sub, err
	}
	id, _, _ := strings.Cut(strings.TrimSpace(string(stdout)), ";")
	if _, err := strconv.ParseUint(id, 10, 64); err != nil {
		return sub, fmt.Errorf("sbatch printed %q, not a job id", strings.TrimSpace(string(stdout)))
	}
	sub.JobID = id
	subs, err := ReadSlurmSubmissions(abs)
	if err != nil {
		return sub, err
	}
	return sub, writeJSON(filepath.Join(abs, SlurmJobsFile), append(subs, sub))
}

// scriptArray is the --array of the whole directory: 0-(n−1)%K.
func scriptArray(n int, o SlurmOptions) string {
	k := o.Throttle
	if k <= 0 {
		k = DefaultThrottle
	}
	return fmt.Sprintf("0-%d%%%d", n-1, k)
}

func writeExecutable(path, content string) error {
	if err := atomicio.WriteBytes(path, []byte(content)); err != nil {
		return err
	}
	return os.Chmod(path, 0o755)
}

// ReadSlurmSubmissions reads dir's SlurmJobsFile (none: nil).
func ReadSlurmSubmissions(dir string) ([]SlurmSubmission, error) {
	b, err := os.ReadFile(filepath.Join(dir, SlurmJobsFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("slurm: %w", err)
	}
	var subs []SlurmSubmission
	if err := json.Unmarshal(b, &subs); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, SlurmJobsFile), err)
	}
	return subs, nil
}

// slurmLine is "JOBID_INDEX|STATE" or "JOBID_[a-b,c%k]|STATE".
var slurmLine = regexp.MustCompile(`^(\d+)_(\d+|\[[0-9,\-]+(?:%\d+)?\])\|([A-Z_]+)`)

// parseSlurmStates reads sacct -P / squeue output lines of array
// elements of a directory of n tasks. order ranks job ids (later
// submissions win); the result maps a task index (0..n−1; others are
// ignored) to its state.
func parseSlurmStates(out string, order map[string]int, n int) map[int]string {
	states := map[int]string{}
	rank := map[int]int{}
	for _, line := range strings.Split(out, "\n") {
		m := slurmLine.FindStringSubmatch(strings.TrimSpace(line))
		if m == nil {
			continue
		}
		r, ok := order[m[1]]
		if !ok {
			continue
		}
		var idx []int
		if strings.HasPrefix(m[2], "[") {
			body, _, _ := strings.Cut(strings.Trim(m[2], "[]"), "%")
			idx = parseIndexList(body, n)
		} else if i, err := strconv.Atoi(m[2]); err == nil && i < n {
			idx = []int{i}
		}
		for _, i := range idx {
			if prev, seen := rank[i]; !seen || r >= prev {
				rank[i], states[i] = r, m[3]
			}
		}
	}
	return states
}

// parseIndexList reads "0-2,5" as [0 1 2 5], keeping the indices below
// n; malformed parts are skipped.
func parseIndexList(s string, n int) []int {
	var out []int
	for _, part := range strings.Split(s, ",") {
		a, b, isRange := strings.Cut(part, "-")
		lo, err1 := strconv.Atoi(a)
		hi := lo
		var err2 error
		if isRange {
			hi, err2 = strconv.Atoi(b)
		}
		if err1 != nil || err2 != nil || lo < 0 {
			continue
		}
		for i := lo; i <= min(hi, n-1); i++ {
			out = append(out, i)
		}
	}
	return out
}

// SlurmStates asks Slurm about dir's submitted jobs: sacct when
// accounting works, else squeue. source names the tool used ("" when
// none could answer, or nothing was submitted).
func SlurmStates(ctx context.Context, dir string) (states map[int]string, source string, err error) {
	subs, err := ReadSlurmSubmissions(dir)
	if err != nil || len(subs) == 0 {
		return nil, "", err
	}
	set, err := ReadTaskSet(dir)
	if err != nil {
		return nil, "", err
	}
	order := map[string]int{}
	var ids []string
	for i, s := range subs {
		if s.JobID != "" {
			order[s.JobID] = i
			ids = append(ids, s.JobID)
		}
	}
	if len(ids) == 0 {
		return nil, "", nil
	}
	list := strings.Join(ids, ",")
	if out, err := slurmRunner().Run(ctx, "sacct", "-n", "-P", "-X", "-j", list, "-o", "JobID,State"); err == nil {
		return parseSlurmStates(string(out), order, set.Count), "sacct", nil
	}
	if out, err := slurmRunner().Run(ctx, "squeue", "-h", "-r", "-t", "all", "-j", list, "-o", "%i|%T"); err == nil {
		return parseSlurmStates(string(out), order, set.Count), "squeue", nil
	}
	return nil, "", nil
}

// Status is the state of every task of dir: what the tasks wrote, refined
// by what Slurm says of the jobs submitted from dir (when it can be
// asked). A failed task carries the last lines of its log.
func Status(ctx context.Context, dir string) (TaskSet, []TaskStatus, string, error) {
	set, st, err := ReadStatus(dir)
	if err != nil {
		return set, nil, "", err
	}
	queue, source, err := SlurmStates(ctx, dir)
	if err != nil {
		return set, nil, "", err
	}
	for i := range st {
		s := &st[i]
		if s.State == TaskDone {
			continue
		}
		if source != "" {
			q, known := queue[i]
			switch {
			case !known && (s.State == TaskRunning || s.State == TaskPending) && submitted(dir, i):
				s.State, s.Detail = TaskFailed, "not in the Slurm queue any more, never finished"
			case !known:
			case q == "PENDING" || q == "REQUEUED" || q == "CONFIGURING" || q == "RESIZING" || q == "SUSPENDED":
				s.State, s.Detail = TaskPending, "slurm: "+q
			case q == "RUNNING" || q == "COMPLETING":
				s.State, s.Detail = TaskRunning, "slurm: "+q
			case q == "COMPLETED":
				if s.State != TaskFailed {
					s.State, s.Detail = TaskFailed, "slurm: COMPLETED, but the task did not finish"
				}
			default: // CANCELLED, FAILED, TIMEOUT, NODE_FAIL, OUT_OF_MEMORY, PREEMPTED, …
				if s.Detail == "" {
					s.Detail = "slurm: " + q
				} else {
					s.Detail = "slurm: " + q + ": " + s.Detail
				}
				s.State = TaskFailed
			}
		}
		if s.State == TaskFailed {
			s.Log = TailLines(TaskLogPath(dir, i), 10)
		}
	}
	return set, st, source, nil
}

// submitted says whether task i of dir was in a submitted array.
func submitted(dir string, i int) bool {
	set, err := ReadTaskSet(dir)
	if err != nil {
		return false
	}
	subs, _ := ReadSlurmSubmissions(dir)
	for _, s := range subs {
		if s.JobID == "" {
			continue
		}
		body, _, _ := strings.Cut(s.Array, "%")
		for _, j := range parseIndexList(body, set.Count) {
			if j == i {
				return true
			}
		}
	}
	return false
}

// ResubmitFailed submits the failed tasks of dir again, with the Slurm
// options of its last submission, and returns their indices; none failed:
// nil, no submission.
func ResubmitFailed(ctx context.Context, dir string) ([]int, SlurmSubmission, error) {
	o, err := ReadSlurmOptions(dir)
	if err != nil {
		return nil, SlurmSubmission{}, err
	}
	_, st, _, err := Status(ctx, dir)
	if err != nil {
		return nil, SlurmSubmission{}, err
	}
	failed := NotDone(st)[TaskFailed]
	if len(failed) == 0 {
		return nil, SlurmSubmission{}, nil
	}
	sub, err := SubmitSlurm(ctx, dir, failed, o)
	return failed, sub, err
}

package launch

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/evogp/evogp/internal/atomicio"
	"github.com/evogp/evogp/internal/parallel"
)

// A task directory (SPEC §15) is a sweep or eval directory that holds N
// self-describing, idempotent tasks indexed 0..N−1:
//
//	DIR/tasks/tasks.json   the set: kind, count, evogp version
//	DIR/tasks/NNNN.json    one TaskSpec per index
//	DIR/tasks/NNNN.state   the task's TaskState (absent = pending)
//	DIR/logs/task-N.log    the output of a task run by a batch system
//
// Every launcher runs the same tasks: local (a worker pool in this
// process), slurm (one job array whose element i runs `evogp task run DIR
// --index i`) and k8s (an Indexed Job). A task writes its outputs
// atomically under DIR; running a finished task again does nothing, and an
// interrupted learning task resumes from its checkpoint. Collecting merges
// the task outputs into exactly the files the local launcher writes.

// TasksDir is the directory of the task specs inside a task directory.
const TasksDir = "tasks"

// Task kinds.
const (
	// TaskLearnPoint learns one sweep point and evaluates it on its test
	// set (points/<dir>/best.json and test.parquet).
	TaskLearnPoint = "learn-point"
	// TaskEvalInstance simulates every scheduler of an eval on one
	// instance of its dataset.
	TaskEvalInstance = "eval-instance"
)

// TaskSet is tasks/tasks.json: what every task of the directory shares.
type TaskSet struct {
	Kind    string `json:"kind"`
	Count   int    `json:"count"`
	Version string `json:"evogp_version"`
}

// TaskSpec is one task, tasks/NNNN.json. ConfigHash is the SHA-256 of the
// exact configuration the task runs (see ConfigHash); a task is refused by
// a program whose version differs from Version or whose reading of the
// inputs gives another hash.
type TaskSpec struct {
	Index      int        `json:"index"`
	Kind       string     `json:"kind"`
	Version    string     `json:"evogp_version"`
	ConfigHash string     `json:"config_hash"`
	Inputs     TaskInputs `json:"inputs"`
	Output     string     `json:"output"` // relative to the task directory
}

// TaskInputs are what a task reads.
type TaskInputs struct {
	// Learn point: the config (embedded name or absolute file path), the
	// sweep's fixed overrides and the point's overrides.
	Config string   `json:"config,omitempty"`
	Fixed  []string `json:"fixed,omitempty"`
	Point  []string `json:"point,omitempty"`
	// Eval instance: the eval settings file (relative to the task
	// directory), the dataset and the instance's position and name in it.
	Settings     string `json:"settings,omitempty"`
	Dataset      string `json:"dataset,omitempty"`
	Instance     int    `json:"instance,omitempty"`
	InstanceName string `json:"instance_name,omitempty"`
}

// Task states.
const (
	TaskPending = "pending"
	TaskRunning = "running"
	TaskDone    = "done"
	TaskFailed  = "failed"
)

// TaskState is tasks/NNNN.state, written by the task itself.
type TaskState struct {
	State string    `json:"state"`
	Host  string    `json:"host,omitempty"`
	PID   int       `json:"pid,omitempty"`
	Job   string    `json:"job,omitempty"` // the batch system's job id, if any
	CPUs  int       `json:"cpus"`          // GOMAXPROCS of the task's process
	Time  time.Time `json:"time"`
	Error string    `json:"error,omitempty"`
}

func taskSetPath(dir string) string { return filepath.Join(dir, TasksDir, "tasks.json") }

// TaskSpecPath is task i's spec, tasks/NNNN.json.
func TaskSpecPath(dir string, i int) string {
	return filepath.Join(dir, TasksDir, fmt.Sprintf("%04d.json", i))
}

// TaskStatePath is task i's state, tasks/NNNN.state.
func TaskStatePath(dir string, i int) string {
	return filepath.Join(dir, TasksDir, fmt.Sprintf("%04d.state", i))
}

// TaskLogPath is where a batch system writes task i's output.
func TaskLogPath(dir string, i int) string {
	return filepath.Join(dir, "logs", fmt.Sprintf("task-%d.log", i))
}

// ConfigHash is "sha256:" and the hex SHA-256 of the parts, each followed
// by a NUL byte.
func ConfigHash(parts ...[]byte) string {
	h := sha256.New()
	for _, p := range parts {
		h.Write(p)
		h.Write([]byte{0})
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// WriteTasks writes the task set and its specs into dir. Specs of tasks
// that are not done are (re)written with this program's version; a done
// task keeps its spec (its outputs are what they are).
func WriteTasks(dir string, set TaskSet, specs []TaskSpec) error {
	if err := CheckWritable(dir); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(dir, TasksDir), 0o755); err != nil {
		return fmt.Errorf("tasks: %w", err)
	}
	for i, s := range specs {
		if st, err := ReadTaskState(dir, i); err == nil && st.State == TaskDone {
			continue
		}
		if err := writeJSON(TaskSpecPath(dir, i), s); err != nil {
			return err
		}
	}
	return writeJSON(taskSetPath(dir), set)
}

// CheckWritable says whether dir (a shared task directory) accepts new
// files, by creating and removing one.
func CheckWritable(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("shared directory %s is not writable: %w", dir, err)
	}
	f, err := os.CreateTemp(dir, ".evogp-write-test-*")
	if err != nil {
		return fmt.Errorf("shared directory %s is not writable: %w", dir, err)
	}
	name := f.Name()
	f.Close()
	if err := os.Remove(name); err != nil {
		return fmt.Errorf("shared directory %s is not writable: %w", dir, err)
	}
	return nil
}

// ReadTaskSet reads dir's tasks/tasks.json.
func ReadTaskSet(dir string) (TaskSet, error) {
	var s TaskSet
	b, err := os.ReadFile(taskSetPath(dir))
	if errors.Is(err, fs.ErrNotExist) {
		return s, fmt.Errorf("%s is not a task directory (no %s; it is made by evogp learn -m or evogp eval)", dir, filepath.Join(TasksDir, "tasks.json"))
	}
	if err != nil {
		return s, fmt.Errorf("tasks: %w", err)
	}
	if err := json.Unmarshal(b, &s); err != nil {
		return s, fmt.Errorf("%s: %w", taskSetPath(dir), err)
	}
	if s.Count < 1 || (s.Kind != TaskLearnPoint && s.Kind != TaskEvalInstance) {
		return s, fmt.Errorf("%s: kind %q, count %d: not a task set this program knows", taskSetPath(dir), s.Kind, s.Count)
	}
	return s, nil
}

// ReadTaskSpec reads task i of dir, checking that i is in range.
func ReadTaskSpec(dir string, i int) (TaskSpec, error) {
	var s TaskSpec
	set, err := ReadTaskSet(dir)
	if err != nil {
		return s, err
	}
	if i < 0 || i >= set.Count {
		return s, fmt.Errorf("task index %d out of range: %s has %d tasks (0..%d)", i, dir, set.Count, set.Count-1)
	}
	path := TaskSpecPath(dir, i)
	b, err := os.ReadFile(path)
	if err != nil {
		return s, fmt.Errorf("task %d: %w", i, err)
	}
	if err := json.Unmarshal(b, &s); err != nil {
		return s, fmt.Errorf("%s: %w", path, err)
	}
	if s.Index != i || s.Kind != set.Kind {
		return s, fmt.Errorf("%s: index %d kind %q, want index %d kind %q", path, s.Index, s.Kind, i, set.Kind)
	}
	return s, nil
}

// ReadTaskState reads task i's state; a task without one is pending.
func ReadTaskState(dir string, i int) (TaskState, error) {
	b, err := os.ReadFile(TaskStatePath(dir, i))
	if errors.Is(err, fs.ErrNotExist) {
		return TaskState{State: TaskPending}, nil
	}
	if err != nil {
		return TaskState{}, fmt.Errorf("task %d: %w", i, err)
	}
	var s TaskState
	if err := json.Unmarshal(b, &s); err != nil {
		return TaskState{}, fmt.Errorf("%s: %w", TaskStatePath(dir, i), err)
	}
	return s, nil
}

func writeTaskState(dir string, i int, state string, runErr error) error {
	s := TaskState{State: state, PID: os.Getpid(), CPUs: runtime.GOMAXPROCS(0), Time: time.Now().UTC(), Job: batchJobID()}
	s.Host, _ = os.Hostname()
	if runErr != nil {
		s.Error = runErr.Error()
	}
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	return atomicio.WriteBytes(TaskStatePath(dir, i), append(b, '\n'))
}

// batchJobID is the Slurm job (array job_task) or Kubernetes pod running
// this process, if any.
func batchJobID() string {
	if a, t := os.Getenv("SLURM_ARRAY_JOB_ID"), os.Getenv("SLURM_ARRAY_TASK_ID"); a != "" && t != "" {
		return "slurm:" + a + "_" + t
	}
	if j := os.Getenv("SLURM_JOB_ID"); j != "" {
		return "slurm:" + j
	}
	if h := os.Getenv("JOB_COMPLETION_INDEX"); h != "" {
		host, _ := os.Hostname()
		return "k8s:" + host
	}
	return ""
}

// RunTask runs task i of the task directory dir: it checks that dir is
// writable, that i is in range and that the spec was made by this program
// version with the configuration it reads now, then runs the task unless
// it is done already (skipped reports that). Its state file says running
// while it runs, then done or failed.
func RunTask(ctx context.Context, dir string, i int, version string, prepare Preparer) (skipped bool, err error) {
	if err := CheckWritable(dir); err != nil {
		return false, err
	}
	spec, err := ReadTaskSpec(dir, i)
	if err != nil {
		return false, err
	}
	if v := version; spec.Version != v {
		return false, fmt.Errorf("task %d of %s was made by evogp %s, this is evogp %s: refusing to mix versions in one directory "+
			"(run it with the evogp that made it, or submit the directory again with this one)", i, dir, spec.Version, v)
	}
	if st, err := ReadTaskState(dir, i); err != nil {
		return false, err
	} else if st.State == TaskDone && outputsExist(dir, spec) {
		return true, nil
	}
	run, err := prepare(dir, spec)
	if err != nil {
		return false, fmt.Errorf("task %d: %w", i, err)
	}
	if err := writeTaskState(dir, i, TaskRunning, nil); err != nil {
		return false, err
	}
	runErr := run(ctx)
	state := TaskDone
	if runErr != nil {
		runErr = fmt.Errorf("task %d: %w", i, runErr)
		state = TaskFailed
	}
	if err := writeTaskState(dir, i, state, runErr); err != nil {
		return false, errors.Join(runErr, err)
	}
	return false, runErr
}

// Preparer checks a spec's configuration hash against its inputs as
// this program reads them and returns the function that runs it.
type Preparer func(dir string, spec TaskSpec) (func(context.Context) error, error)

// outputsExist says whether the files a task writes are all there.
func outputsExist(dir string, spec TaskSpec) bool {
	var files []string
	out := filepath.Join(dir, spec.Output)
	switch spec.Kind {
	case TaskLearnPoint:
		files = []string{filepath.Join(out, "test.parquet")}
	case TaskEvalInstance:
		files = []string{out + ".results.parquet", out + ".jobs.parquet"}
	}
	for _, f := range files {
		if _, err := os.Stat(f); err != nil {
			return false
		}
	}
	return len(files) > 0
}

func CheckHash(spec TaskSpec, got string) error {
	if got != spec.ConfigHash {
		return fmt.Errorf("the configuration of task %d has changed since it was created (config hash %s, now %s): "+
			"refusing to run it; make a new directory", spec.Index, spec.ConfigHash, got)
	}
	return nil
}

// RunLocal runs every task of dir on a pool of jobs goroutines (the
// local launcher) with run, which runs one task (RunTask). tick is called
// after each finished task (nil for none).
func RunLocal(ctx context.Context, dir string, jobs int, run func(ctx context.Context, task int) error, tick func(task int)) error {
	set, err := ReadTaskSet(dir)
	if err != nil {
		return err
	}
	jobs = max(1, min(jobs, set.Count))
	return parallel.For(ctx, set.Count, jobs, func(i int) error {
		err := run(ctx, i)
		if err == nil && tick != nil {
			tick(i)
		}
		return err
	})
}

// TaskStatus is one task's state as status reports it.
type TaskStatus struct {
	Index  int
	State  string // pending, running, done or failed
	Detail string // the error, the batch system's state, …
	Job    string
	Log    []string // the last lines of a failed task's log
}

// ReadStatus reads every task's state from dir.
func ReadStatus(dir string) (TaskSet, []TaskStatus, error) {
	set, err := ReadTaskSet(dir)
	if err != nil {
		return set, nil, err
	}
	out := make([]TaskStatus, set.Count)
	for i := range out {
		st, err := ReadTaskState(dir, i)
		if err != nil {
			return set, nil, err
		}
		out[i] = TaskStatus{Index: i, State: st.State, Detail: st.Error, Job: st.Job}
		if st.State == TaskRunning && st.Job == "" && processGone(st.Host, st.PID) {
			out[i].State, out[i].Detail = TaskFailed, fmt.Sprintf("its process %d on %s is gone without finishing", st.PID, st.Host)
		}
		if st.State == TaskDone {
			if spec, err := ReadTaskSpec(dir, i); err != nil || !outputsExist(dir, spec) {
				out[i].State, out[i].Detail = TaskPending, "marked done but its outputs are missing"
			}
		}
	}
	return set, out, nil
}

// processGone says whether the process pid of this host no longer
// exists (false when host is another machine: it cannot be known here).
func processGone(host string, pid int) bool {
	if h, err := os.Hostname(); err != nil || h != host || pid <= 0 {
		return false
	}
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	return errors.Is(p.Signal(syscall.Signal(0)), os.ErrProcessDone)
}

// TailLines is the last n lines of the file at path (nil if unreadable).
func TailLines(path string, n int) []string {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return lines
}

// NotDone returns the indices of tasks that are not done, by state.
func NotDone(st []TaskStatus) map[string][]int {
	out := map[string][]int{}
	for _, s := range st {
		if s.State != TaskDone {
			out[s.State] = append(out[s.State], s.Index)
		}
	}
	return out
}

// CheckAllDone is an error naming the tasks of dir that are not done
// (their states as Status reports them).
func CheckAllDone(ctx context.Context, dir string) (TaskSet, error) {
	set, st, _, err := Status(ctx, dir)
	if err != nil {
		return set, err
	}
	nd := NotDone(st)
	if len(nd) == 0 {
		return set, nil
	}
	var parts []string
	keys := make([]string, 0, len(nd))
	for k := range nd {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	n := 0
	for _, k := range keys {
		n += len(nd[k])
		parts = append(parts, fmt.Sprintf("%s: %s", k, IndexList(nd[k])))
	}
	return set, fmt.Errorf("collect %s: %d of %d tasks are not done (%s); see evogp status %s, and evogp collect %s --resubmit-failed resubmits the failed ones",
		dir, n, set.Count, strings.Join(parts, "; "), dir, dir)
}

// IndexList writes indices as Slurm array ranges: [0 1 2 5 7 8] → "0-2,5,7-8".
func IndexList(idx []int) string {
	var b strings.Builder
	for k := 0; k < len(idx); {
		j := k
		for j+1 < len(idx) && idx[j+1] == idx[j]+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		if j == k {
			fmt.Fprintf(&b, "%d", idx[k])
		} else {
			fmt.Fprintf(&b, "%d-%d", idx[k], idx[j])
		}
		k = j + 1
	}
	return b.String()
}

// MkdirFor makes the parent directory of path.
func MkdirFor(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("mkdir: %w", err)
	}
	return nil
}

// writeJSON writes v as indented JSON, atomically.
func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return atomicio.WriteBytes(path, append(b, '\n'))
}

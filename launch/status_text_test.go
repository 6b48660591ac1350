package launch

import (
	"strings"
	"testing"
)

// The status text counts tasks by state, shows each failed task's error
// and log, and says how to resubmit; the batch system's index and core
// count are read from its variables, and bad values are refused.
func TestStatusTextAndTaskEnv(t *testing.T) {
	var b strings.Builder
	st := []TaskStatus{{Index: 0, State: TaskDone}, {Index: 1, State: TaskFailed, Detail: "boom\nmore", Log: []string{"l1", "l2"}}, {Index: 2, State: TaskPending}}
	if err := WriteStatusText(&b, "d", TaskSet{Kind: "eval", Count: 3}, st, "sacct"); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"d: 3 eval tasks: 1 done, 0 running, 1 pending, 1 failed (from the directory and sacct)",
		"1     failed        boom\n", "task 1 failed: boom\nmore", "  l1\n  l2\n", "evogp collect d --resubmit-failed"} {
		if !strings.Contains(out, want) {
			t.Errorf("status text lacks %q:\n%s", want, out)
		}
	}
	env := func(m map[string]string) func(string) (string, bool) {
		return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
	}
	if i, err := TaskIndexFromEnv(env(map[string]string{"SLURM_ARRAY_TASK_ID": " 4 ", "JOB_COMPLETION_INDEX": "7"})); i != 4 || err != nil {
		t.Errorf("slurm index: %d %v", i, err)
	}
	if i, err := TaskIndexFromEnv(env(map[string]string{"JOB_COMPLETION_INDEX": "7"})); i != 7 || err != nil {
		t.Errorf("k8s index: %d %v", i, err)
	}
	if _, err := TaskIndexFromEnv(env(map[string]string{"SLURM_ARRAY_TASK_ID": "x"})); err == nil {
		t.Error("bad index accepted")
	}
	if _, err := TaskIndexFromEnv(env(nil)); err == nil || !strings.Contains(err.Error(), "--index") {
		t.Errorf("no index: %v", err)
	}
	if n, err := TaskCoresFromEnv(env(map[string]string{"SLURM_CPUS_PER_TASK": "3"})); n != 3 || err != nil {
		t.Errorf("cores: %d %v", n, err)
	}
	if n, err := TaskCoresFromEnv(env(nil)); n != 0 || err != nil {
		t.Errorf("no cores: %d %v", n, err)
	}
	if _, err := TaskCoresFromEnv(env(map[string]string{"SLURM_CPUS_PER_TASK": "0"})); err == nil {
		t.Error("0 cores accepted")
	}
}

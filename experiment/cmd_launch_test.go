package experiment

import (
	"strings"
	"testing"
)

func TestCheckLauncher(t *testing.T) {
	cases := []struct {
		o    LaunchOptions
		want string // "" = no error, else a substring of the error
	}{
		{LaunchOptions{Launcher: LauncherLocal}, ""},
		{LaunchOptions{Launcher: LauncherSlurm, Given: []string{"partition", "time"}}, ""},
		{LaunchOptions{Launcher: LauncherK8s, Given: []string{"k8s-image"}}, ""},
		// The first option given, in declaration order, is the one named.
		{LaunchOptions{Launcher: LauncherLocal, Given: []string{"partition", "time"}}, "eval: --partition applies to --launcher slurm or k8s, not local"},
		{LaunchOptions{Launcher: "pbs"}, `eval: --launcher "pbs": want local, slurm or k8s`},
		{LaunchOptions{Launcher: ""}, `eval: --launcher "": want local, slurm or k8s`},
	}
	for _, c := range cases {
		err := CheckLauncher("eval", c.o)
		if c.want == "" && err != nil || c.want != "" && (err == nil || err.Error() != c.want) {
			t.Errorf("%+v: %v, want %q", c.o, err, c.want)
		}
	}
}

func TestCPUQuantity(t *testing.T) {
	for n, want := range map[int]string{-1: "", 0: "", 1: "1", 16: "16"} {
		if got := cpuQuantity(n); got != want {
			t.Errorf("cpuQuantity(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestTaskCommandsArguments: each task command takes exactly one
// directory and says so before touching anything.
func TestTaskCommandsArguments(t *testing.T) {
	ctx := t.Context()
	var out strings.Builder
	for _, args := range [][]string{nil, {"a", "b"}} {
		if err := RunTaskCommand(ctx, TaskRunCommand{Args: args}, &out); err == nil || !strings.Contains(err.Error(), "task run: give exactly one task directory") {
			t.Errorf("task run %q: %v", args, err)
		}
		if err := StatusCommand(ctx, args, &out); err == nil || err.Error() != "status: give exactly one task directory" {
			t.Errorf("status %q: %v", args, err)
		}
		if err := RunCollectCommand(ctx, CollectCommand{Args: args}, &out); err == nil || err.Error() != "collect: give exactly one task directory" {
			t.Errorf("collect %q: %v", args, err)
		}
	}
	// No --index and no batch-system variable: the index is missing.
	none := func(string) (string, bool) { return "", false }
	if err := RunTaskCommand(ctx, TaskRunCommand{Args: []string{t.TempDir()}, LookupEnv: none}, &out); err == nil || !strings.Contains(err.Error(), "no task index") {
		t.Errorf("no index: %v", err)
	}
	// A bad core count is refused before the task runs.
	cores := func(k string) (string, bool) {
		if k == "SLURM_CPUS_PER_TASK" {
			return "zero", true
		}
		return "", false
	}
	set := 0
	err := RunTaskCommand(ctx, TaskRunCommand{Args: []string{t.TempDir()}, IndexGiven: true, LookupEnv: cores, SetCores: func(n int) { set = n }}, &out)
	if err == nil || !strings.Contains(err.Error(), `$SLURM_CPUS_PER_TASK = "zero"`) || set != 0 {
		t.Errorf("bad cores: %v (set %d)", err, set)
	}
	if out.Len() != 0 {
		t.Errorf("failed commands printed %q", out.String())
	}
}

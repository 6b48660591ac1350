package experiment

import (
	"strings"
	"testing"
)

// givenFlags is a LearnCommand.Given of the flags named.
func givenFlags(names ...string) func(string) bool {
	return func(f string) bool {
		for _, n := range names {
			if n == f {
				return true
			}
		}
		return false
	}
}

// TestLearnCommandRefusesFlagCombinations: every refused combination of
// flags fails with its own message before any config is read or directory
// written (Config names no config, so reading one would fail differently).
func TestLearnCommandRefusesFlagCombinations(t *testing.T) {
	local := LaunchOptions{Launcher: LauncherLocal}
	cases := []struct {
		name string
		o    LearnCommand
		want string
	}{
		{"jobs without -m", LearnCommand{Jobs: 2, Launch: local, Given: givenFlags("jobs")}, "learn: --jobs runs sweep points side by side and needs -m"},
		{"slurm without -m", LearnCommand{Jobs: 1, Launch: LaunchOptions{Launcher: LauncherSlurm}, Given: givenFlags("launcher")}, "learn: --launcher slurm runs the points of a sweep and needs -m"},
		{"resume with out", LearnCommand{Resume: "r", Out: "o", Launch: local, Given: givenFlags("resume", "out")}, "learn: --out cannot be combined with --resume"},
		{"resume with train", LearnCommand{Resume: "r", Train: "t", Launch: local, Given: givenFlags("resume", "train")}, "learn: --train cannot be combined with --resume"},
		{"sweep with resume", LearnCommand{Multirun: true, Resume: "r", Jobs: 1, Launch: local, Given: givenFlags("resume")}, "learn -m: --resume is not supported in a sweep"},
		{"sweep with validation", LearnCommand{Multirun: true, Jobs: 1, Launch: local, Given: givenFlags("validation")}, "learn -m: --validation is not supported in a sweep"},
		{"sweep jobs 0", LearnCommand{Multirun: true, Out: "o", Jobs: 0, Launch: local, Given: givenFlags("jobs")}, "learn -m: --jobs 0: must be ≥ 1"},
		{"sweep local with partition", LearnCommand{Multirun: true, Out: "o", Jobs: 1, Launch: LaunchOptions{Launcher: LauncherLocal, Given: []string{"partition"}}}, "learn: --partition applies to --launcher slurm or k8s, not local"},
		{"sweep slurm with jobs", LearnCommand{Multirun: true, Out: "o", Jobs: 2, Launch: LaunchOptions{Launcher: LauncherSlurm}, Given: givenFlags("jobs")}, "learn -m: --jobs applies to --launcher local"},
	}
	for _, c := range cases {
		c.o.Config = "no-such-config-" + c.name
		var out, errw strings.Builder
		err := RunLearnCommand(t.Context(), c.o, &out, &errw)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
		if out.Len()+errw.Len() != 0 {
			t.Errorf("%s: printed %q %q", c.name, out.String(), errw.String())
		}
	}
	// A nil Given means no flag was given: the config is read (and here
	// cannot be).
	if err := RunLearnCommand(t.Context(), LearnCommand{Config: "no-such-config", Launch: local}, &strings.Builder{}, &strings.Builder{}); err == nil || !strings.Contains(err.Error(), "no-such-config") {
		t.Errorf("nil Given: %v", err)
	}
}

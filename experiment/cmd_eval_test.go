package experiment_test

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evogp/evogp/experiment"
	"github.com/evogp/evogp/internal/progress"
)

// RunEval takes its steps in the documented order, so the first error is
// the first failing step's, and the launcher paths call what they should.
func TestRunEvalSteps(t *testing.T) {
	data := simulateDataset(t)
	type trace struct{ steps []string }
	command := func(tr *trace, out string) experiment.EvalCommand {
		return experiment.EvalCommand{
			Settings: experiment.EvalSettings{Dataset: data, Sim: experiment.DefaultSimSettings(), Out: out,
				Figures: experiment.FigureOptions{Reference: "tiresias"}, Progress: progress.Options{Quiet: true}},
			Formats: "svg", Schedulers: "spark,tiresias", EstimatesSource: "none",
			Builder: func() (experiment.PolicyBuilder, error) {
				tr.steps = append(tr.steps, "builder")
				return experiment.DefaultPolicyBuilder(false), nil
			},
			Launcher: func() (string, bool, error) {
				tr.steps = append(tr.steps, "launcher")
				return "local", true, nil
			},
			Launch: func(l string) error { tr.steps = append(tr.steps, "launch "+l); return nil },
		}
	}
	for _, tc := range []struct {
		edit  func(*experiment.EvalCommand, *trace)
		err   string
		steps string
	}{
		{func(o *experiment.EvalCommand, _ *trace) { o.Formats = "gif" }, `format "gif"`, ""},
		{func(o *experiment.EvalCommand, tr *trace) {
			o.Builder = func() (experiment.PolicyBuilder, error) {
				tr.steps = append(tr.steps, "builder")
				return experiment.PolicyBuilder{}, errors.New("bad evo flag")
			}
		}, "bad evo flag", "builder"},
		{func(o *experiment.EvalCommand, _ *trace) { o.Schedulers = "nope" }, `"nope"`, "builder"},
		{func(o *experiment.EvalCommand, _ *trace) { o.EstimatesSource = "guess" }, "guess", "builder"},
		{func(o *experiment.EvalCommand, tr *trace) {
			o.Launcher = func() (string, bool, error) {
				tr.steps = append(tr.steps, "launcher")
				return "", false, errors.New("bad launcher")
			}
		}, "bad launcher", "builder launcher"},
		{func(o *experiment.EvalCommand, tr *trace) {
			o.Launcher = func() (string, bool, error) { tr.steps = append(tr.steps, "launcher"); return "slurm", false, nil }
			o.Given = func(f string) bool { return f == "force" }
		}, "eval: --workers and --force apply to --launcher local; with --launcher slurm", "builder launcher"},
		{func(o *experiment.EvalCommand, tr *trace) {
			o.Launcher = func() (string, bool, error) { tr.steps = append(tr.steps, "launcher"); return "k8s", false, nil }
			o.Given = func(f string) bool { return f == "instances" }
		}, "eval: --ops-out, --estimates and --instances run with --launcher local only", "builder launcher"},
		{func(o *experiment.EvalCommand, tr *trace) {
			o.Launcher = func() (string, bool, error) { tr.steps = append(tr.steps, "launcher"); return "k8s", false, nil }
		}, "", "builder launcher launch k8s"},
	} {
		tr := &trace{}
		o := command(tr, filepath.Join(t.TempDir(), "eval"))
		tc.edit(&o, tr)
		var w bytes.Buffer
		err := experiment.RunEval(context.Background(), o, &w)
		if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("error %v, want %q", err, tc.err)
		}
		if got := strings.Join(tr.steps, " "); got != tc.steps {
			t.Errorf("%q: steps %q, want %q", tc.err, got, tc.steps)
		}
		if w.Len() > 0 {
			t.Errorf("%q: printed %q", tc.err, w.String())
		}
	}
	// Locally: the summary table, then the line naming what was written.
	tr := &trace{}
	out := filepath.Join(t.TempDir(), "eval")
	var w bytes.Buffer
	if err := experiment.RunEval(context.Background(), command(tr, out), &w); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(tr.steps, " "); got != "builder launcher" {
		t.Errorf("steps %q", got)
	}
	if s := w.String(); !strings.Contains(s, "tiresias") || !strings.Contains(s, "\nwrote "+out+": 2 schedulers × 2 instances, ") {
		t.Errorf("printed %q", s)
	}
}

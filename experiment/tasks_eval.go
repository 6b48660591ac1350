package experiment

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/evogp/evogp/datasets"
	"github.com/evogp/evogp/internal/atomicio"
	"github.com/evogp/evogp/internal/parallel"
	"github.com/evogp/evogp/internal/progress"
	"github.com/evogp/evogp/launch"
	"github.com/evogp/evogp/policies"
	"github.com/evogp/evogp/reports"
	"github.com/evogp/evogp/runfile"
	"github.com/evogp/evogp/simcore"
)

// An eval task is one instance of the dataset under every scheduler: a
// block of len(policies) simulations, long enough to be worth a batch
// task and independent of every other. The local eval runs the same
// blocks (evalBlock) on its worker pool and merges them with the same
// function (mergeEvalBlocks) as evogp collect.

// EvalTaskFile is the settings file of an eval task directory.
const EvalTaskFile = "eval-tasks.json"

// evalTaskSettings is what every eval task of a directory shares.
type evalTaskSettings struct {
	Dataset    string        `json:"dataset"`     // as the user gave it (the manifest records this)
	DatasetAbs string        `json:"dataset_abs"` // where the tasks read it
	Policies   []Policy      `json:"schedulers"`
	Sim        SimSettings   `json:"sim"`
	TimeUnit   string        `json:"time_unit"`
	Figures    FigureOptions `json:"figures"`
}

// evalBlock is the outcome of one eval task: per policy, the result row
// and the job rows of the instance.
type evalBlock struct {
	Results []reports.ResultRow
	Jobs    [][]reports.JobRow
	Ops     [][]reports.OpsRow // EVO operation logs (with opts.RecordOps)
}

// runEvalBlock simulates every policy on one instance.
func runEvalBlock(ctx context.Context, inst *simcore.Instance, policies []Policy, opts simcore.Options, prog *progress.Reporter) (evalBlock, error) {
	b := evalBlock{Results: make([]reports.ResultRow, len(policies)), Jobs: make([][]reports.JobRow, len(policies)), Ops: make([][]reports.OpsRow, len(policies))}
	for k, p := range policies {
		r, err := simcore.Simulate(ctx, inst, p.sched, withTicks(opts, inst, prog))
		if err != nil {
			return b, fmt.Errorf("scheduler %s: %w", p.Label, err)
		}
		b.Results[k] = ResultRow(r, p.Label, 0)
		b.Jobs[k] = JobRows(r, p.Label)
		b.Ops[k] = OpsRows(r, p.Label)
		if prog != nil {
			prog.Add(1)
		}
	}
	return b, nil
}

// mergeEvalBlocks orders the blocks' rows as eval writes them: scheduler
// by scheduler, instances in dataset order within each.
func mergeEvalBlocks(npolicies int, blocks []evalBlock) Tables {
	t := Tables{BaselineNames: policies.Baselines()}
	for k := range npolicies {
		for _, b := range blocks {
			t.Results = append(t.Results, b.Results[k])
			t.Jobs = append(t.Jobs, b.Jobs[k]...)
			if b.Ops != nil {
				t.Ops = append(t.Ops, b.Ops[k]...)
			}
		}
	}
	return t
}

// evalTables runs one block per instance on workers goroutines (0 = all
// cores) and merges them.
func evalTables(ctx context.Context, insts []simcore.Instance, policies []Policy, opts simcore.Options, workers int, prog *progress.Reporter) (Tables, error) {
	blocks := make([]evalBlock, len(insts))
	err := parallel.For(ctx, len(insts), workers, func(i int) error {
		var err error
		blocks[i], err = runEvalBlock(ctx, &insts[i], policies, opts, prog)
		return err
	})
	if err != nil {
		return Tables{}, err
	}
	return mergeEvalBlocks(len(policies), blocks), nil
}

// evalManifest is the MarkerFile of an eval over n instances.
func evalManifest(st evalTaskSettings, n int) (EvalManifest, error) {
	rec, err := st.Sim.Objective.Record()
	if err != nil {
		return EvalManifest{}, err
	}
	return EvalManifest{
		Command: runfile.CommandEval, Dataset: st.Dataset, Instances: n, Schedulers: schedulerRecords(st.Policies),
		Reference: st.Figures.Reference, Instance: st.Figures.Instance, Objective: rec,
		Trigger: st.Sim.Sim.Trigger, Backfill: st.Sim.Sim.Backfill, TimeUnit: st.TimeUnit,
	}, nil
}

// rebuildPolicy makes the scheduler of a policy read back from JSON. It
// refuses a policy it cannot reproduce exactly.
func rebuildPolicy(p Policy) (Policy, error) {
	var q Policy
	var err error
	if p.Source != "" {
		q, err = NewPolicy(FormulaScheduler, p.Source, p.TimeUnit == "seconds")
	} else {
		q, err = NewPolicy(p.Spec, "", false)
	}
	if err != nil {
		return Policy{}, fmt.Errorf("scheduler %s: %w", p.Label, err)
	}
	q.Label, q.Spec, q.Source = p.Label, p.Spec, p.Source
	a, _ := json.Marshal(p)
	b, _ := json.Marshal(q)
	if !bytes.Equal(a, b) {
		return Policy{}, fmt.Errorf("scheduler %s: cannot be rebuilt from its task description (%s ≠ %s)", p.Label, a, b)
	}
	return q, nil
}

// readEvalTaskSettings reads an eval task directory's settings, their raw
// bytes and the rebuilt policies.
func readEvalTaskSettings(dir string) (evalTaskSettings, []byte, error) {
	var st evalTaskSettings
	path := filepath.Join(dir, EvalTaskFile)
	raw, err := os.ReadFile(path)
	if err != nil {
		return st, nil, fmt.Errorf("eval tasks: %w", err)
	}
	if err := json.Unmarshal(raw, &st); err != nil {
		return st, nil, fmt.Errorf("%s: %w", path, err)
	}
	for i, p := range st.Policies {
		if st.Policies[i], err = rebuildPolicy(p); err != nil {
			return st, nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	return st, raw, nil
}

func evalInstanceHash(settings []byte, instance string) string {
	return launch.ConfigHash([]byte(launch.TaskEvalInstance), settings, []byte(instance))
}

// PrepareEval makes the eval task directory s.Out: EvalTaskFile, the
// provenance record and one task per instance of the dataset. An existing
// task directory made with the same settings is kept (its finished tasks
// stay finished); any other non-empty directory is refused. It returns the
// number of tasks.
func PrepareEval(s EvalSettings) (int, error) {
	if len(s.Policies) == 0 {
		return 0, fmt.Errorf("eval: no schedulers")
	}
	if _, err := s.Sim.Options(); err != nil {
		return 0, err
	}
	if err := checkReference(policyRows(s.Policies), s.Figures); err != nil {
		return 0, err
	}
	ds, err := datasets.Read(s.Dataset)
	if err != nil {
		return 0, err
	}
	if len(ds.Instances) == 0 {
		return 0, fmt.Errorf("dataset %s has no instances", s.Dataset)
	}
	if inst := s.Figures.Instance; inst != "" && !hasInstance(ds.Instances, inst) {
		return 0, fmt.Errorf("--instance %q: not in dataset %s", inst, s.Dataset)
	}
	abs, err := filepath.Abs(s.Dataset)
	if err != nil {
		return 0, fmt.Errorf("eval: dataset %s: %w", s.Dataset, err)
	}
	st := evalTaskSettings{Dataset: s.Dataset, DatasetAbs: abs, Policies: s.Policies, Sim: s.Sim, TimeUnit: s.TimeUnit, Figures: s.Figures}
	raw, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return 0, err
	}
	raw = append(raw, '\n')
	settingsPath := filepath.Join(s.Out, EvalTaskFile)
	old, err := os.ReadFile(settingsPath)
	switch {
	case err == nil && !bytes.Equal(old, raw):
		return 0, fmt.Errorf("eval: %s was made by a different eval command (%s differs); use another --out", s.Out, settingsPath)
	case errors.Is(err, fs.ErrNotExist):
		if entries, rerr := os.ReadDir(s.Out); rerr == nil && len(entries) > 0 {
			return 0, fmt.Errorf("eval: output %s exists and is not empty; a batch eval needs a new --out", s.Out)
		}
		if err := launch.CheckWritable(s.Out); err != nil {
			return 0, err
		}
		if err := atomicio.WriteBytes(settingsPath, raw); err != nil {
			return 0, err
		}
	case err != nil:
		return 0, fmt.Errorf("eval: %w", err)
	}
	prov, err := s.Provenance.WithConfig(st)
	if err == nil {
		prov, err = WithInputs(prov, abs)
	}
	if err != nil {
		return 0, err
	}
	if err := AppendProvenance(s.Out, prov); err != nil {
		return 0, err
	}
	version := ProgramVersion()
	specs := make([]launch.TaskSpec, len(ds.Instances))
	for i := range ds.Instances {
		name := ds.Instances[i].Name
		specs[i] = launch.TaskSpec{Index: i, Kind: launch.TaskEvalInstance, Version: version, ConfigHash: evalInstanceHash(raw, name),
			Inputs: launch.TaskInputs{Settings: EvalTaskFile, Dataset: abs, Instance: i, InstanceName: name},
			Output: filepath.Join(launch.TasksDir, "out", fmt.Sprintf("%04d", i))}
	}
	return len(specs), launch.WriteTasks(s.Out, launch.TaskSet{Kind: launch.TaskEvalInstance, Count: len(specs), Version: version}, specs)
}

// prepareEvalInstance checks an eval-instance task and returns its runner,
// which writes the instance's result and job rows under the task's output.
func prepareEvalInstance(dir string, spec launch.TaskSpec) (func(context.Context, TaskRunOptions) error, error) {
	st, raw, err := readEvalTaskSettings(dir)
	if err != nil {
		return nil, err
	}
	if err := launch.CheckHash(spec, evalInstanceHash(raw, spec.Inputs.InstanceName)); err != nil {
		return nil, err
	}
	return func(ctx context.Context, o TaskRunOptions) error {
		opts, err := st.Sim.Options()
		if err != nil {
			return err
		}
		ds, err := datasets.ReadContext(ctx, st.DatasetAbs)
		if err != nil {
			return err
		}
		i := spec.Inputs.Instance
		if i >= len(ds.Instances) || ds.Instances[i].Name != spec.Inputs.InstanceName {
			return fmt.Errorf("dataset %s has changed: instance %d is no longer %q", st.DatasetAbs, i, spec.Inputs.InstanceName)
		}
		b, err := runEvalBlock(ctx, &ds.Instances[i], st.Policies, opts, nil)
		if err != nil {
			return err
		}
		out := filepath.Join(dir, spec.Output)
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return err
		}
		var jobs []reports.JobRow
		for _, j := range b.Jobs {
			jobs = append(jobs, j...)
		}
		if err := reports.WriteResults(out+".results.parquet", b.Results); err != nil {
			return err
		}
		return reports.WriteJobs(out+".jobs.parquet", jobs)
	}, nil
}

// CollectEval merges the blocks of the eval task directory dir (every
// task done) into the files evogp eval writes: results.parquet,
// jobs.parquet, the summaries and figures and MarkerFile.
func CollectEval(ctx context.Context, dir string, prov Provenance) (EvalResult, error) {
	set, err := launch.ReadTaskSet(dir)
	if err != nil {
		return EvalResult{}, err
	}
	if set.Kind != launch.TaskEvalInstance {
		return EvalResult{}, fmt.Errorf("collect %s: a %s directory, not an eval", dir, set.Kind)
	}
	st, _, err := readEvalTaskSettings(dir)
	if err != nil {
		return EvalResult{}, err
	}
	blocks := make([]evalBlock, set.Count)
	for i := range blocks {
		spec, err := launch.ReadTaskSpec(dir, i)
		if err != nil {
			return EvalResult{}, err
		}
		out := filepath.Join(dir, spec.Output)
		res, err := reports.ReadResults(out + ".results.parquet")
		if err != nil {
			return EvalResult{}, fmt.Errorf("collect: task %d: %w", i, err)
		}
		jobs, err := reports.ReadJobs(out + ".jobs.parquet")
		if err != nil {
			return EvalResult{}, fmt.Errorf("collect: task %d: %w", i, err)
		}
		if len(res) != len(st.Policies) {
			return EvalResult{}, fmt.Errorf("collect: task %d: %d result rows for %d schedulers", i, len(res), len(st.Policies))
		}
		b := evalBlock{Results: res, Jobs: make([][]reports.JobRow, len(st.Policies))}
		for _, j := range jobs {
			for k, p := range st.Policies {
				if j.Scheduler == p.Label {
					b.Jobs[k] = append(b.Jobs[k], j)
				}
			}
		}
		blocks[i] = b
	}
	if err := ctx.Err(); err != nil {
		return EvalResult{}, err
	}
	t := mergeEvalBlocks(len(st.Policies), blocks)
	t.Objective = st.Sim.Objective.Kind
	files, err := t.Render(st.Figures)
	if err != nil {
		return EvalResult{}, err
	}
	if err := reports.WriteResults(filepath.Join(dir, "results.parquet"), t.Results); err != nil {
		return EvalResult{}, err
	}
	if err := reports.WriteJobs(filepath.Join(dir, "jobs.parquet"), t.Jobs); err != nil {
		return EvalResult{}, err
	}
	if err := files.Write(dir); err != nil {
		return EvalResult{}, err
	}
	man, err := evalManifest(st, set.Count)
	if err != nil {
		return EvalResult{}, err
	}
	if err := runfile.WriteEvalManifest(dir, &man); err != nil {
		return EvalResult{}, err
	}
	prov, err = prov.WithConfig(st)
	if err == nil {
		prov, err = WithInputs(prov, st.Dataset)
	}
	if err != nil {
		return EvalResult{}, err
	}
	if err := AppendProvenance(dir, prov); err != nil {
		return EvalResult{}, err
	}
	warnings, err := LearnedObjectiveWarnings(st.Policies, st.Sim)
	if err != nil {
		return EvalResult{}, err
	}
	if err := writeReportWith(dir, dir, t, files, st.Figures, warnings); err != nil {
		return EvalResult{}, err
	}
	return EvalResult{Instances: set.Count, Files: append(files.Names(), ReportFile), Warnings: warnings}, nil
}

package experiment

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/datasets"
	"github.com/evogp/evogp/internal/progress"
	"github.com/evogp/evogp/reports"
	"github.com/evogp/evogp/runfile"
	"github.com/evogp/evogp/simcore"
)

// SimSettings are the simulator and objective settings of a run, as the
// config's sim and objective sections hold them.
type SimSettings struct {
	Sim       configs.Sim
	Objective configs.Objective
}

// DefaultSimSettings are the sim and objective sections of the default
// config: arrival trigger, no backfill, Eq. 5 with weights 1,1,1.
func DefaultSimSettings() SimSettings {
	d := configs.Default()
	return SimSettings{Sim: d.Sim, Objective: d.Objective}
}

// Options checks the settings and translates them with configs.SimOptions,
// the one translation of config sections into simcore.Options.
func (s SimSettings) Options() (simcore.Options, error) {
	cfg := configs.Default()
	cfg.Sim, cfg.Objective = s.Sim, s.Objective
	if err := cfg.Validate(); err != nil {
		return simcore.Options{}, err
	}
	return configs.SimOptions(cfg)
}

// EvalSettings describe one evaluation run.
type EvalSettings struct {
	Dataset  string   // dataset directory (Parquet or CSV)
	Policies []Policy // from ParsePolicies
	Sim      SimSettings
	TimeUnit string // the time unit the caller chose for formulas, recorded in the manifest
	Figures  FigureOptions
	Workers  int    // simulations in parallel, 0 = all cores
	Out      string // output directory
	// OpsOut, if set, is where the EVO operation log goes (ops.parquet
	// schema, Parquet or CSV by extension). A path inside Out is written
	// with the directory, and the directory then also gets the
	// time-per-operation figure (paper Fig. 12).
	OpsOut string
	// Force allows replacing an earlier evogp output directory at Out.
	Force bool
	// Instances, if not empty, selects the dataset's instances by name.
	Instances []string
	// Estimates chooses the durations schedulers see (SPEC §14); the zero
	// value is the truth. EstimatesSeed and EstimatesReuse as in
	// FillEstimates.
	Estimates      EstimateSource
	EstimatesSeed  uint64
	EstimatesReuse bool
	Progress       progress.Options
	Provenance     Provenance
}

// EvalManifest is the content of an eval directory's MarkerFile
// (runfile.EvalManifest: the one declaration, reader and writer).
type EvalManifest = runfile.EvalManifest

// EvalResult says what Eval wrote.
type EvalResult struct {
	Instances int
	Files     []string // names of the files written into Out
	// Warnings are printed to Progress.Out and shown in report.html: a
	// learned formula scored under another objective than its own.
	Warnings []string
	// Omega is the ω table of each front (front_omega.go), in
	// Fronts order; each is also written as omega_LABEL.txt.
	Omega []string
}

// Eval simulates every policy on every instance of the dataset and writes
// Out: results.parquet, jobs.parquet, summary.md, summary.csv, the figures
// and MarkerFile. Everything is computed before anything is written, and
// Out appears complete or not at all.
func Eval(ctx context.Context, s EvalSettings) (EvalResult, error) {
	if s.Workers < 0 {
		return EvalResult{}, fmt.Errorf("workers = %d: must be ≥ 0 (0 = all cores)", s.Workers)
	}
	if len(s.Policies) == 0 {
		return EvalResult{}, fmt.Errorf("eval: no schedulers")
	}
	opts, err := s.Sim.Options()
	if err != nil {
		return EvalResult{}, err
	}
	if err := checkReference(policyRows(s.Policies), s.Figures); err != nil {
		return EvalResult{}, err
	}
	if s.Figures, err = withBestBaseline(s.Figures, s.Policies); err != nil {
		return EvalResult{}, err
	}
	warnings, err := LearnedObjectiveWarnings(s.Policies, s.Sim)
	if err != nil {
		return EvalResult{}, err
	}
	if out := s.Progress.Out; out != nil {
		for _, w := range warnings {
			fmt.Fprintln(out, "warning:", w)
		}
	}
	if err := CheckOutDir(s.Out, s.Force); err != nil {
		return EvalResult{}, err
	}
	opsIn, err := opsInside(s.Out, s.OpsOut)
	if err != nil {
		return EvalResult{}, err
	}
	opts.RecordOps = s.OpsOut != ""
	ds, err := datasets.ReadContext(ctx, s.Dataset)
	if err != nil {
		return EvalResult{}, err
	}
	if ds.Instances, err = SelectInstances(ds.Instances, s.Instances); err != nil {
		return EvalResult{}, err
	}
	if len(ds.Instances) == 0 {
		return EvalResult{}, fmt.Errorf("dataset %s has no instances", s.Dataset)
	}
	if inst := s.Figures.Instance; inst != "" && !hasInstance(ds.Instances, inst) {
		return EvalResult{}, fmt.Errorf("--instance %q: not in dataset %s", inst, s.Dataset)
	}
	estimates := ""
	if k := s.Estimates.Kind; k != "" && k != "none" {
		if estimates, err = FillEstimates(ctx, s.Estimates, s.EstimatesSeed, s.EstimatesReuse, ds.Instances); err != nil {
			return EvalResult{}, err
		}
	}

	prog := progress.New("eval", len(s.Policies)*len(ds.Instances), s.Progress)
	// One block per instance, every scheduler: the eval task (SPEC §15).
	t, err := evalTables(ctx, ds.Instances, s.Policies, opts, s.Workers, prog)
	prog.Finish()
	if err != nil {
		return EvalResult{}, err
	}

	rec, err := s.Sim.Objective.Record()
	if err != nil {
		return EvalResult{}, err
	}
	pairs, fronts := EVOPairs(s.Policies), FrontSets(s.Policies)
	man := EvalManifest{
		Command: runfile.CommandEval, Dataset: s.Dataset, Instances: len(ds.Instances), Schedulers: schedulerRecords(s.Policies),
		Reference: s.Figures.Reference, Instance: s.Figures.Instance, Objective: rec,
		Trigger: s.Sim.Sim.Trigger, Backfill: s.Sim.Sim.Backfill, TimeUnit: s.TimeUnit,
		EVOPairs: evoPairRecords(pairs), Estimates: estimates, Fronts: frontSetRecords(fronts),
		BestBaseline: s.Figures.BestBaseline, BestBaselineBasis: s.Figures.BestBaselineBasis,
	}
	t.EVOPairs = pairs
	t.Objective = rec.Kind
	t.Fronts = fronts
	omegas, err := frontOmegaTables(ctx, fronts, ds.Instances, t.Results, opts)
	if err != nil {
		return EvalResult{}, err
	}
	ops := t.Ops
	if opsIn == "" {
		t.Ops = nil // drawn only where the log is kept
	}
	files, err := t.Render(s.Figures)
	if err != nil {
		return EvalResult{}, err
	}
	dataAbs, err := filepath.Abs(s.Dataset)
	if err != nil {
		return EvalResult{}, err
	}
	prov, err := s.Provenance.WithConfig(man)
	if err == nil {
		prov, err = WithInputs(prov, dataAbs)
	}
	if err != nil {
		return EvalResult{}, err
	}
	prov = prov.Finished(time.Now())
	err = writeOutDir(s.Out, s.Force, func(tmp string) error {
		if err := reports.WriteResults(filepath.Join(tmp, "results.parquet"), t.Results); err != nil {
			return err
		}
		if err := reports.WriteJobs(filepath.Join(tmp, "jobs.parquet"), t.Jobs); err != nil {
			return err
		}
		if opsIn != "" {
			if err := os.MkdirAll(filepath.Dir(filepath.Join(tmp, opsIn)), 0o755); err != nil {
				return err
			}
			if err := reports.WriteOps(filepath.Join(tmp, opsIn), ops); err != nil {
				return err
			}
		}
		if err := files.Write(tmp); err != nil {
			return err
		}
		for k, text := range omegas {
			if err := os.WriteFile(filepath.Join(tmp, omegaFileName(man.Fronts[k].Label)), []byte(text), 0o644); err != nil {
				return err
			}
		}
		if err := runfile.WriteEvalManifest(tmp, &man); err != nil {
			return err
		}
		if err := writeJSON(filepath.Join(tmp, ProvenanceFile), []Provenance{prov}); err != nil {
			return err
		}
		return writeReportWith(tmp, s.Out, t, files, s.Figures, warnings)
	})
	if err != nil {
		return EvalResult{}, err
	}
	if s.OpsOut != "" && opsIn == "" {
		if err := reports.WriteOps(s.OpsOut, ops); err != nil {
			return EvalResult{}, err
		}
	}
	names := append(files.Names(), ReportFile)
	for _, f := range man.Fronts {
		names = append(names, omegaFileName(f.Label))
	}
	if opsIn != "" {
		names = append(names, opsIn)
	}
	return EvalResult{Instances: len(ds.Instances), Files: names, Warnings: warnings, Omega: omegas}, nil
}

// policyRows is one placeholder row per policy label, so that a reference
// can be checked before anything is simulated.
// opsInside returns the path of opsOut relative to the output directory
// out when it lies inside it ("" otherwise), and rejects a log path that
// is the directory itself or one of the files eval writes there.
func opsInside(out, opsOut string) (string, error) {
	if opsOut == "" {
		return "", nil
	}
	if ext := strings.ToLower(filepath.Ext(opsOut)); ext != ".parquet" && ext != ".csv" {
		return "", fmt.Errorf("--ops-out %s: want a .parquet or .csv file", opsOut)
	}
	ao, err := filepath.Abs(out)
	if err != nil {
		return "", err
	}
	ap, err := filepath.Abs(opsOut)
	if err != nil {
		return "", err
	}
	rel, err := filepath.Rel(ao, ap)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", nil
	}
	switch rel {
	case ".", "results.parquet", "jobs.parquet", "summary.csv", MarkerFile, ProvenanceFile:
		return "", fmt.Errorf("--ops-out %s: would overwrite %s of the output directory", opsOut, rel)
	}
	return rel, nil
}

func policyRows(ps []Policy) []reports.ResultRow {
	rows := make([]reports.ResultRow, len(ps))
	for i, p := range ps {
		rows[i].Scheduler = p.Label
	}
	return rows
}

func hasInstance(insts []simcore.Instance, name string) bool {
	for i := range insts {
		if insts[i].Name == name {
			return true
		}
	}
	return false
}

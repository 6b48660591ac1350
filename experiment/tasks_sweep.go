package experiment

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/internal/atomicio"
	"github.com/evogp/evogp/launch"
	"github.com/evogp/evogp/reports"
	"github.com/evogp/evogp/simcore"
)

// configIsFile says whether configs.Load reads name from a file.
func configIsFile(name string) bool {
	return strings.ContainsRune(name, os.PathSeparator) || strings.HasSuffix(name, ".yaml") || strings.HasSuffix(name, ".yml")
}

// pointConfig is the config of a sweep point: the base config with the
// fixed overrides, then the point's.
func pointConfig(config string, fixed, point []string) (configs.Config, error) {
	base, err := configs.Load(config)
	if err != nil {
		return configs.Config{}, err
	}
	if base, err = base.Override(fixed...); err != nil {
		return configs.Config{}, err
	}
	cfg, err := base.Override(point...)
	if err != nil {
		return configs.Config{}, fmt.Errorf("sweep point %s: %w", PointName(point), err)
	}
	return cfg, nil
}

// pointConfigHash is the configuration hash of a learn-point task: that of
// the point's resolved config.
func pointConfigHash(cfg configs.Config) (string, error) {
	b, err := cfg.Marshal()
	if err != nil {
		return "", err
	}
	return launch.ConfigHash([]byte(launch.TaskLearnPoint), b), nil
}

// PrepareSweep makes (or checks and completes) the sweep directory dir for
// spec: sweep.yaml, the provenance record and one learn-point task per
// point. It returns the number of tasks. Every point's config is resolved
// first, so a bad override writes nothing.
func PrepareSweep(dir string, spec SweepSpec, prov Provenance) (int, error) {
	points := SweepPoints(spec.Axes)
	config := spec.Config
	if configIsFile(config) {
		abs, err := filepath.Abs(config)
		if err != nil {
			return 0, fmt.Errorf("sweep: config %s: %w", config, err)
		}
		config = abs
	}
	version := ProgramVersion()
	specs := make([]launch.TaskSpec, len(points))
	for i, p := range points {
		cfg, err := pointConfig(config, spec.Fixed, p)
		if err != nil {
			return 0, err
		}
		if err := checkSweepAxes(spec.Axes, cfg); err != nil {
			return 0, err
		}
		hash, err := pointConfigHash(cfg)
		if err != nil {
			return 0, err
		}
		specs[i] = launch.TaskSpec{Index: i, Kind: launch.TaskLearnPoint, Version: version, ConfigHash: hash,
			Inputs: launch.TaskInputs{Config: config, Fixed: spec.Fixed, Point: p},
			Output: filepath.Join("points", PointDirName(p))}
	}
	if err := claimSweepDir(dir, spec); err != nil {
		return 0, err
	}
	prov, err := prov.WithConfig(spec)
	if err != nil {
		return 0, err
	}
	if err := AppendProvenance(dir, prov); err != nil {
		return 0, err
	}
	return len(specs), launch.WriteTasks(dir, launch.TaskSet{Kind: launch.TaskLearnPoint, Count: len(specs), Version: version}, specs)
}

// prepareLearnPoint checks a learn-point task and returns its runner: it
// learns the point (or resumes it from its checkpoint, or reuses its
// best.json) and writes its test.parquet.
func prepareLearnPoint(dir string, spec launch.TaskSpec) (func(context.Context, TaskRunOptions) error, error) {
	in := spec.Inputs
	cfg, err := pointConfig(in.Config, in.Fixed, in.Point)
	if err != nil {
		return nil, err
	}
	hash, err := pointConfigHash(cfg)
	if err != nil {
		return nil, err
	}
	if err := launch.CheckHash(spec, hash); err != nil {
		return nil, err
	}
	return func(ctx context.Context, o TaskRunOptions) error {
		if cfg.GP.Workers == 0 {
			cfg.GP.Workers = o.Workers
		}
		pdir, err := pointDir(dir, in.Point)
		if err != nil {
			return err
		}
		_, _, err = runSweepPoint(ctx, pdir, cfg, in.Point, o.Progress, o.Provenance)
		return err
	}, nil
}

// CollectSweep merges the points of the sweep directory dir (every task
// done) into sweep.parquet (and its twin SweepCSV), baselines.parquet and
// the table SweepTableFile, rows in point order, and returns the rows.
func CollectSweep(dir string) ([]reports.SweepRow, error) {
	set, err := launch.ReadTaskSet(dir)
	if err != nil {
		return nil, err
	}
	if set.Kind != launch.TaskLearnPoint {
		return nil, fmt.Errorf("collect %s: a %s directory, not a sweep", dir, set.Kind)
	}
	rows := make([]reports.SweepRow, set.Count)
	var baselines []reports.ResultRow
	seen := map[string]bool{}
	for i := range rows {
		spec, err := launch.ReadTaskSpec(dir, i)
		if err != nil {
			return nil, err
		}
		in := spec.Inputs
		cfg, err := pointConfig(in.Config, in.Fixed, in.Point)
		if err != nil {
			return nil, err
		}
		results, err := reports.ReadResults(filepath.Join(dir, spec.Output, "test.parquet"))
		if err != nil {
			return nil, fmt.Errorf("collect: task %d: %w", i, err)
		}
		rows[i] = sweepRow(cfg, in.Point, results)
		for _, r := range results {
			key := fmt.Sprintf("%s|%s|%d", r.Instance, r.Scheduler, r.Seed)
			if r.Scheduler != "gp" && !seen[key] {
				seen[key] = true
				baselines = append(baselines, r)
			}
		}
	}
	if err := reports.WriteSweep(filepath.Join(dir, "sweep.parquet"), rows); err != nil {
		return nil, err
	}
	if err := reports.WriteSweep(filepath.Join(dir, SweepCSV), rows); err != nil {
		return nil, err
	}
	if err := reports.WriteResults(filepath.Join(dir, "baselines.parquet"), baselines); err != nil {
		return nil, err
	}
	lines, err := SweepLines(dir, rows)
	if err != nil {
		return nil, err
	}
	if err := atomicio.WriteFile(filepath.Join(dir, SweepTableFile), func(w io.Writer) error { return WriteSweepMarkdown(w, lines) }); err != nil {
		return nil, err
	}
	if err := WriteReport(dir, ReportOptions{}); err != nil {
		return nil, err
	}
	return rows, nil
}

// checkSweepAxes refuses an axis that cannot change a point's result: ω
// (objective.omega) under an objective kind that does not read it (Eq. 5)
// would give identical points.
func checkSweepAxes(axes []SweepAxis, cfg configs.Config) error {
	for _, a := range axes {
		if a.Key != "objective.omega" {
			continue
		}
		rec, err := cfg.Objective.Record()
		if err != nil {
			return fmt.Errorf("sweep: %w", err)
		}
		if !rec.ReadsOmega() {
			kind, _ := simcore.ParseObjectiveKind(rec.Kind)
			var readers []string
			for _, k := range simcore.ObjectiveKinds() {
				if k.Reads().Omega {
					readers = append(readers, "objective.kind="+k.Name())
				}
			}
			return fmt.Errorf("sweep: objective.omega does nothing under objective.kind %s (%s), so every point would be the same; sweep objective.weights, or add %s",
				kind.Name(), kind.Doc(), simcore.OneOf(readers))
		}
	}
	return nil
}

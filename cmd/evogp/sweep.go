package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v2"
	"go.yaml.in/yaml/v3"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/datasets"
	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/internal/atomicio"
	"github.com/evogp/evogp/internal/parallel"
	"github.com/evogp/evogp/internal/progress"
	"github.com/evogp/evogp/learn"
	"github.com/evogp/evogp/reports"
	"github.com/evogp/evogp/simcore"
)

// A sweep (multirun) trains one learning run per point of the cartesian
// product of the swept overrides, as Hydra-style tools do:
//
//	evogp learn -m objective.omega=0,0.5,1 seed=1,2,3
//
// is 3 × 3 = 9 points, the last axis varying fastest. A value list in
// brackets is one value, not an axis (objective.weights=[1,0,1]).
//
// The sweep directory holds sweep.yaml (the command: config, fixed
// overrides, axes), points/<name>/ (one learn run directory per point),
// points/<name>/test.parquet (the learned policy and the baselines on the
// point's test set), and the merged sweep.parquet and baselines.parquet.
// Re-running the same command skips finished points and resumes
// interrupted ones; a different command in the same directory is an error.

// sweepAxis is one swept key and its values.
type sweepAxis struct {
	Key    string   `yaml:"key"`
	Values []string `yaml:"values"`
}

// sweepSpec is what sweep.yaml records.
type sweepSpec struct {
	Config string      `yaml:"config"`
	Fixed  []string    `yaml:"fixed"`
	Axes   []sweepAxis `yaml:"axes"`
}

// sweepBaselines are evaluated on every point's test set as references.
func sweepBaselines() []string { return []string{"spark", "liquid", "tiresias", "lyra"} }

// parseSweepArgs splits key=value arguments into fixed overrides and axes.
func parseSweepArgs(args []string) (fixed []string, axes []sweepAxis, err error) {
	seen := map[string]bool{}
	for _, a := range args {
		key, val, ok := strings.Cut(a, "=")
		if !ok || key == "" {
			return nil, nil, fmt.Errorf("sweep argument %q: want key=value or key=v1,v2 to sweep", a)
		}
		if seen[key] {
			return nil, nil, fmt.Errorf("sweep: key %q given twice", key)
		}
		seen[key] = true
		if strings.HasPrefix(val, "[") && strings.HasSuffix(val, "]") {
			fixed = append(fixed, key+"="+strings.TrimSuffix(strings.TrimPrefix(val, "["), "]"))
			continue
		}
		values := strings.Split(val, ",")
		for _, v := range values {
			if strings.TrimSpace(v) == "" {
				return nil, nil, fmt.Errorf("sweep argument %q: empty value", a)
			}
		}
		if len(values) == 1 {
			fixed = append(fixed, a)
			continue
		}
		axes = append(axes, sweepAxis{Key: key, Values: values})
	}
	return fixed, axes, nil
}

// sweepPoints is the cartesian product of the axes, last axis fastest.
func sweepPoints(axes []sweepAxis) [][]string {
	points := [][]string{nil}
	for _, ax := range axes {
		var next [][]string
		for _, p := range points {
			for _, v := range ax.Values {
				next = append(next, append(append([]string(nil), p...), ax.Key+"="+v))
			}
		}
		points = next
	}
	return points
}

// sweepDirName is the directory of a sweep row's point (every swept value,
// seed included).
func sweepDirName(r reports.SweepRow) string {
	if r.Overrides == "" {
		return pointName(nil)
	}
	return pointName(strings.Split(r.Overrides, " "))
}

// pointName is a point's directory name: its overrides joined by commas,
// with path separators replaced.
func pointName(overrides []string) string {
	if len(overrides) == 0 {
		return "base"
	}
	return strings.NewReplacer("/", "_", string(os.PathSeparator), "_").Replace(strings.Join(overrides, ","))
}

// sweepSettings is one sweep run.
type sweepSettings struct {
	Spec     sweepSpec
	Dir      string
	Jobs     int
	Progress progress.Options
}

// runSweepPoints trains and evaluates every point, then merges the tables.
func runSweepPoints(ctx context.Context, s sweepSettings) ([]reports.SweepRow, error) {
	base, err := configs.Load(s.Spec.Config)
	if err != nil {
		return nil, err
	}
	if base, err = base.Override(s.Spec.Fixed...); err != nil {
		return nil, err
	}
	points := sweepPoints(s.Spec.Axes)
	cfgs := make([]configs.Config, len(points))
	for i, p := range points {
		if cfgs[i], err = base.Override(p...); err != nil {
			return nil, fmt.Errorf("sweep point %s: %w", pointName(p), err)
		}
	}
	if err := claimSweepDir(s.Dir, s.Spec); err != nil {
		return nil, err
	}
	jobs := max(1, min(s.Jobs, len(points)))
	perPoint := max(1, runtime.GOMAXPROCS(0)/jobs)
	prog := progress.New("sweep points", len(points), s.Progress)
	defer prog.Finish()
	quiet := s.Progress
	quiet.Quiet = quiet.Quiet || jobs > 1 // one bar at a time

	rows := make([]reports.SweepRow, len(points))
	tests := make([][]reports.ResultRow, len(points))
	err = parallel.For(ctx, len(points), jobs, func(i int) error {
		cfg := cfgs[i]
		if cfg.GP.Workers == 0 {
			cfg.GP.Workers = perPoint
		}
		var err error
		rows[i], tests[i], err = runSweepPoint(ctx, filepath.Join(s.Dir, "points", pointName(points[i])), cfg, points[i], quiet)
		if err == nil {
			prog.Add(1)
		}
		return err
	})
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("sweep interrupted (%w); finished points are kept — run the same command again to resume", err)
		}
		return nil, err
	}
	var baselines []reports.ResultRow
	seen := map[string]bool{}
	for _, t := range tests {
		for _, r := range t {
			key := fmt.Sprintf("%s|%s|%d", r.Instance, r.Scheduler, r.Seed)
			if r.Scheduler != "gp" && !seen[key] {
				seen[key] = true
				baselines = append(baselines, r)
			}
		}
	}
	if err := reports.WriteSweep(filepath.Join(s.Dir, "sweep.parquet"), rows); err != nil {
		return nil, err
	}
	if err := reports.WriteResults(filepath.Join(s.Dir, "baselines.parquet"), baselines); err != nil {
		return nil, err
	}
	return rows, nil
}

// claimSweepDir creates the sweep directory with its sweep.yaml, or checks
// that an existing one was made by the same command.
func claimSweepDir(dir string, spec sweepSpec) error {
	want, err := yaml.Marshal(spec)
	if err != nil {
		return err
	}
	path := filepath.Join(dir, "sweep.yaml")
	got, err := os.ReadFile(path)
	if err == nil {
		if !bytes.Equal(got, want) {
			return fmt.Errorf("sweep: %s was made by a different sweep command (%s differs); use another --out", dir, path)
		}
		return nil
	}
	if entries, rerr := os.ReadDir(dir); rerr == nil && len(entries) > 0 {
		return fmt.Errorf("sweep: %s exists, is not empty and has no sweep.yaml", dir)
	}
	if err := os.MkdirAll(filepath.Join(dir, "points"), 0o755); err != nil {
		return fmt.Errorf("sweep: %w", err)
	}
	return atomicio.WriteBytes(path, want)
}

// runSweepPoint learns (or resumes, or reuses) one point and evaluates its
// policy and the baselines on the point's test set.
func runSweepPoint(ctx context.Context, dir string, cfg configs.Config, overrides []string, pr progress.Options) (reports.SweepRow, []reports.ResultRow, error) {
	// Point names the point without its seed, so the trade-off plot
	// averages a point over seeds; Overrides keeps every swept value.
	var noSeed []string
	for _, o := range overrides {
		if !strings.HasPrefix(o, "seed=") {
			noSeed = append(noSeed, o)
		}
	}
	row := reports.SweepRow{Point: pointName(noSeed), Omega: cfg.Objective.Omega, Seed: int64(cfg.Seed), Overrides: strings.Join(overrides, " ")}
	best, err := learnedTree(ctx, dir, cfg, pr)
	if err != nil {
		return row, nil, fmt.Errorf("sweep point %s: %w", row.Point, err)
	}
	testPath := filepath.Join(dir, "test.parquet")
	results, err := reports.ReadResults(testPath)
	if err != nil {
		if results, err = evaluatePoint(ctx, cfg, best); err != nil {
			return row, nil, fmt.Errorf("sweep point %s: %w", row.Point, err)
		}
		if err := reports.WriteResults(testPath, results); err != nil {
			return row, nil, err
		}
	}
	var n float64
	for _, r := range results {
		if r.Scheduler == "gp" {
			row.AvgJCT += r.AvgJCT
			row.MaxQT += r.MaxQT
			row.Objective += r.Objective
			n++
		}
	}
	if n > 0 {
		row.AvgJCT, row.MaxQT, row.Objective = row.AvgJCT/n, row.MaxQT/n, row.Objective/n
	}
	return row, results, nil
}

// learnedTree returns the best tree of the run in dir, running or resuming
// the run as needed.
func learnedTree(ctx context.Context, dir string, cfg configs.Config, pr progress.Options) (*expr.Tree, error) {
	if b, err := os.ReadFile(filepath.Join(dir, "best.json")); err == nil {
		var best learn.BestJSON
		if err := json.Unmarshal(b, &best); err != nil {
			return nil, fmt.Errorf("%s/best.json: %w", dir, err)
		}
		if best.Tree == nil {
			return nil, fmt.Errorf("%s/best.json: no tree", dir)
		}
		return best.Tree, nil
	}
	train, val, err := learn.LoadData(cfg)
	if err != nil {
		return nil, err
	}
	settings := learn.Settings{Config: cfg, Train: train, Validation: val, Out: dir, Progress: pr}
	var res *learn.Result
	if _, statErr := os.Stat(filepath.Join(dir, learn.CheckpointDir)); statErr == nil {
		res, err = learn.Resume(ctx, dir, settings)
	} else {
		res, err = learn.Run(ctx, settings)
	}
	if err != nil {
		return nil, err
	}
	return res.Best, nil
}

// testInstances is the test split of a config: data.test_dir, or
// data.test instances generated with the split seed of "test".
func testInstances(cfg configs.Config) ([]simcore.Instance, error) {
	if cfg.Data.TestDir != "" {
		ds, err := datasets.Read(cfg.Data.TestDir)
		if err != nil {
			return nil, fmt.Errorf("test set: %w", err)
		}
		return ds.Instances, nil
	}
	if cfg.Data.Test < 1 {
		return nil, errors.New("test set: data.test is 0 and no data.test_dir is given")
	}
	return datasets.Generate(cfg.Generator.Settings(), datasets.SplitSeed(cfg.Seed, "test"), cfg.Data.Test)
}

// evaluatePoint simulates the learned tree (as mct+formula+bestfit, named
// "gp") and the baselines on the config's test set.
func evaluatePoint(ctx context.Context, cfg configs.Config, best *expr.Tree) ([]reports.ResultRow, error) {
	insts, err := testInstances(cfg)
	if err != nil {
		return nil, err
	}
	opts, err := learn.SimOptions(cfg)
	if err != nil {
		return nil, err
	}
	gp, err := simcore.ParseScheduler("mct+formula+bestfit", map[string]simcore.Ranking{
		"formula": learn.NewFormulaRanking(best, cfg.GP.TimeUnit == "seconds")})
	if err != nil {
		return nil, err
	}
	scheds := []simcore.Scheduler{gp}
	names := []string{"gp"}
	for _, b := range sweepBaselines() {
		s, err := simcore.ParseScheduler(b, nil)
		if err != nil {
			return nil, err
		}
		scheds = append(scheds, s)
		names = append(names, b)
	}
	var rows []reports.ResultRow
	for k, s := range scheds {
		res, err := simulateAll(ctx, insts, s, opts, cfg.GP.Workers, nil)
		if err != nil {
			return nil, err
		}
		for _, r := range res {
			rows = append(rows, resultRow(r, names[k], int64(cfg.Seed)))
		}
	}
	sort.SliceStable(rows, func(a, b int) bool { return rows[a].Instance < rows[b].Instance })
	return rows, nil
}

// runSweep is `evogp learn -m`: the sweep over the key=v1,v2 arguments.
func runSweep(c *cli.Context) error {
	for _, f := range []string{"resume", "train", "validation"} {
		if c.IsSet(f) {
			return fmt.Errorf("learn -m: --%s is not supported in a sweep (set data.train_dir / data.validation_dir as overrides)", f)
		}
	}
	fixed, axes, err := parseSweepArgs(c.Args().Slice())
	if err != nil {
		return err
	}
	spec := sweepSpec{Config: c.String("config"), Fixed: fixed, Axes: axes}
	dir := c.String("out")
	if dir == "" {
		name := strings.TrimSuffix(filepath.Base(spec.Config), filepath.Ext(spec.Config))
		dir = filepath.Join("runs", "sweep-"+name+"-"+time.Now().UTC().Format("20060102T150405Z"))
	}
	if c.Int("jobs") < 1 {
		return fmt.Errorf("learn -m: --jobs %d: must be ≥ 1", c.Int("jobs"))
	}
	rows, err := runSweepPoints(c.Context, sweepSettings{Spec: spec, Dir: dir, Jobs: c.Int("jobs"),
		Progress: progress.Options{Out: c.App.ErrWriter, Quiet: c.Bool("quiet")}})
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(c.App.Writer, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "point\tomega\tseed\ttest avg_jct h\ttest max_qt h\ttest objective")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%g\t%d\t%.4f\t%.4f\t%.4f\n", r.Point, r.Omega, r.Seed, r.AvgJCT, r.MaxQT, r.Objective)
	}
	tw.Flush()
	fmt.Fprintf(c.App.Writer, "sweep directory: %s (evogp report %s draws the trade-off)\n", dir, dir)
	return nil
}

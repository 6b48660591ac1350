package experiment

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/datasets"
	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/formula"
	"github.com/evogp/evogp/internal/atomicio"
	"github.com/evogp/evogp/internal/progress"
	"github.com/evogp/evogp/launch"
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
// overrides, axes), provenance.json, points/<dir>/ (one learn run
// directory per point, named by PointDirName), points/<dir>/test.parquet
// (the learned policy and the baselines on the point's test set), and the
// merged sweep.parquet and baselines.parquet, and tasks/ (one task per
// point, see tasks.go: any launcher runs them). Re-running the same command
// skips finished points and resumes interrupted ones; a different command
// in the same directory is an error.

// SweepAxis is one swept key and its values.
type SweepAxis struct {
	Key    string   `yaml:"key"`
	Values []string `yaml:"values"`
}

// SweepSpec is what sweep.yaml records.
type SweepSpec struct {
	Config string      `yaml:"config"`
	Fixed  []string    `yaml:"fixed"`
	Axes   []SweepAxis `yaml:"axes"`
}

// ParseSweepArgs splits key=value arguments into fixed overrides and axes:
// key=v1,v2 is an axis, key=v and key=[v1,v2] are fixed.
func ParseSweepArgs(args []string) (fixed []string, axes []SweepAxis, err error) {
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
		axes = append(axes, SweepAxis{Key: key, Values: values})
	}
	return fixed, axes, nil
}

// SweepPoints is the cartesian product of the axes, last axis fastest; a
// point is its list of key=value overrides.
func SweepPoints(axes []SweepAxis) [][]string {
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

// PointName is a point's label in tables: its overrides joined by commas
// ("base" for none).
func PointName(overrides []string) string {
	if len(overrides) == 0 {
		return "base"
	}
	return strings.Join(overrides, ",")
}

// PointDirName is a point's directory name, safe for every tool (shells,
// the go command, URLs): each key=value becomes key-value, joined by "_",
// using only ASCII letters, digits, '.', '-' and '_'. Other characters
// become '-', and then a hash of the overrides is appended so that
// distinct points keep distinct names:
//
//	[objective.omega=0.5 seed=1] → objective.omega-0.5_seed-1
func PointDirName(overrides []string) string {
	if len(overrides) == 0 {
		return "base"
	}
	parts := make([]string, len(overrides))
	lossy := false
	for i, o := range overrides {
		k, v, _ := strings.Cut(o, "=")
		ks, kl := safeName(k)
		vs, vl := safeName(v)
		parts[i] = ks + "-" + vs
		lossy = lossy || kl || vl
	}
	name := strings.Join(parts, "_")
	if lossy {
		h := fnv.New32a()
		h.Write([]byte(strings.Join(overrides, "\x00")))
		name += fmt.Sprintf("-%08x", h.Sum32())
	}
	return name
}

// safeName keeps ASCII letters, digits, '.' and '-' and replaces anything
// else by '-'; lossy says whether a replacement happened.
func safeName(s string) (string, bool) {
	lossy := false
	b := []byte(s)
	for i, c := range b {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-'
		if !ok {
			b[i] = '-'
			lossy = true
		}
	}
	return string(b), lossy
}

// legacyPointDirName is the directory name earlier versions used (the
// overrides joined by commas, with '=' in them); such directories are
// renamed to PointDirName when a sweep resumes.
func legacyPointDirName(overrides []string) string {
	if len(overrides) == 0 {
		return "base"
	}
	return strings.NewReplacer("/", "_", string(os.PathSeparator), "_").Replace(strings.Join(overrides, ","))
}

// rowOverrides is the list of overrides of a sweep row.
func rowOverrides(r reports.SweepRow) []string {
	if r.Overrides == "" {
		return nil
	}
	return strings.Split(r.Overrides, " ")
}

// pointDirOf is the directory of a sweep row's point under the sweep
// directory dir (the legacy name if only that exists).
func pointDirOf(dir string, r reports.SweepRow) string {
	o := rowOverrides(r)
	p := filepath.Join(dir, "points", PointDirName(o))
	if _, err := os.Stat(p); errors.Is(err, fs.ErrNotExist) {
		if old := filepath.Join(dir, "points", legacyPointDirName(o)); dirExists(old) {
			return old
		}
	}
	return p
}

func dirExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// SweepSettings describe one sweep run.
type SweepSettings struct {
	Spec       SweepSpec
	Dir        string
	Jobs       int // points run side by side
	Progress   progress.Options
	Provenance Provenance
}

// Sweep trains and evaluates every point of s.Spec in s.Dir (resuming or
// skipping points already there), then writes the merged sweep.parquet and
// baselines.parquet. The rows are in point order. It is the local
// launcher: the directory's tasks (PrepareSweep) run on a pool of s.Jobs
// goroutines (RunTasksLocal) and are merged by CollectSweep, the code
// path every launcher shares (SPEC §15).
func Sweep(ctx context.Context, s SweepSettings) ([]reports.SweepRow, error) {
	if s.Jobs < 1 {
		return nil, fmt.Errorf("sweep: jobs = %d: must be ≥ 1", s.Jobs)
	}
	n, err := PrepareSweep(s.Dir, s.Spec, s.Provenance)
	if err != nil {
		return nil, err
	}
	jobs := max(1, min(s.Jobs, n))
	perPoint := max(1, runtime.GOMAXPROCS(0)/jobs)
	weights, err := sweepWeights(s.Dir, n)
	if err != nil {
		return nil, err
	}
	// Progress counts per mille of the estimated work, so the ETA holds
	// when points differ in cost (population, generations, data sizes).
	wp := newWeightedProgress(weights)
	var mu sync.Mutex
	prog := progress.New(fmt.Sprintf("sweep of %d points (‰ of estimated work)", n), workUnits, s.Progress)
	defer prog.Finish()
	quiet := s.Progress
	quiet.Quiet = quiet.Quiet || jobs > 1 // one bar at a time
	err = RunTasksLocal(ctx, s.Dir, jobs, TaskRunOptions{Workers: perPoint, Progress: quiet, Provenance: s.Provenance}, func(i int) {
		mu.Lock()
		defer mu.Unlock()
		prog.Add(wp.finish(i))
	})
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("sweep interrupted (%w); finished points are kept — run the same command again to resume", err)
		}
		return nil, err
	}
	return CollectSweep(s.Dir)
}

// pointDir is the directory of a point, renaming a directory with the
// legacy name if only that exists.
func pointDir(sweepDir string, overrides []string) (string, error) {
	p := filepath.Join(sweepDir, "points", PointDirName(overrides))
	old := filepath.Join(sweepDir, "points", legacyPointDirName(overrides))
	if old != p && !dirExists(p) && dirExists(old) {
		if err := os.Rename(old, p); err != nil {
			return "", fmt.Errorf("sweep: rename %s to a tool-safe name: %w", old, err)
		}
	}
	return p, nil
}

// claimSweepDir creates the sweep directory with its sweep.yaml, or checks
// that an existing one was made by the same command.
func claimSweepDir(dir string, spec SweepSpec) error {
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
func runSweepPoint(ctx context.Context, dir string, cfg configs.Config, overrides []string, pr progress.Options, prov Provenance) (reports.SweepRow, []reports.ResultRow, error) {
	row := sweepPoint(cfg, overrides)
	best, err := learnedTree(ctx, dir, cfg, pr, prov)
	if err != nil {
		return row, nil, fmt.Errorf("sweep point %s: %w", row.Point, err)
	}
	testPath := filepath.Join(dir, "test.parquet")
	results, err := reports.ReadResults(testPath)
	if err != nil {
		if results, err = evaluatePoint(ctx, cfg, best, filepath.Join(dir, formula.BestFile)); err != nil {
			return row, nil, fmt.Errorf("sweep point %s: %w", row.Point, err)
		}
		if err := reports.WriteResults(testPath, results); err != nil {
			return row, nil, err
		}
	}
	return sweepRow(cfg, overrides, results), results, nil
}

// sweepPoint is a point's row of sweep.parquet before its results:
// Point names the point without its seed, so the trade-off plot averages
// a point over seeds; Overrides keeps every swept value; Omega is the
// config's objective.omega, the trade-off plot's axis.
func sweepPoint(cfg configs.Config, overrides []string) reports.SweepRow {
	var noSeed []string
	for _, o := range overrides {
		if !strings.HasPrefix(o, "seed=") {
			noSeed = append(noSeed, o)
		}
	}
	return reports.SweepRow{Point: PointName(noSeed), Omega: cfg.Objective.Omega, Seed: int64(cfg.Seed), Overrides: strings.Join(overrides, " ")}
}

// sweepRow is a point's row of sweep.parquet: the means of the learned
// policy's ("gp") test results.
func sweepRow(cfg configs.Config, overrides []string, results []reports.ResultRow) reports.SweepRow {
	row := sweepPoint(cfg, overrides)
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
	return row
}

// TestInstances is the test split of a config: data.test_dir, or data.test
// instances generated with the split seed of "test".
func TestInstances(cfg configs.Config) ([]simcore.Instance, error) {
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
	return datasets.Generate(genSettings(cfg), datasets.SplitSeed(cfg.DataSeed(), "test"), cfg.Data.Test)
}

// evaluatePoint simulates the learned tree (as FormulaScheduler, labelled
// "gp") and the baselines on the config's test set. A point that learned
// a routing tree too (its best.json at bestPath) runs as it was learned,
// rule(R, scope) + f + placer, never MCT + f.
func evaluatePoint(ctx context.Context, cfg configs.Config, best *expr.Tree, bestPath string) ([]reports.ResultRow, error) {
	insts, err := TestInstances(cfg)
	if err != nil {
		return nil, err
	}
	opts, err := configs.SimOptions(cfg)
	if err != nil {
		return nil, err
	}
	rp, err := configs.RuleParams(cfg)
	if err != nil {
		return nil, err
	}
	b := PolicyBuilder{EVO: EVOParams(cfg), Rule: rp}
	gp, err := b.treePolicy(FormulaScheduler, best, cfg.GP.TimeUnit == "seconds")
	if err != nil {
		return nil, err
	}
	if cfg.GP.LearnsRouting() {
		routing, err := formula.ReadBestRouting(bestPath)
		if err != nil {
			return nil, err
		}
		if routing == nil {
			return nil, fmt.Errorf("%s: the point learns a routing tree (gp.learn = [routing, ranking]) but its best.json has none", bestPath)
		}
		rb := b
		rb.Seconds = cfg.GP.TimeUnit == "seconds"
		if gp, err = rb.routingPolicy(routing, best.String()); err != nil {
			return nil, fmt.Errorf("%s: %w", bestPath, err)
		}
	}
	gp.Label = "gp"
	policies := []Policy{gp}
	for _, name := range Baselines() {
		p, err := b.Policy(name, "")
		if err != nil {
			return nil, err
		}
		policies = append(policies, p)
	}
	var rows []reports.ResultRow
	for _, p := range policies {
		res, err := SimulateAll(ctx, insts, p, opts, cfg.GP.Workers, nil)
		if err != nil {
			return nil, err
		}
		for _, r := range res {
			rows = append(rows, ResultRow(r, p.Label, int64(cfg.Seed)))
		}
	}
	sort.SliceStable(rows, func(a, b int) bool { return rows[a].Instance < rows[b].Instance })
	return rows, nil
}

// sweepWeights is the estimated cost (pointCost) of each of the n points
// of the sweep directory dir, 0 for a point already done.
func sweepWeights(dir string, n int) ([]float64, error) {
	weights := make([]float64, n)
	for i := range weights {
		st, err := launch.ReadTaskState(dir, i)
		if err != nil {
			return nil, err
		}
		if st.State == launch.TaskDone {
			continue
		}
		spec, err := launch.ReadTaskSpec(dir, i)
		if err != nil {
			return nil, err
		}
		cfg, err := pointConfig(spec.Inputs.Config, spec.Inputs.Fixed, spec.Inputs.Point)
		if err != nil {
			return nil, err
		}
		weights[i] = pointCost(cfg)
	}
	return weights, nil
}

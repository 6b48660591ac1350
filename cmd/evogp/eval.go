package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/evogp/evogp/datasets"
	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/internal/atomicio"
	"github.com/evogp/evogp/internal/progress"
	"github.com/evogp/evogp/learn"
	"github.com/evogp/evogp/reports"
	"github.com/evogp/evogp/simcore"
)

// markerFile marks an output directory written by evogp eval or pressure;
// only such a directory may be replaced by a later run.
const markerFile = "evogp.json"

// formulaScheduler is the scheduler a formula entry runs under: MCT-GP,
// MCT allocation + the formula + best fit (SPEC §5.3).
const formulaScheduler = "mct+formula+bestfit"

func evalCommand() *cli.Command {
	return &cli.Command{
		Name:  "eval",
		Usage: "simulate several schedulers on every instance of a dataset and write tables, a summary and figures",
		UsageText: "evogp eval --dataset DIR --out DIR [--schedulers LIST] [options]\n\n" +
			"Examples:\n" +
			"   evogp eval --dataset data/test --out out/eval\n" +
			"   evogp eval --dataset data/test --schedulers spark,liquid,tiresias,lyra,gp=runs/quick/best.json,mine=\"g*d+q\" --out out/eval --format png,svg,pdf",
		Description: "Each entry of --schedulers is a scheduler name (spark, liquid, tiresias, lyra),\n" +
			"an ALLOCATOR+RANKING+PLACER combination, or LABEL=SOURCE where SOURCE is a best.json,\n" +
			"a run directory holding best.json, or a formula over d, q, u, g; LABEL=SOURCE runs\n" +
			"MCT + the formula + best fit; a learner run's formula reads d and q in that run's\n" +
			"gp.time_unit (from its config.yaml) unless --time-unit is given.\n" +
			"The output directory gets results.parquet, jobs.parquet,\n" +
			"summary.md, summary.csv, the figures and " + markerFile + "; it is built in a temporary\n" +
			"directory and appears complete or not at all. An existing output directory is replaced\n" +
			"only if it was written by evogp (has " + markerFile + ").",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "dataset", Required: true, Usage: "dataset directory (Parquet or CSV)"},
			&cli.StringFlag{Name: "out", Required: true, Usage: "output directory"},
			&cli.StringFlag{Name: "schedulers", Value: "spark,liquid,tiresias,lyra", Usage: "comma-separated scheduler entries (see the description)"},
			&cli.StringFlag{Name: "format", Value: "png,svg", Usage: "figure formats: png, svg, pdf"},
			&cli.StringFlag{Name: "reference", Value: reports.DefaultReference, Usage: "scheduler label that normalises objectives in the summary"},
			&cli.StringFlag{Name: "instance", Usage: "instance for the per-instance figures (default: the first)"},
			&cli.IntFlag{Name: "workers", Usage: "simulations in parallel (0 = all cores)"},
			&cli.BoolFlag{Name: "quiet", Usage: "no progress output"},
		}, simFlags()...),
		Action: runEval,
	}
}

// labelled is a scheduler with the label it has in the output tables.
type labelled struct {
	Label  string `json:"label"`
	Spec   string `json:"spec"`              // the entry as given
	Name   string `json:"scheduler"`         // the resolved scheduler
	Source string `json:"formula,omitempty"` // the formula of a LABEL=SOURCE entry
	// TimeUnit is the unit of d and q inside the formula: the learner run's
	// gp.time_unit for a run directory or a best.json beside its
	// config.yaml, unless --time-unit was given; otherwise the flag's.
	TimeUnit string `json:"time_unit,omitempty"`
	sched    simcore.Scheduler
}

// parseSchedulerList resolves a comma-separated list of scheduler entries
// (see evalCommand). Labels must be unique. seconds is the --time-unit
// flag's choice; explicit says whether the flag was given, in which case it
// also overrides the time unit of learner runs.
func parseSchedulerList(list string, seconds, explicit bool) ([]labelled, error) {
	var out []labelled
	seen := map[string]bool{}
	for _, entry := range strings.Split(list, ",") {
		entry = strings.TrimSpace(entry)
		if entry == "" {
			return nil, fmt.Errorf("schedulers %q: empty entry", list)
		}
		l := labelled{Label: entry, Spec: entry}
		var err error
		if label, source, ok := strings.Cut(entry, "="); ok {
			l.Label = strings.TrimSpace(label)
			if l.Label == "" {
				return nil, fmt.Errorf("scheduler entry %q: empty label", entry)
			}
			var runSeconds *bool
			if l.Source, runSeconds, err = formulaSource(strings.TrimSpace(source)); err != nil {
				return nil, fmt.Errorf("scheduler %s: %w", l.Label, err)
			}
			sec := seconds
			if runSeconds != nil && !explicit {
				sec = *runSeconds
			}
			l.TimeUnit = "hours"
			if sec {
				l.TimeUnit = "seconds"
			}
			l.sched, err = buildScheduler(formulaScheduler, l.Source, sec)
		} else {
			l.sched, err = buildScheduler(entry, "", seconds)
		}
		if err != nil {
			return nil, err
		}
		l.Name = l.sched.Name()
		if seen[l.Label] {
			return nil, fmt.Errorf("schedulers %q: label %q appears twice", list, l.Label)
		}
		seen[l.Label] = true
		out = append(out, l)
	}
	return out, nil
}

// formulaSource returns the formula of a LABEL=SOURCE entry: the infix of
// SOURCE if it names a .json file or a directory holding best.json,
// otherwise SOURCE itself, which must parse as a formula. For a best.json
// with a learner config.yaml beside it, seconds reports whether that run
// measured d and q in seconds (gp.time_unit); it is nil otherwise.
func formulaSource(source string) (formula string, seconds *bool, err error) {
	path := ""
	if strings.HasSuffix(strings.ToLower(source), ".json") {
		path = source
	} else if st, err := os.Stat(source); err == nil && st.IsDir() {
		path = filepath.Join(source, "best.json")
	}
	if path != "" {
		if formula, err = readBestInfix(path); err != nil {
			return "", nil, err
		}
		dir := filepath.Dir(path)
		if _, statErr := os.Stat(filepath.Join(dir, learn.ConfigFile)); statErr == nil {
			cfg, err := learn.RunConfig(dir)
			if err != nil {
				return "", nil, err
			}
			sec := cfg.GP.TimeUnit == "seconds"
			seconds = &sec
		}
		return formula, seconds, nil
	}
	if _, err := expr.Parse(source); err != nil {
		if strings.ContainsAny(source, `/\`) {
			return "", nil, fmt.Errorf("%q is neither a run directory or best.json nor a formula (%w)", source, err)
		}
		return "", nil, fmt.Errorf("formula %q: %w", source, err)
	}
	return source, nil, nil
}

// readBestInfix reads the "infix" field of a learner's best.json and checks
// that it parses.
func readBestInfix(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("read best.json: %w", err)
	}
	var best struct {
		Infix *string `json:"infix"`
	}
	if err := json.Unmarshal(b, &best); err != nil {
		return "", fmt.Errorf("%s: not valid JSON: %w", path, err)
	}
	if best.Infix == nil || strings.TrimSpace(*best.Infix) == "" {
		return "", fmt.Errorf("%s: no \"infix\" formula", path)
	}
	if _, err := expr.Parse(*best.Infix); err != nil {
		return "", fmt.Errorf("%s: infix %q: %w", path, *best.Infix, err)
	}
	return *best.Infix, nil
}

// parseFormats checks a comma-separated list of figure formats.
func parseFormats(s string) ([]string, error) {
	var out []string
	for _, f := range strings.Split(s, ",") {
		f = strings.ToLower(strings.TrimSpace(f))
		known := false
		for _, k := range reports.Formats() {
			known = known || f == k
		}
		if !known {
			return nil, fmt.Errorf("format %q: want a comma-separated list of %s", f, strings.Join(reports.Formats(), ", "))
		}
		out = append(out, f)
	}
	return out, nil
}

// checkOutDir refuses an output directory that exists, is not empty and
// has no marker file (so was not written by evogp).
func checkOutDir(out string) error {
	entries, err := os.ReadDir(out)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("output %s: %w", out, err)
	}
	if len(entries) == 0 {
		return nil
	}
	if _, err := os.Stat(filepath.Join(out, markerFile)); err != nil {
		return fmt.Errorf("output %s exists, is not empty and has no %s (not written by evogp); refusing to replace it", out, markerFile)
	}
	return nil
}

// writeOutDir builds the output directory with fill in a temporary sibling
// and then puts it in place: a new or empty out is created atomically, an
// evogp-written out (see checkOutDir) is swapped for the new one and then
// removed. On error nothing changes at out.
func writeOutDir(out string, fill func(tmp string) error) error {
	if err := checkOutDir(out); err != nil {
		return err
	}
	if entries, err := os.ReadDir(out); err != nil || len(entries) == 0 {
		return atomicio.Dir(out, fill)
	}
	parent, base := filepath.Dir(out), filepath.Base(out)
	staging, err := os.MkdirTemp(parent, "."+base+".new-*")
	if err != nil {
		return fmt.Errorf("output %s: %w", out, err)
	}
	if err := atomicio.Dir(staging, fill); err != nil {
		os.RemoveAll(staging)
		return err
	}
	old, err := os.MkdirTemp(parent, "."+base+".old-*")
	if err == nil {
		err = os.Remove(old)
	}
	if err == nil {
		err = os.Rename(out, old)
	}
	if err != nil {
		os.RemoveAll(staging)
		return fmt.Errorf("output %s: %w", out, err)
	}
	if err := os.Rename(staging, out); err != nil {
		os.Rename(old, out)
		os.RemoveAll(staging)
		return fmt.Errorf("output %s: %w", out, err)
	}
	if err := os.RemoveAll(old); err != nil {
		return fmt.Errorf("output %s written, but the previous one is left at %s: %w", out, old, err)
	}
	return nil
}

// evalManifest is the content of the marker file of an eval directory.
type evalManifest struct {
	Command    string     `json:"command"`
	Dataset    string     `json:"dataset"`
	Instances  int        `json:"instances"`
	Schedulers []labelled `json:"schedulers"`
	Reference  string     `json:"reference"`
	Instance   string     `json:"instance,omitempty"`
	Objective  string     `json:"objective"`
	Weights    string     `json:"weights"`
	Omega      float64    `json:"omega"`
	Trigger    string     `json:"trigger"`
	Backfill   string     `json:"backfill"`
	TimeUnit   string     `json:"time_unit"`
}

func runEval(c *cli.Context) error {
	if c.NArg() > 0 {
		return fmt.Errorf("%s: unexpected argument %q (flags only; see evogp %s --help)", c.Command.Name, c.Args().First(), c.Command.Name)
	}
	opts, err := simOptionsFrom(c)
	if err != nil {
		return err
	}
	seconds, err := secondsUnit(c)
	if err != nil {
		return err
	}
	formats, err := parseFormats(c.String("format"))
	if err != nil {
		return err
	}
	scheds, err := parseSchedulerList(c.String("schedulers"), seconds, c.IsSet("time-unit"))
	if err != nil {
		return err
	}
	out := c.String("out")
	if err := checkOutDir(out); err != nil {
		return err
	}
	ds, err := datasets.Read(c.String("dataset"))
	if err != nil {
		return err
	}
	if len(ds.Instances) == 0 {
		return fmt.Errorf("dataset %s has no instances", c.String("dataset"))
	}
	instance := c.String("instance")
	if instance != "" && !hasInstance(ds.Instances, instance) {
		return fmt.Errorf("--instance %q: not in dataset %s", instance, c.String("dataset"))
	}

	prog := progress.New("eval", len(scheds)*len(ds.Instances), progress.Options{Out: c.App.ErrWriter, Quiet: c.Bool("quiet")})
	var t tables
	for _, s := range scheds {
		prog.Describe(s.Label)
		res, err := simulateAll(c.Context, ds.Instances, s.sched, opts, c.Int("workers"), prog)
		if err != nil {
			prog.Finish()
			return fmt.Errorf("scheduler %s: %w", s.Label, err)
		}
		for _, r := range res {
			t.results = append(t.results, resultRow(r, s.Label, 0))
			t.jobs = append(t.jobs, jobRows(r, s.Label)...)
		}
	}
	prog.Finish()

	man := evalManifest{
		Command: "eval", Dataset: c.String("dataset"), Instances: len(ds.Instances), Schedulers: scheds,
		Reference: c.String("reference"), Instance: instance, Objective: c.String("objective"), Weights: c.String("weights"),
		Omega: c.Float64("omega"), Trigger: c.String("trigger"), Backfill: c.String("backfill"), TimeUnit: c.String("time-unit"),
	}
	fo := figureOptions{Formats: formats, Instance: instance, Reference: c.String("reference")}
	// Summary and figures are computed before anything is written.
	files, err := t.render(fo)
	if err != nil {
		return err
	}
	err = writeOutDir(out, func(tmp string) error {
		if err := reports.WriteResults(filepath.Join(tmp, "results.parquet"), t.results); err != nil {
			return err
		}
		if err := reports.WriteJobs(filepath.Join(tmp, "jobs.parquet"), t.jobs); err != nil {
			return err
		}
		if err := files.write(tmp); err != nil {
			return err
		}
		return writeManifest(filepath.Join(tmp, markerFile), man)
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(c.App.Writer, "wrote %s: %d schedulers × %d instances, %s\n", out, len(scheds), len(ds.Instances), strings.Join(files.names(), ", "))
	return nil
}

func hasInstance(insts []simcore.Instance, name string) bool {
	for i := range insts {
		if insts[i].Name == name {
			return true
		}
	}
	return false
}

func writeManifest(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return atomicio.WriteBytes(path, append(b, '\n'))
}

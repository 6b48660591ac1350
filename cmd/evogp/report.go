package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/evogp/evogp/internal/atomicio"
	"github.com/evogp/evogp/reports"
)

func reportCommand() *cli.Command {
	return &cli.Command{
		Name:      "report",
		Usage:     "redraw the summary and figures of eval, pressure or learn output directories from their tables",
		ArgsUsage: "DIR...",
		UsageText: "evogp report DIR... [--format png,svg,pdf] [--instance NAME] [--reference NAME]\n\n" +
			"Examples:\n" +
			"   evogp report out/eval\n" +
			"   evogp report runs/quick out/eval out/pressure --format png,svg,pdf",
		Description: "Reads whichever of results.parquet, jobs.parquet, generations.parquet,\n" +
			"sweep.parquet (with baselines.parquet) and pressure.parquet each DIR holds (nothing is\n" +
			"simulated again) and writes into DIR: summary.md and summary.csv (from results), ranking,\n" +
			"breakdown_mean, breakdown_INSTANCE (results), queue_density_INSTANCE, jct_cdf (jobs),\n" +
			"convergence (generations), tradeoff (sweep, with baselines.parquet — or results — as\n" +
			"reference lines) and pressure (pressure).\n" +
			"Every table is read and every file rendered before any file is written.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Value: "png,svg", Usage: "figure formats: png, svg, pdf"},
			&cli.StringFlag{Name: "instance", Usage: "instance for the per-instance figures (default: the first)"},
			&cli.StringFlag{Name: "reference", Value: reports.DefaultReference, Usage: "scheduler that normalises objectives in the summary"},
		},
		Action: runReport,
	}
}

// tables are the result tables of one output directory.
type tables struct {
	results     []reports.ResultRow
	jobs        []reports.JobRow
	generations []reports.GenerationRow
	sweep       []reports.SweepRow
	baselines   []reports.ResultRow      // baselines.parquet of a sweep
	points      []reports.RunGenerations // points/*/generations.parquet of a sweep
	pressure    []reports.PressureRow
}

// figureOptions choose what tables.render draws.
type figureOptions struct {
	Formats   []string
	Instance  string // per-instance figures; "" = first instance of the table
	Reference string // normalising scheduler of the summary
}

// renderedFile is one output file's name and bytes.
type renderedFile struct {
	name string
	data []byte
}

type renderedFiles []renderedFile

func (r renderedFiles) names() []string {
	out := make([]string, len(r))
	for i, f := range r {
		out[i] = f.name
	}
	return out
}

// write writes every file into dir atomically.
func (r renderedFiles) write(dir string) error {
	for _, f := range r {
		if err := atomicio.WriteBytes(filepath.Join(dir, f.name), f.data); err != nil {
			return err
		}
	}
	return nil
}

// render computes the summary and every figure the tables allow, in memory.
func (t tables) render(o figureOptions) (renderedFiles, error) {
	var out renderedFiles
	addFig := func(f *reports.Figure, err error) error {
		if err != nil {
			return err
		}
		for _, format := range o.Formats {
			b, err := f.Render(format)
			if err != nil {
				return err
			}
			out = append(out, renderedFile{f.Name + "." + format, b})
		}
		return nil
	}
	if len(t.results) > 0 {
		s, err := reports.Summarize(t.results, reports.SummaryOptions{Reference: o.Reference})
		if err != nil {
			return nil, err
		}
		var md, csv bytes.Buffer
		if err := reports.WriteSummaryMarkdown(&md, s); err != nil {
			return nil, err
		}
		if err := reports.WriteSummaryCSV(&csv, s); err != nil {
			return nil, err
		}
		out = append(out, renderedFile{"summary.md", md.Bytes()}, renderedFile{"summary.csv", csv.Bytes()})
		if s.Ranked > 0 {
			if err := addFig(reports.RankingPlot(t.results)); err != nil {
				return nil, err
			}
		}
		if err := addFig(reports.BreakdownPlot(t.results, "")); err != nil {
			return nil, err
		}
		inst := o.Instance
		if inst == "" {
			inst = t.results[0].Instance
		}
		if err := addFig(reports.BreakdownPlot(t.results, inst)); err != nil {
			return nil, err
		}
	}
	if len(t.jobs) > 0 {
		inst := o.Instance
		if inst == "" {
			inst = t.jobs[0].Instance
			if len(t.results) > 0 {
				inst = t.results[0].Instance
			}
		}
		if err := addFig(reports.QueueDensityPlot(t.jobs, inst)); err != nil {
			return nil, err
		}
		if err := addFig(reports.JCTCDFPlot(t.jobs)); err != nil {
			return nil, err
		}
	}
	if len(t.generations) > 0 {
		if err := addFig(reports.ConvergencePlot(t.generations)); err != nil {
			return nil, err
		}
	}
	if len(t.sweep) > 0 {
		base := t.baselines
		if base == nil {
			base = t.results
		}
		if err := addFig(reports.TradeoffPlot(t.sweep, base)); err != nil {
			return nil, err
		}
	}
	if len(t.points) > 0 {
		if err := addFig(reports.ConvergenceOverlayPlot(t.points)); err != nil {
			return nil, err
		}
	}
	if len(t.pressure) > 0 {
		if err := addFig(reports.PressurePlot(t.pressure)); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// manifestDefaults takes the reference scheduler and the per-instance
// figure's instance from an eval directory's marker file unless the flags
// are given, so that report redraws what eval drew.
func manifestDefaults(c *cli.Context, dir string, o *figureOptions) error {
	b, err := os.ReadFile(filepath.Join(dir, markerFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	var m evalManifest
	if err := json.Unmarshal(b, &m); err != nil {
		return fmt.Errorf("report %s: %s is not valid JSON: %w", dir, markerFile, err)
	}
	if !c.IsSet("reference") && m.Reference != "" {
		o.Reference = m.Reference
	}
	if !c.IsSet("instance") && m.Instance != "" {
		o.Instance = m.Instance
	}
	return nil
}

// readTables reads every known table present in dir; it is an error if
// there is none.
func readTables(dir string) (tables, error) {
	var t tables
	st, err := os.Stat(dir)
	if err != nil {
		return t, fmt.Errorf("report: %w", err)
	}
	if !st.IsDir() {
		return t, fmt.Errorf("report %s: not a directory", dir)
	}
	found := 0
	read := func(name string, load func(string) error) error {
		p := filepath.Join(dir, name)
		if _, err := os.Stat(p); errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		found++
		return load(p)
	}
	steps := []struct {
		name string
		load func(string) error
	}{
		{"results.parquet", func(p string) (err error) { t.results, err = reports.ReadResults(p); return }},
		{"jobs.parquet", func(p string) (err error) { t.jobs, err = reports.ReadJobs(p); return }},
		{"generations.parquet", func(p string) (err error) { t.generations, err = reports.ReadGenerations(p); return }},
		{"sweep.parquet", func(p string) (err error) { t.sweep, err = reports.ReadSweep(p); return }},
		{"baselines.parquet", func(p string) (err error) { t.baselines, err = reports.ReadResults(p); return }},
		{"pressure.parquet", func(p string) (err error) { t.pressure, err = reports.ReadPressure(p); return }},
	}
	for _, s := range steps {
		if err := read(s.name, s.load); err != nil {
			return t, err
		}
	}
	if len(t.sweep) > 0 {
		// A sweep's points are learn run directories: overlay their
		// convergence curves, in sweep.parquet's point order.
		for _, r := range t.sweep {
			label := r.Overrides
			if label == "" {
				label = r.Point
			}
			p := filepath.Join(dir, "points", sweepDirName(r), "generations.parquet")
			rows, err := reports.ReadGenerations(p)
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err != nil {
				return t, err
			}
			t.points = append(t.points, reports.RunGenerations{Label: label, Rows: rows})
		}
	}
	if found == 0 {
		names := make([]string, len(steps))
		for i, s := range steps {
			names[i] = s.name
		}
		return t, fmt.Errorf("report %s: no result table (looked for %s)", dir, strings.Join(names, ", "))
	}
	return t, nil
}

func runReport(c *cli.Context) error {
	dirs, err := positionalArgs(c)
	if err != nil {
		return err
	}
	if len(dirs) == 0 {
		return errors.New("report: give at least one directory (see evogp report --help)")
	}
	formats, err := parseFormats(c.String("format"))
	if err != nil {
		return err
	}
	all := make([]renderedFiles, len(dirs))
	for i, dir := range dirs {
		t, err := readTables(dir)
		if err != nil {
			return err
		}
		o := figureOptions{Formats: formats, Instance: c.String("instance"), Reference: c.String("reference")}
		if err := manifestDefaults(c, dir, &o); err != nil {
			return err
		}
		if all[i], err = t.render(o); err != nil {
			return fmt.Errorf("report %s: %w", dir, err)
		}
	}
	for i, dir := range dirs {
		if err := all[i].write(dir); err != nil {
			return err
		}
		fmt.Fprintf(c.App.Writer, "%s: %s\n", dir, strings.Join(all[i].names(), ", "))
	}
	return nil
}

// positionalArgs returns the positional arguments of c and applies any of
// the command's flags written after them: urfave/cli stops parsing flags at
// the first positional argument, but `evogp report DIR --format svg` is
// what people type. "--name value", "--name=value" and, for boolean flags,
// "--name" are understood; an unknown flag is an error.
func positionalArgs(c *cli.Context) ([]string, error) {
	isBool := map[string]bool{}
	known := map[string]bool{}
	for _, f := range c.Command.Flags {
		_, b := f.(*cli.BoolFlag)
		for _, n := range f.Names() {
			known[n], isBool[n] = true, b
		}
	}
	var pos []string
	args := c.Args().Slice()
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			pos = append(pos, args[i+1:]...)
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			pos = append(pos, a)
			continue
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !known[name] {
			return nil, fmt.Errorf("%s: unknown flag %s (see evogp %s --help)", c.Command.Name, a, c.Command.Name)
		}
		if !hasVal {
			if isBool[name] {
				val = "true"
			} else {
				if i+1 >= len(args) {
					return nil, fmt.Errorf("%s: flag %s needs a value", c.Command.Name, a)
				}
				i++
				val = args[i]
			}
		}
		if err := c.Set(name, val); err != nil {
			return nil, fmt.Errorf("%s: flag %s: %w", c.Command.Name, a, err)
		}
	}
	return pos, nil
}

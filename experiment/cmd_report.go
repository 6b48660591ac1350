package experiment

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/evogp/evogp/reports"
)

// RedrawHelp is the description of `evogp report`: the tables Redraw
// reads and the files it writes.
const RedrawHelp = "Reads whichever of results.parquet, jobs.parquet, generations.parquet,\n" +
	"sweep.parquet (with baselines.parquet), pressure.parquet and ops.parquet each DIR holds (nothing is\n" +
	"simulated again) and writes into DIR: summary.md and summary.csv (from results), ranking,\n" +
	"breakdown_mean, breakdown_INSTANCE (results), queue_density_INSTANCE, jct_cdf (jobs),\n" +
	"convergence (generations), tradeoff (sweep, with baselines.parquet — or results — as\n" +
	"reference lines), pressure (pressure), evo_op_time (ops: paper Fig. 12) and evo_rankings\n" +
	"(results of EVO schedulers and their MCT counterparts as paired in an eval manifest: Fig. 11b).\n" +
	"Every table is read and every file rendered before any file is written."

// RedrawOptions say what `evogp report` redraws.
type RedrawOptions struct {
	// Dirs are eval, pressure, learn or sweep output directories.
	Dirs []string
	// Formats is the comma-separated list of figure formats
	// (reports.ParseFormats).
	Formats string
	// Instance is the instance of the per-instance figures and Reference
	// the scheduler that normalises objectives. Each given one
	// (InstanceGiven, ReferenceGiven) wins over an eval manifest's; a
	// given Reference must be among the results.
	Instance, Reference           string
	InstanceGiven, ReferenceGiven bool
	// ReportInstances is report.html's per-instance figure limit.
	ReportInstances int
}

// Redraw reads the tables of every directory, renders its summary,
// figures and report.html, and only then writes them, printing one line
// "DIR: FILE, ..." per directory to w.
func Redraw(ctx context.Context, o RedrawOptions, w io.Writer) error {
	if len(o.Dirs) == 0 {
		return errors.New("report: give at least one directory (see evogp report --help)")
	}
	formats, err := reports.ParseFormats(o.Formats)
	if err != nil {
		return err
	}
	all := make([]Files, len(o.Dirs))
	for i, dir := range o.Dirs {
		if err := ctx.Err(); err != nil {
			return err
		}
		t, err := ReadTables(dir)
		if err != nil {
			return err
		}
		fo := FigureOptions{Formats: formats, Instance: o.Instance,
			Reference: o.Reference, RequireReference: o.ReferenceGiven, ReportInstances: o.ReportInstances}
		// An eval directory's manifest supplies the reference and the
		// instance unless they are given, so report redraws what eval
		// drew.
		ref, inst, err := ManifestDefaults(dir)
		if err != nil {
			return err
		}
		if !o.ReferenceGiven && ref != "" {
			fo.Reference = ref
		}
		if !o.InstanceGiven && inst != "" {
			fo.Instance = inst
		}
		if fo.BestBaseline, fo.BestBaselineBasis, err = manifestBestBaseline(dir); err != nil {
			return err
		}
		if all[i], err = t.Render(fo); err != nil {
			return fmt.Errorf("report %s: %w", dir, err)
		}
		rep, err := t.Report(dir, all[i], fo, ReportOptions{}, ReportEnv())
		if err != nil {
			return err
		}
		all[i] = append(all[i], rep)
	}
	for i, dir := range o.Dirs {
		if err := all[i].Write(dir); err != nil {
			return err
		}
		fmt.Fprintf(w, "%s: %s\n", dir, strings.Join(all[i].Names(), ", "))
	}
	return nil
}

package experiment

import (
	"context"
	"fmt"
	"io"

	"github.com/evogp/evogp/estimate"
)

// EstimateCommand is what `evogp estimate` was given.
type EstimateCommand struct {
	Args       []string // the positional arguments: one series file or a directory of them
	Methods    string   // comma-separated methods (estimate.ParseMethods)
	Options    estimate.Options
	Cache      string // the recurring-job cache's key fields (estimate.ParseKeyFields); "" = no cache
	JSON       bool   // one JSON object per file and method instead of a table
	Plot       string // directory for the error CDF and a stability plot; "" = none
	PlotSeries string // the series of the stability plot; "" = the first
}

// RunEstimateCommand evaluates the duration estimators on the series of
// o.Args[0] (estimate.Evaluate), writes the plots and their report.html
// when asked, and writes to w the rows as JSON lines, the per-method
// summary of a directory, or the table of a single file. Plot messages go
// to errw.
func RunEstimateCommand(ctx context.Context, o EstimateCommand, w, errw io.Writer) error {
	if len(o.Args) != 1 {
		return fmt.Errorf("estimate: want one FILE or DIR argument, got %d", len(o.Args))
	}
	opts := estimate.EvaluateOptions{Methods: estimate.ParseMethods(o.Methods), Options: o.Options}
	if o.Cache != "" {
		kf, err := estimate.ParseKeyFields(o.Cache)
		if err != nil {
			return err
		}
		opts.CacheKey = &kf
	}
	series, files, isDir, err := estimate.ReadPath(o.Args[0])
	if err != nil {
		return err
	}
	ev, err := estimate.Evaluate(ctx, series, files, opts)
	if err != nil {
		return err
	}
	if o.Plot != "" {
		if err := WriteEstimatePlots(o.Plot, o.PlotSeries, ev.Rows, errw); err != nil {
			return err
		}
		if err := WriteReport(o.Plot, ReportOptions{}); err != nil {
			return err
		}
	}
	switch {
	case o.JSON:
		return estimate.WriteJSON(w, ev.Rows)
	case isDir:
		return ev.WriteSummaryTable(w, len(series))
	}
	return estimate.WriteSeriesTable(w, ev.Rows)
}

// EstimateHelp is the description of `evogp estimate`: what each method
// observes, the files it reads and the summary of a directory.
const EstimateHelp = "Each method observes at most the first --prefix iterations of a series and estimates the total\n" +
	"time of all its iterations; the error is (estimate − actual)/actual. Files: Chronus CSV\n" +
	"(iteration,iter_time_s; seconds) or Alibaba mini-batch CSV (,worker,gpu,time,batch_time_norm;\n" +
	"normalised 0–1000 units, reported in the *_s columns as they are). A directory is read\n" +
	"recursively (*.csv, in path order) and summarised per method: mean, median and p90 of the\n" +
	"absolute percentage error, and the overhead (leading iterations the job ran, and their time;\n" +
	"the seconds columns of the table leave out series in normalised units)."

package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/urfave/cli/v2"

	"github.com/evogp/evogp/estimate"
	"github.com/evogp/evogp/experiment"
	"github.com/evogp/evogp/reports"
)

func estimateCommand() *cli.Command {
	def := estimate.DefaultOptions()
	return &cli.Command{
		Name:  "estimate",
		Usage: "estimate training-job durations from per-iteration times (adaptive, head-based, random sampling)",
		UsageText: "evogp estimate [options] FILE|DIR\n\n" +
			"Examples:\n" +
			"   evogp estimate ../shared/traces/iteration_times/chronus/stats/imagenet_arch_resnet50_gpu_1.csv\n" +
			"   evogp estimate ../shared/traces/iteration_times/chronus\n" +
			"   evogp estimate --json ../shared/traces/iteration_times/chronus > errors.jsonl\n" +
			"   evogp estimate --plot figs ../shared/traces/iteration_times/chronus\n" +
			"   evogp estimate --cache model,gpus ../shared/traces/iteration_times/chronus",
		Description: "Each method observes at most the first --prefix iterations of a series and estimates the total\n" +
			"time of all its iterations; the error is (estimate − actual)/actual. Files: Chronus CSV\n" +
			"(iteration,iter_time_s; seconds) or Alibaba mini-batch CSV (,worker,gpu,time,batch_time_norm;\n" +
			"normalised 0–1000 units, reported in the *_s columns as they are). A directory is read\n" +
			"recursively (*.csv, in path order) and summarised per method: mean, median and p90 of the\n" +
			"absolute percentage error, and the overhead (leading iterations the job ran, and their time;\n" +
			"the seconds columns of the table leave out series in normalised units).",
		ArgsUsage: "FILE|DIR",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "methods", Value: strings.Join(estimate.Methods(), ","), Usage: "comma-separated methods: adaptive, head, random"},
			&cli.Float64Flag{Name: "gamma", Value: def.Gamma, Usage: "adaptive: stability threshold γ on δ_i = |t_i − t_{i−1}|/t_{i−1}"},
			&cli.IntFlag{Name: "k", Value: def.K, Usage: "adaptive: consecutive δ_i < γ that declare stability"},
			&cli.IntFlag{Name: "sample-iters", Value: def.SampleIters, Usage: "adaptive: iterations i_s sampled once stable"},
			&cli.IntFlag{Name: "head", Value: def.Head, Usage: "head and random: iterations h used"},
			&cli.IntFlag{Name: "prefix", Value: def.Prefix, Usage: "most leading iterations any method may observe"},
			&cli.Uint64Flag{Name: "seed", Value: def.Seed, Usage: "seed of the random method's draws"},
			&cli.StringFlag{Name: "cache", Usage: "reuse estimates of recurring jobs keyed by these fields (model,config,gpu_type,gpus or all); series in path order"},
			&cli.BoolFlag{Name: "json", Usage: "print one JSON object per file and method"},
			&cli.StringFlag{Name: "plot", Usage: "write the error CDF per method and one series' stability plot to DIR (png, svg)"},
			&cli.StringFlag{Name: "plot-series", Usage: "the series (file, as printed) of the stability plot; default the first"},
		},
		Action: runEstimate,
	}
}

func runEstimate(c *cli.Context) error {
	if c.NArg() != 1 {
		return fmt.Errorf("estimate: want one FILE or DIR argument, got %d", c.NArg())
	}
	path := c.Args().First()
	opts := estimate.EvaluateOptions{Options: estimate.Options{
		Gamma: c.Float64("gamma"), K: c.Int("k"), SampleIters: c.Int("sample-iters"),
		Head: c.Int("head"), Prefix: c.Int("prefix"), Seed: c.Uint64("seed"),
	}}
	for _, m := range strings.Split(c.String("methods"), ",") {
		if m = strings.TrimSpace(m); m != "" {
			opts.Methods = append(opts.Methods, m)
		}
	}
	if spec := c.String("cache"); spec != "" {
		kf, err := parseKeyFields(spec)
		if err != nil {
			return err
		}
		opts.CacheKey = &kf
	}
	info, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("estimate: %w", err)
	}
	var series []*estimate.Series
	var files []string
	if info.IsDir() {
		if series, files, err = estimate.ReadDir(path); err != nil {
			return err
		}
	} else {
		s, err := estimate.ReadFile(path)
		if err != nil {
			return err
		}
		series, files = []*estimate.Series{s}, []string{path}
	}
	ev, err := estimate.Evaluate(c.Context, series, files, opts)
	if err != nil {
		return err
	}
	if dir := c.String("plot"); dir != "" {
		if err := writeEstimatePlots(dir, c.String("plot-series"), ev.Rows, c.App.ErrWriter); err != nil {
			return err
		}
		if err := experiment.WriteReport(dir, experiment.ReportOptions{}); err != nil {
			return err
		}
	}
	switch {
	case c.Bool("json"):
		return printEstimateJSON(c.App.Writer, ev.Rows)
	case info.IsDir():
		return printEstimateSummary(c.App.Writer, ev, len(series))
	}
	return printEstimateFile(c.App.Writer, ev.Rows)
}

// parseKeyFields parses "model,config,gpu_type,gpus" (any subset) or "all".
func parseKeyFields(spec string) (estimate.KeyFields, error) {
	var kf estimate.KeyFields
	for _, f := range strings.Split(spec, ",") {
		switch strings.TrimSpace(f) {
		case "all":
			kf = estimate.KeyFields{Model: true, Config: true, GPUType: true, GPUs: true}
		case "model":
			kf.Model = true
		case "config":
			kf.Config = true
		case "gpu_type":
			kf.GPUType = true
		case "gpus":
			kf.GPUs = true
		default:
			return kf, fmt.Errorf("cache key field %q: want model, config, gpu_type, gpus or all", f)
		}
	}
	return kf, nil
}

// estimateJSON is one line of `evogp estimate --json`.
type estimateJSON struct {
	File          string  `json:"file"`
	Method        string  `json:"method"`
	EstimateS     float64 `json:"estimate_s"`
	ActualS       float64 `json:"actual_s"`
	Error         float64 `json:"error"`
	OverheadIters int     `json:"overhead_iters"`
	OverheadS     float64 `json:"overhead_s"`
}

func printEstimateJSON(w io.Writer, rows []estimate.Row) error {
	enc := json.NewEncoder(w)
	for _, r := range rows {
		if err := enc.Encode(estimateJSON{r.File, r.Method, r.Estimate, r.Actual, r.Error, r.OverheadIters, r.OverheadSeconds}); err != nil {
			return err
		}
	}
	return nil
}

// printEstimateFile prints one series: per method the estimate, the
// actual total, the error and the overhead.
func printEstimateFile(w io.Writer, rows []estimate.Row) error {
	if len(rows) == 0 {
		return nil
	}
	s := rows[0].Series
	unit := s.Unit
	fmt.Fprintf(w, "file: %s (%d iterations, key %s, times in %s)\n", rows[0].File, len(s.Times), s.Key, unit)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "method\testimate %s\tactual %s\terror %%\toverhead iters\toverhead %s\tdetail\t\n", unit, unit, unit)
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%.3f\t%.3f\t%+.2f\t%d\t%.3f\t%s\t\n", r.Method, r.Estimate, r.Actual, 100*r.Error, r.OverheadIters, r.OverheadSeconds, rowDetail(r))
	}
	return tw.Flush()
}

func rowDetail(r estimate.Row) string {
	switch {
	case r.Cached:
		return "cached"
	case r.Method != estimate.MethodAdaptive:
		return ""
	case r.Fallback:
		return fmt.Sprintf("never stable: sampled %d–%d", r.SampleFrom, r.SampleFrom+r.SampleIters-1)
	}
	return fmt.Sprintf("stable at %d, sampled %d–%d", r.StableAt, r.SampleFrom, r.SampleFrom+r.SampleIters-1)
}

// printEstimateSummary prints the per-method table over a directory.
func printEstimateSummary(w io.Writer, ev estimate.Evaluation, nSeries int) error {
	fmt.Fprintf(w, "series: %d\n", nSeries)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "method\tseries\tmean APE %\tmedian APE %\tp90 APE %\tmean overhead iters\tmean overhead s\tmax overhead s\tfallbacks\tcached\t")
	for _, s := range estimate.Summarize(ev.Rows) {
		meanS, maxS := "–", "–"
		if s.TimedRows > 0 {
			meanS, maxS = fmt.Sprintf("%.3f", s.MeanOverheadSeconds), fmt.Sprintf("%.3f", s.MaxOverheadSeconds)
		}
		fmt.Fprintf(tw, "%s\t%d\t%.2f\t%.2f\t%.2f\t%.1f\t%s\t%s\t%d\t%d\t\n",
			s.Method, s.N, s.MeanAPE, s.MedianAPE, s.P90APE, s.MeanOverheadIters, meanS, maxS, s.Fallbacks, s.Cached)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if ev.Cache != nil {
		for _, s := range estimate.Summarize(ev.Rows) {
			st := ev.Cache[s.Method]
			fmt.Fprintf(w, "cache %s: %d hits of %d lookups (hit rate %.1f%%), %d keys\n", s.Method, st.Hits, st.Lookups(), 100*st.HitRate(), st.Keys)
		}
	}
	return nil
}

// writeEstimatePlots writes the error CDF per method and the stability
// plot of one series (named by its printed file) as png and svg.
func writeEstimatePlots(dir, which string, rows []estimate.Row, log io.Writer) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("plot: %w", err)
	}
	var methods []string
	idx := map[string]int{}
	var apes [][]float64
	for _, r := range rows {
		if _, ok := idx[r.Method]; !ok {
			idx[r.Method] = len(methods)
			methods = append(methods, r.Method)
			apes = append(apes, nil)
		}
		apes[idx[r.Method]] = append(apes[idx[r.Method]], r.APE())
	}
	cdf, err := reports.EstimateErrorCDFPlot(methods, apes)
	if err != nil {
		return err
	}
	figs := []*reports.Figure{cdf}
	// The stability plot shows what the adaptive method saw; without an
	// adaptive row for the series it is computed here.
	var pick *estimate.Row
	for i := range rows {
		if (which == "" || rows[i].File == which) && rows[i].Method == estimate.MethodAdaptive && !rows[i].Cached {
			pick = &rows[i]
			break
		}
	}
	if pick == nil {
		return fmt.Errorf("plot: no adaptive estimate of series %q (pick one with --plot-series and include the adaptive method)", which)
	}
	st, err := reports.StabilityPlot(reports.StabilityTrace{
		Name: pick.File, Times: pick.Series.Times, Unit: pick.Series.Unit, StableAt: pick.StableAt,
		SampleFrom: pick.SampleFrom, SampleTo: pick.SampleFrom + pick.SampleIters - 1, Observed: pick.OverheadIters,
	})
	if err != nil {
		return err
	}
	figs = append(figs, st)
	for _, f := range figs {
		paths, err := f.Save(dir, []string{"png", "svg"})
		if err != nil {
			return err
		}
		for _, p := range paths {
			fmt.Fprintln(log, "wrote", p)
		}
	}
	return nil
}

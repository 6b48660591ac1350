package estimate

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
)

// ParseKeyFields reads a cache key spec: a comma-separated subset of
// model, config, gpu_type and gpus, or all.
func ParseKeyFields(spec string) (KeyFields, error) {
	var kf KeyFields
	for _, f := range strings.Split(spec, ",") {
		switch strings.TrimSpace(f) {
		case "all":
			kf = KeyFields{Model: true, Config: true, GPUType: true, GPUs: true}
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

// ParseMethods splits a comma-separated method list, dropping empty
// entries (Evaluate checks the names).
func ParseMethods(s string) []string {
	var out []string
	for _, m := range strings.Split(s, ",") {
		if m = strings.TrimSpace(m); m != "" {
			out = append(out, m)
		}
	}
	return out
}

// ReadPath reads one series file, or every series of a directory (as
// ReadDir). dir reports which it was; files name the series as the output
// does.
func ReadPath(path string) (series []*Series, files []string, dir bool, err error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, nil, false, fmt.Errorf("estimate: %w", err)
	}
	if info.IsDir() {
		series, files, err = ReadDir(path)
		return series, files, true, err
	}
	s, err := ReadFile(path)
	if err != nil {
		return nil, nil, false, err
	}
	return []*Series{s}, []string{path}, false, nil
}

// rowJSON is one line of WriteJSON.
type rowJSON struct {
	File          string  `json:"file"`
	Method        string  `json:"method"`
	EstimateS     float64 `json:"estimate_s"`
	ActualS       float64 `json:"actual_s"`
	Error         float64 `json:"error"`
	OverheadIters int     `json:"overhead_iters"`
	OverheadS     float64 `json:"overhead_s"`
}

// WriteJSON prints one JSON object per row (JSON lines): file, method,
// estimate_s, actual_s, error (signed, relative), overhead_iters and
// overhead_s.
func WriteJSON(w io.Writer, rows []Row) error {
	enc := json.NewEncoder(w)
	for _, r := range rows {
		if err := enc.Encode(rowJSON{r.File, r.Method, r.Estimate, r.Actual, r.Error, r.OverheadIters, r.OverheadSeconds}); err != nil {
			return err
		}
	}
	return nil
}

// WriteSeriesTable prints the rows of one series: per method the
// estimate, the actual total, the error and the overhead, with what the
// adaptive method saw.
func WriteSeriesTable(w io.Writer, rows []Row) error {
	if len(rows) == 0 {
		return nil
	}
	s := rows[0].Series
	unit := s.Unit
	fmt.Fprintf(w, "file: %s (%d iterations, key %s, times in %s)\n", rows[0].File, len(s.Times), s.Key, unit)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "method\testimate %s\tactual %s\terror %%\toverhead iters\toverhead %s\tdetail\t\n", unit, unit, unit)
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%.3f\t%.3f\t%+.2f\t%d\t%.3f\t%s\t\n", r.Method, r.Estimate, r.Actual, 100*r.Error, r.OverheadIters, r.OverheadSeconds, r.detail())
	}
	return tw.Flush()
}

// detail says where the adaptive method found stability and what it
// sampled, or that the estimate was cached.
func (r Row) detail() string {
	switch {
	case r.Cached:
		return "cached"
	case r.Method != MethodAdaptive:
		return ""
	case r.Fallback:
		return fmt.Sprintf("never stable: sampled %d–%d", r.SampleFrom, r.SampleFrom+r.SampleIters-1)
	}
	return fmt.Sprintf("stable at %d, sampled %d–%d", r.StableAt, r.SampleFrom, r.SampleFrom+r.SampleIters-1)
}

// WriteSummaryTable prints the per-method summary (Summarize) of an
// evaluation of nSeries series, and the cache's hit rates when it had one.
func (ev Evaluation) WriteSummaryTable(w io.Writer, nSeries int) error {
	fmt.Fprintf(w, "series: %d\n", nSeries)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "method\tseries\tmean APE %\tmedian APE %\tp90 APE %\tmean overhead iters\tmean overhead s\tmax overhead s\tfallbacks\tcached\t")
	for _, s := range Summarize(ev.Rows) {
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
		for _, s := range Summarize(ev.Rows) {
			st := ev.Cache[s.Method]
			fmt.Fprintf(w, "cache %s: %d hits of %d lookups (hit rate %.1f%%), %d keys\n", s.Method, st.Hits, st.Lookups(), 100*st.HitRate(), st.Keys)
		}
	}
	return nil
}

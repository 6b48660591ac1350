package experiment

import (
	"fmt"
	"io"
	"os"

	"github.com/evogp/evogp/estimate"
	"github.com/evogp/evogp/reports"
)

// WriteEstimatePlots writes, as png and svg into dir, the CDF of the
// absolute percentage error per method of rows and the stability plot of
// one series (which, as its rows name it; "" = the first) as the adaptive
// method saw it, and logs each file written.
func WriteEstimatePlots(dir, which string, rows []estimate.Row, log io.Writer) error {
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
	// The stability plot shows what the adaptive method saw, so the series
	// needs an adaptive row of its own (not a cached one).
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

package reports

import (
	"errors"
	"fmt"
	"image/color"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/evogp/evogp/internal/figure"
)

// cdfMaxPoints bounds the points of one CDF curve.
const cdfMaxPoints = 1000

// ecdf returns the empirical CDF F(x) = #{x_i ≤ x}/n of xs as a step curve.
// Up to cdfMaxPoints/2 values every step is drawn exactly (two points per
// distinct value); beyond that the curve is the type-7 quantile function
// sampled at cdfMaxPoints evenly spaced probabilities, which keeps files
// small without visible change.
func ecdf(xs []float64) plotter.XYs {
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n == 0 {
		return nil
	}
	if n <= cdfMaxPoints/2 {
		var pts plotter.XYs
		for i := 0; i < n; {
			j := i
			for j < n && s[j] == s[i] {
				j++
			}
			pts = append(pts, plotter.XY{X: s[i], Y: float64(i) / float64(n)}, plotter.XY{X: s[i], Y: float64(j) / float64(n)})
			i = j
		}
		return pts
	}
	pts := make(plotter.XYs, cdfMaxPoints)
	for k := range pts {
		p := float64(k) / float64(cdfMaxPoints-1)
		pts[k] = plotter.XY{X: quantile7(s, p), Y: p}
	}
	return pts
}

// logLimits returns axis limits for positive values in [lo, hi] on a log
// scale: lo rounded down and hi rounded up to the nearest 1, 2 or 5 × 10^k,
// so the curves fill the axis and both ends carry a labelled tick.
func logLimits(lo, hi float64) (float64, float64) {
	down := func(x float64) float64 {
		e := math.Pow(10, math.Floor(math.Log10(x)))
		for _, m := range []float64{5, 2, 1} {
			if m*e <= x*(1+1e-12) {
				return m * e
			}
		}
		return e
	}
	up := func(x float64) float64 {
		e := math.Pow(10, math.Floor(math.Log10(x)))
		for _, m := range []float64{1, 2, 5, 10} {
			if m*e >= x*(1-1e-12) {
				return m * e
			}
		}
		return 10 * e
	}
	return down(lo), up(hi)
}

// coincidingGroups returns the groups (two or more, in first-appearance
// order) of schedulers whose job completion times are the same multiset,
// i.e. whose CDF curves coincide and hide one another.
func coincidingGroups(scheds []string, jct map[string][]float64) [][]string {
	sorted := map[string][]float64{}
	for _, n := range scheds {
		sorted[n] = slices.Sorted(slices.Values(jct[n]))
	}
	var groups [][]string
	done := map[string]bool{}
	for i, a := range scheds {
		if done[a] {
			continue
		}
		g := []string{a}
		for _, b := range scheds[i+1:] {
			if !done[b] && slices.Equal(sorted[a], sorted[b]) {
				g = append(g, b)
				done[b] = true
			}
		}
		if len(g) > 1 {
			groups = append(groups, g)
		}
	}
	return groups
}

// JCTCDFPlot draws the empirical CDF of job completion time F − a (hours,
// log scale) per scheduler, over all jobs of the table. The x axis runs
// from the shortest to the longest completion time, rounded out to 1, 2 or
// 5 × 10^k (logLimits); the legend sits outside the axes; schedulers whose
// curves coincide exactly are named in the x-axis caption, since one line
// hides the other. A completion time ≤ 0 (impossible for a finished job)
// is an error.
func JCTCDFPlot(jobs []JobRow) (*Figure, error) {
	var scheds []string
	jct := map[string][]float64{}
	lo, hi := math.Inf(1), 0.0
	for _, j := range jobs {
		if _, ok := jct[j.Scheduler]; !ok {
			scheds = append(scheds, j.Scheduler)
		}
		x := hours(j.Finish - j.Arrival)
		if !(x > 0) {
			return nil, fmt.Errorf("JCT CDF plot: scheduler %q job %d: completion time %d s is not positive", j.Scheduler, j.Job, j.Finish-j.Arrival)
		}
		lo, hi = math.Min(lo, x), math.Max(hi, x)
		jct[j.Scheduler] = append(jct[j.Scheduler], x)
	}
	if len(scheds) == 0 {
		return nil, errors.New("JCT CDF plot: no jobs")
	}
	xlabel := "job completion time (h, log scale)"
	for _, g := range coincidingGroups(scheds, jct) {
		xlabel += "; curves coincide: " + strings.Join(g, " = ")
	}
	p := newPlot("Job completion time CDF", xlabel, "fraction of jobs ≤ x")
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = logTicks125{}
	p.X.Min, p.X.Max = logLimits(lo, hi)
	p.Y.Min, p.Y.Max = 0, 1
	leg := figure.NewLegend()
	labels := make([]string, len(jobs))
	for i, j := range jobs {
		labels[i] = j.Scheduler
	}
	pal := figure.NewPalette(labels)
	colours := map[string]color.Color{}
	for _, name := range scheds {
		l, err := plotter.NewLine(ecdf(jct[name]))
		if err != nil {
			return nil, fmt.Errorf("JCT CDF plot: %w", err)
		}
		l.Color = pal.Color(name)
		l.Dashes = pal.Dash(name)
		colours[name] = l.Color
		l.Width = vg.Points(1.5)
		p.Add(l)
		leg.Add(name, l)
	}
	return &Figure{Name: "jct_cdf", Width: figW, Height: figH, Panels: [][]*plot.Plot{{p}}, Legend: leg, LabelColors: colours}, nil
}

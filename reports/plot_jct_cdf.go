package reports

import (
	"errors"
	"fmt"
	"image/color"
	"math"
	"slices"

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

// jctLogSpread is the ratio of the longest to the shortest completion
// time above which the JCT CDF uses a log x axis (more than two decades).
const jctLogSpread = 100

// nearlySame is the largest distance between two CDF curves (share of
// jobs, Kolmogorov–Smirnov) at which the JCT CDF's title warns that the
// curves can hardly be told apart.
const nearlySame = 0.02

// ksDistance is sup_x |F_a(x) − F_b(x)| of two sorted samples.
func ksDistance(a, b []float64) float64 {
	i, j, d := 0, 0, 0.0
	for i < len(a) && j < len(b) {
		x := math.Min(a[i], b[j])
		for i < len(a) && a[i] <= x {
			i++
		}
		for j < len(b) && b[j] <= x {
			j++
		}
		d = math.Max(d, math.Abs(float64(i)/float64(len(a))-float64(j)/float64(len(b))))
	}
	return d
}

// JCTCDFPlot draws the empirical CDF of job completion time F − a (hours)
// per scheduler, over all jobs of the table. The x axis spans the
// shortest to the longest completion time: on a log scale (rounded out to
// 1, 2 or 5 × 10^k, logLimits) when they span more than jctLogSpread,
// linear otherwise. A scheduler whose completion times are those of an
// earlier one (the curves coincide exactly) is drawn dashed over it and
// named in the legend "(identical to …)"; when every pair of curves is
// within nearlySame of each other, the title says by how much they differ
// at most. The legend sits outside the axes; the SVG has a tooltip at each
// curve's 10th, 50th and 90th percentile. A completion time ≤ 0
// (impossible for a finished job) is an error.
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
	identicalTo := map[string]string{}
	for _, g := range coincidingGroups(scheds, jct) {
		for _, n := range g[1:] {
			identicalTo[n] = g[0]
		}
	}
	sorted := map[string][]float64{}
	for _, n := range scheds {
		sorted[n] = slices.Sorted(slices.Values(jct[n]))
	}
	title := "Job completion time CDF"
	if len(scheds) > 1 {
		worst := 0.0
		for i, a := range scheds {
			for _, b := range scheds[i+1:] {
				worst = math.Max(worst, ksDistance(sorted[a], sorted[b]))
			}
		}
		if worst <= nearlySame {
			title += fmt.Sprintf(": the curves differ by at most %.2g %% of jobs", 100*worst)
		}
	}
	logX := hi/lo > jctLogSpread
	xlabel := "job completion time (h)"
	tx := func(x float64) float64 { return x }
	p := newPlot(title, xlabel, "fraction of jobs ≤ x")
	if logX {
		p.X.Label.Text = "job completion time (h, log scale)"
		tx = math.Log10
		p.X.Tick.Marker = figure.Log10Ticks{Ticker: logTicks125{}}
		l, h := logLimits(lo, hi)
		p.X.Min, p.X.Max = math.Log10(l), math.Log10(h)
	} else {
		p.X.Tick.Marker = figure.DistinctTicks{Ticker: figure.MinTicks{N: 5}}
		p.X.Min, p.X.Max = lo, hi
		if lo == hi {
			p.X.Min, p.X.Max = lo/2, hi*1.5
		}
	}
	p.Y.Min, p.Y.Max = 0, 1
	p.Y.Tick.Marker = figure.MinTicks{N: 5}
	leg := figure.NewLegend()
	labels := make([]string, len(jobs))
	for i, j := range jobs {
		labels[i] = j.Scheduler
	}
	pal := figure.NewPalette(labels)
	colours := map[string]color.Color{}
	var tips []figure.Tip
	for _, name := range scheds {
		xy := ecdf(jct[name])
		for i := range xy {
			xy[i].X = tx(xy[i].X)
		}
		l, err := plotter.NewLine(xy)
		if err != nil {
			return nil, fmt.Errorf("JCT CDF plot: %w", err)
		}
		l.Color = pal.Color(name)
		l.Dashes = pal.Dash(name)
		entry := name
		if first, ok := identicalTo[name]; ok {
			l.Dashes = []vg.Length{vg.Points(4), vg.Points(4)} // the line it hides shows between the dashes
			entry = name + " (identical to " + first + ")"
		}
		colours[name] = l.Color
		l.Width = vg.Points(1.5)
		p.Add(l)
		leg.Add(entry, l)
		for _, q := range []float64{0.1, 0.5, 0.9} {
			v := quantile7(sorted[name], q)
			tips = append(tips, figure.Tip{X: tx(v), Y0: q, Y1: q, Point: true, HalfWidth: vg.Points(3),
				Text: fmt.Sprintf("%s: %.0f %% of jobs complete within %.3g h", name, 100*q, v)})
		}
	}
	return &Figure{Name: "jct_cdf", Width: figW, Height: figH, Panels: [][]*plot.Plot{{p}}, Legend: leg, LabelColors: colours, Tips: tips}, nil
}

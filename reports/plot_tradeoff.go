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

// tradeoffBand is a curve of means over seeds with their 95 % bootstrap
// CIs (Low = High = Mean for one seed): X ascending.
type tradeoffBand struct {
	Name            string
	X               []float64
	Mean, Low, High []float64
	N               []int // seeds per point
}

// seeds is the largest number of seeds of any point.
func (b tradeoffBand) seeds() int { return slices.Max(b.N) }

// tradeoffSeries groups sweep rows by point (first-appearance order, each
// point must have one ω) and returns, sorted by ω, the mean over seeds of
// AvgJCT and MaxQT with its 95 % bootstrap CI.
func tradeoffSeries(rows []SweepRow) (avg, maxq tradeoffBand, err error) {
	type acc struct {
		omega    float64
		avg, mqt []float64
	}
	var points []string
	m := map[string]*acc{}
	for _, r := range rows {
		if err := r.check(); err != nil {
			return avg, maxq, fmt.Errorf("point %q: %w", r.Point, err)
		}
		a, ok := m[r.Point]
		if !ok {
			a = &acc{omega: r.Omega}
			m[r.Point] = a
			points = append(points, r.Point)
		} else if a.omega != r.Omega {
			return avg, maxq, fmt.Errorf("point %q has two ω values, %v and %v", r.Point, a.omega, r.Omega)
		}
		a.avg = append(a.avg, r.AvgJCT)
		a.mqt = append(a.mqt, r.MaxQT)
	}
	if len(points) == 0 {
		return avg, maxq, errors.New("no sweep rows")
	}
	slices.SortStableFunc(points, func(a, b string) int {
		switch {
		case m[a].omega < m[b].omega:
			return -1
		case m[a].omega > m[b].omega:
			return 1
		}
		return 0
	})
	avg.Name, maxq.Name = "learned (GP)", "learned (GP)"
	for _, pt := range points {
		a := m[pt]
		for _, c := range []struct {
			b  *tradeoffBand
			xs []float64
		}{{&avg, a.avg}, {&maxq, a.mqt}} {
			ci := bootstrapMeanCI(c.xs)
			c.b.X = append(c.b.X, a.omega)
			c.b.Mean, c.b.Low, c.b.High = append(c.b.Mean, ci.Mean), append(c.b.Low, ci.Low), append(c.b.High, ci.High)
			c.b.N = append(c.b.N, ci.N)
		}
	}
	return avg, maxq, nil
}

// baselineLevel is a baseline's mean AvgJCT and MaxQT over its rows.
type baselineLevel struct {
	Name          string
	AvgJCT, MaxQT float64
}

func baselineLevels(rows []ResultRow) []baselineLevel {
	var out []baselineLevel
	idx := map[string]int{}
	n := map[string]int{}
	for _, r := range rows {
		i, ok := idx[r.Scheduler]
		if !ok {
			i = len(out)
			idx[r.Scheduler] = i
			out = append(out, baselineLevel{Name: r.Scheduler})
		}
		out[i].AvgJCT += r.AvgJCT
		out[i].MaxQT += r.MaxQT
		n[r.Scheduler]++
	}
	for i := range out {
		out[i].AvgJCT /= float64(n[out[i].Name])
		out[i].MaxQT /= float64(n[out[i].Name])
	}
	return out
}

// TradeoffPlot draws paper Fig. 8 from rows of one test set (or of test
// sets unknown): TradeoffPlotFor with no test sets.
func TradeoffPlot(sweep []SweepRow, baselines []ResultRow) (*Figure, error) {
	return TradeoffPlotFor(sweep, nil, baselines)
}

// testSetGroups splits rows by testSets[i], the test set row i was scored
// on, in first-appearance order (one group of every row when testSets is
// nil).
func testSetGroups(rows []SweepRow, testSets []string) (names []string, groups [][]SweepRow, err error) {
	if testSets == nil {
		return []string{""}, [][]SweepRow{rows}, nil
	}
	if len(testSets) != len(rows) {
		return nil, nil, fmt.Errorf("%d test sets for %d sweep rows", len(testSets), len(rows))
	}
	idx := map[string]int{}
	for i, r := range rows {
		k, ok := idx[testSets[i]]
		if !ok {
			k = len(names)
			idx[testSets[i]] = k
			names = append(names, testSets[i])
			groups = append(groups, nil)
		}
		groups[k] = append(groups[k], r)
	}
	return names, groups, nil
}

// TradeoffPlotFor draws paper Fig. 8: AvgJCT and MaxQT (hours) of the
// learned policy against ω of the single-cluster objective ω·AvgJCT +
// (1−ω)·MaxQT (Eq. 16): with several seeds per ω their mean and its 95 %
// bootstrap CI as error bars, with one seed the value alone (no bar, and
// the legend says so), a tooltip per point in the SVG; and each scheduler
// of baselines as a dashed horizontal line at its mean over its rows, in
// the label palette's colours; one legend for both panels sits beside
// them. testSets[i] names the test set sweep row i was scored on (nil:
// one, unnamed): rows of different test sets are never averaged
// together — each test set is a series of its own colour, named in the
// legend — and the baselines, whose mean would mix the test sets, are
// then left out with a legend note. baselines may be empty.
func TradeoffPlotFor(sweep []SweepRow, testSets []string, baselines []ResultRow) (*Figure, error) {
	setNames, groups, err := testSetGroups(sweep, testSets)
	if err != nil {
		return nil, fmt.Errorf("trade-off plot: %w", err)
	}
	type series struct{ avg, maxq tradeoffBand }
	var all []series
	for k, rows := range groups {
		avg, maxq, err := tradeoffSeries(rows)
		if err != nil {
			return nil, fmt.Errorf("trade-off plot: %w", err)
		}
		if len(groups) > 1 {
			avg.Name = fmt.Sprintf("learned (GP), test set %d: %s", k+1, setNames[k])
			maxq.Name = avg.Name
		}
		all = append(all, series{avg, maxq})
	}
	levels := foldEqualLevels(baselineLevels(baselines))
	mixed := len(groups) > 1
	if mixed {
		levels = nil
	}
	xmin, xmax := math.Inf(1), math.Inf(-1)
	for _, sr := range all {
		xmin, xmax = math.Min(xmin, sr.avg.X[0]), math.Max(xmax, sr.avg.X[len(sr.avg.X)-1])
	}
	if xmin == xmax {
		xmin, xmax = xmin-0.5, xmax+0.5
	}
	var panels []*plot.Plot
	var tips []figure.Tip
	leg := figure.NewLegend()
	var labels []string
	for _, sr := range all {
		labels = append(labels, sr.avg.Name)
	}
	for _, b := range levels {
		labels = append(labels, b.Name)
	}
	pal := figure.NewPalette(labels)
	colours := map[string]color.Color{}
	for _, l := range labels {
		colours[l] = pal.Color(l)
	}
	for k, sp := range []struct {
		label string
		band  func(series) tradeoffBand
		level func(baselineLevel) float64
	}{
		{"AvgJCT (h)", func(s series) tradeoffBand { return s.avg }, func(b baselineLevel) float64 { return b.AvgJCT }},
		{"MaxQT (h)", func(s series) tradeoffBand { return s.maxq }, func(b baselineLevel) float64 { return b.MaxQT }},
	} {
		p := newPlot(sp.label+" against ω", "ω (weight of AvgJCT in Eq. 16)", sp.label)
		// A baseline an order of magnitude off (tiresias' MaxQT) would
		// squash every other line into the bottom of a linear panel.
		var ys []float64
		for _, sr := range all {
			b := sp.band(sr)
			ys = append(append(append(ys, b.Mean...), b.Low...), b.High...)
		}
		for _, b := range levels {
			ys = append(ys, sp.level(b))
		}
		if wantsLogSpread(ys) {
			p.Y.Scale, p.Y.Tick.Marker = plot.LogScale{}, figure.DistinctTicks{Ticker: logTicks125{}}
			p.Y.Label.Text += ", log scale"
		}
		for _, sr := range all {
			b := sp.band(sr)
			c := pal.Color(b.Name)
			pts := make(plotter.XYs, len(b.X))
			errs := make(plotter.YErrors, len(b.X))
			for i := range pts {
				pts[i] = plotter.XY{X: b.X[i], Y: b.Mean[i]}
				errs[i] = struct{ Low, High float64 }{b.Mean[i] - b.Low[i], b.High[i] - b.Mean[i]}
				text := fmt.Sprintf("ω = %g: %s %.4g", b.X[i], sp.label, b.Mean[i])
				if b.N[i] > 1 {
					text += fmt.Sprintf(" (mean of %d seeds, 95%% CI %.4g–%.4g)", b.N[i], b.Low[i], b.High[i])
				} else {
					text += " (one seed)"
				}
				if mixed {
					text = b.Name + ", " + text
				}
				tips = append(tips, figure.Tip{Col: k, X: b.X[i], Y0: b.Mean[i], Y1: b.Mean[i], Point: true, HalfWidth: vg.Points(4), Text: text})
			}
			l, s, err := plotter.NewLinePoints(pts)
			if err != nil {
				return nil, fmt.Errorf("trade-off plot: %w", err)
			}
			l.Color, s.Color = c, c
			l.Dashes = pal.Dash(b.Name)
			l.Width = vg.Points(1.5)
			p.Add(l, s)
			if n := b.seeds(); n > 1 {
				eb, err := plotter.NewYErrorBars(struct {
					plotter.XYs
					plotter.YErrors
				}{pts, errs})
				if err != nil {
					return nil, fmt.Errorf("trade-off plot: %w", err)
				}
				eb.Color = c
				p.Add(eb)
				if k == 0 {
					leg.Add(fmt.Sprintf("%s, mean and 95%% CI over %d seeds", b.Name, n), l, s)
				}
			} else if k == 0 {
				leg.Add(b.Name+", one seed", l, s)
			}
		}
		for _, b := range levels {
			y := sp.level(b)
			hl, err := plotter.NewLine(plotter.XYs{{X: xmin, Y: y}, {X: xmax, Y: y}})
			if err != nil {
				return nil, fmt.Errorf("trade-off plot: %w", err)
			}
			hl.Color = pal.Color(b.Name)
			hl.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
			hl.Width = vg.Points(1.2)
			p.Add(hl)
			if k == 0 {
				leg.Add(b.Name, hl)
			}
		}
		panels = append(panels, p)
	}
	if mixed && len(baselines) > 0 {
		leg.Add(fmt.Sprintf("(baselines not drawn: their mean would mix %d test sets)", len(groups)))
	}
	return &Figure{Name: "tradeoff", Width: 2 * panelW * 1.3, Height: panelH * 1.3, Panels: [][]*plot.Plot{panels}, Legend: leg,
		LegendBelow: mixed, Tips: tips, LabelColors: colours}, nil // test-set names are long: under the panels
}

// foldEqualLevels merges baselines whose mean AvgJCT and MaxQT are both
// equal into one line named "first = second" (e.g. "liquid = spark"), in
// first-appearance order, so that no line hides behind an identical one.
func foldEqualLevels(levels []baselineLevel) []baselineLevel {
	var out []baselineLevel
	for _, b := range levels {
		merged := false
		for i := range out {
			if out[i].AvgJCT == b.AvgJCT && out[i].MaxQT == b.MaxQT {
				out[i].Name += " = " + b.Name
				merged = true
				break
			}
		}
		if !merged {
			out = append(out, b)
		}
	}
	return out
}

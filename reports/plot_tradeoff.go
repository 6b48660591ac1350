package reports

import (
	"errors"
	"fmt"
	"image/color"
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

// TradeoffPlot draws paper Fig. 8: AvgJCT and MaxQT (hours) of the learned
// policy against ω of the single-cluster objective ω·AvgJCT + (1−ω)·MaxQT
// (Eq. 16): with several seeds per ω their mean and its 95 % bootstrap CI
// as error bars, with one seed the value alone (no bar, and the legend
// says so), a tooltip per point in the SVG; and each scheduler of
// baselines as a dashed horizontal line at its mean over its rows, in the
// Okabe–Ito colours; one legend for both panels sits beside them.
// baselines may be empty.
func TradeoffPlot(sweep []SweepRow, baselines []ResultRow) (*Figure, error) {
	avg, maxq, err := tradeoffSeries(sweep)
	if err != nil {
		return nil, fmt.Errorf("trade-off plot: %w", err)
	}
	levels := baselineLevels(baselines)
	xmin, xmax := avg.X[0], avg.X[len(avg.X)-1]
	if xmin == xmax {
		xmin, xmax = xmin-0.5, xmax+0.5
	}
	var panels []*plot.Plot
	var tips []figure.Tip
	leg := figure.NewLegend()
	labels := []string{avg.Name}
	for _, b := range levels {
		labels = append(labels, b.Name)
	}
	pal := figure.NewPalette(labels)
	colours := map[string]color.Color{}
	for _, l := range labels {
		colours[l] = pal.Color(l)
	}
	for k, sp := range []struct {
		series tradeoffBand
		label  string
		level  func(baselineLevel) float64
	}{
		{avg, "AvgJCT (h)", func(b baselineLevel) float64 { return b.AvgJCT }},
		{maxq, "MaxQT (h)", func(b baselineLevel) float64 { return b.MaxQT }},
	} {
		p := newPlot(sp.label+" against ω", "ω (weight of AvgJCT in Eq. 16)", sp.label)
		pts := make(plotter.XYs, len(sp.series.X))
		errs := make(plotter.YErrors, len(sp.series.X))
		for i := range pts {
			b := sp.series
			pts[i] = plotter.XY{X: b.X[i], Y: b.Mean[i]}
			errs[i] = struct{ Low, High float64 }{b.Mean[i] - b.Low[i], b.High[i] - b.Mean[i]}
			text := fmt.Sprintf("ω = %g: %s %.4g", b.X[i], sp.label, b.Mean[i])
			if b.N[i] > 1 {
				text += fmt.Sprintf(" (mean of %d seeds, 95%% CI %.4g–%.4g)", b.N[i], b.Low[i], b.High[i])
			} else {
				text += " (one seed)"
			}
			tips = append(tips, figure.Tip{Col: k, X: b.X[i], Y0: b.Mean[i], Y1: b.Mean[i], Point: true, HalfWidth: vg.Points(4), Text: text})
		}
		l, s, err := plotter.NewLinePoints(pts)
		if err != nil {
			return nil, fmt.Errorf("trade-off plot: %w", err)
		}
		l.Color, s.Color = pal.Color(avg.Name), pal.Color(avg.Name)
		l.Width = vg.Points(1.5)
		p.Add(l, s)
		if n := sp.series.seeds(); n > 1 {
			eb, err := plotter.NewYErrorBars(struct {
				plotter.XYs
				plotter.YErrors
			}{pts, errs})
			if err != nil {
				return nil, fmt.Errorf("trade-off plot: %w", err)
			}
			eb.Color = pal.Color(avg.Name)
			p.Add(eb)
			if k == 0 {
				leg.Add(fmt.Sprintf("%s, mean and 95%% CI over %d seeds", sp.series.Name, n), l, s)
			}
		} else if k == 0 {
			leg.Add(sp.series.Name+", one seed", l, s)
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
	return &Figure{Name: "tradeoff", Width: 2 * panelW * 1.3, Height: panelH * 1.3, Panels: [][]*plot.Plot{panels}, Legend: leg, Tips: tips, LabelColors: colours}, nil
}

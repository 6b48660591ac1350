package reports

import (
	"errors"
	"fmt"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/evogp/evogp/internal/figure"
)

// meanBand is a curve of means with a ±sd band: X ascending.
type meanBand struct {
	Name     string
	X        []float64
	Mean, SD []float64
	N        []int // seeds per point
}

// bandPolygon is the closed outline of the band between lo and hi over xs:
// along the lower edge left to right, then back along the upper edge right
// to left, (x_0, lo_0) … (x_n, lo_n), (x_n, hi_n) … (x_0, hi_0).
func bandPolygon(xs, lo, hi []float64) plotter.XYs {
	n := len(xs)
	pts := make(plotter.XYs, 0, 2*n)
	for i := 0; i < n; i++ {
		pts = append(pts, plotter.XY{X: xs[i], Y: lo[i]})
	}
	for i := n - 1; i >= 0; i-- {
		pts = append(pts, plotter.XY{X: xs[i], Y: hi[i]})
	}
	return pts
}

// pressureSeries groups rows by scheduler (first-appearance order) and
// interval (ascending) and returns mean ± sd of the objective over seeds.
func pressureSeries(rows []PressureRow) ([]meanBand, error) {
	var scheds []string
	vals := map[string]map[float64][]float64{}
	for _, r := range rows {
		if err := r.check(); err != nil {
			return nil, fmt.Errorf("scheduler %q interval %v: %w", r.Scheduler, r.Interval, err)
		}
		m, ok := vals[r.Scheduler]
		if !ok {
			scheds = append(scheds, r.Scheduler)
			m = map[float64][]float64{}
			vals[r.Scheduler] = m
		}
		m[r.Interval] = append(m[r.Interval], r.Objective)
	}
	if len(scheds) == 0 {
		return nil, errors.New("no rows")
	}
	out := make([]meanBand, len(scheds))
	for s, name := range scheds {
		b := meanBand{Name: name}
		for x := range vals[name] {
			b.X = append(b.X, x)
		}
		slices.Sort(b.X)
		for _, x := range b.X {
			st := meanSD(vals[name][x])
			b.Mean = append(b.Mean, st.Mean)
			b.SD = append(b.SD, st.SD)
			b.N = append(b.N, len(vals[name][x]))
		}
		out[s] = b
	}
	return out, nil
}

// addMeanBand adds the filled ±sd band (translucent) and the line of means
// of series b to p, in b's style in pal (a scheduler's fixed colour).
func addMeanBand(p *plot.Plot, leg *plot.Legend, b meanBand, pal figure.Palette) error {
	lo := make([]float64, len(b.X))
	hi := make([]float64, len(b.X))
	for k := range b.X {
		lo[k], hi[k] = b.Mean[k]-b.SD[k], b.Mean[k]+b.SD[k]
	}
	poly, err := plotter.NewPolygon(bandPolygon(b.X, lo, hi))
	if err != nil {
		return err
	}
	poly.Color = withAlpha(pal.Color(b.Name), 0x40)
	poly.LineStyle.Width = 0
	pts := make(plotter.XYs, len(b.X))
	for k := range b.X {
		pts[k] = plotter.XY{X: b.X[k], Y: b.Mean[k]}
	}
	l, s, err := plotter.NewLinePoints(pts)
	if err != nil {
		return err
	}
	l.Color, s.Color = pal.Color(b.Name), pal.Color(b.Name)
	l.Dashes = pal.Dash(b.Name)
	s.Shape = pal.Glyph(b.Name)
	l.Width = vg.Points(1.5)
	p.Add(poly, l, s)
	leg.Add(b.Name, l, s)
	return nil
}

// PressurePlot draws paper Fig. 9a: the objective (mean over seeds, with a
// filled ±1 sd band) against the uniform inter-arrival interval Δ, one line
// per scheduler. Smaller Δ means heavier load.
func PressurePlot(rows []PressureRow) (*Figure, error) {
	series, err := pressureSeries(rows)
	if err != nil {
		return nil, fmt.Errorf("pressure plot: %w", err)
	}
	p := newPlot("Objective under load pressure (mean ± sd over seeds)", "inter-arrival interval Δ (s)", "objective (Eq. 5)")
	leg := figure.NewLegend()
	var tips []figure.Tip
	names := make([]string, len(series))
	for i, b := range series {
		names[i] = b.Name
	}
	pal := figure.NewPalette(names)
	for _, b := range series {
		if err := addMeanBand(p, leg, b, pal); err != nil {
			return nil, fmt.Errorf("pressure plot: %w", err)
		}
		for k, x := range b.X {
			tips = append(tips, figure.Tip{X: x, Y0: b.Mean[k], Y1: b.Mean[k], Point: true, HalfWidth: vg.Points(3),
				Text: fmt.Sprintf("%s, Δ = %g s: objective %.4g ± %.3g (mean ± sd over %d seeds)", b.Name, x, b.Mean[k], b.SD[k], b.N[k])})
		}
	}
	return &Figure{Name: "pressure", Width: figW, Height: figH, Panels: [][]*plot.Plot{{p}}, Legend: leg, Tips: tips}, nil
}

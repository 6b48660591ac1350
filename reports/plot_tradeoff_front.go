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
	"gonum.org/v1/plot/vg/draw"

	"github.com/evogp/evogp/internal/figure"
)

// TradeoffFrontName is the file stem of TradeoffFrontPlot's figure.
const TradeoffFrontName = "tradeoff_sweep"

// OmegaPoint is one ω of a sweep on the test set: the mean over its seeds
// of AvgJCT and MaxQT (hours), and the seeds' range of each.
type OmegaPoint struct {
	Omega                float64
	Seeds                int
	AvgJCT, MaxQT        float64
	AvgJCTMin, AvgJCTMax float64
	MaxQTMin, MaxQTMax   float64
}

// OmegaPoints groups sweep rows by ω (ascending) over their seeds.
func OmegaPoints(rows []SweepRow) ([]OmegaPoint, error) {
	by := map[float64][]SweepRow{}
	for _, r := range rows {
		if err := r.check(); err != nil {
			return nil, fmt.Errorf("point %q: %w", r.Point, err)
		}
		by[r.Omega] = append(by[r.Omega], r)
	}
	if len(by) == 0 {
		return nil, errors.New("no sweep rows")
	}
	var out []OmegaPoint
	for w, rs := range by {
		p := OmegaPoint{Omega: w, Seeds: len(rs), AvgJCTMin: math.Inf(1), AvgJCTMax: math.Inf(-1), MaxQTMin: math.Inf(1), MaxQTMax: math.Inf(-1)}
		for _, r := range rs {
			p.AvgJCT += r.AvgJCT / float64(len(rs))
			p.MaxQT += r.MaxQT / float64(len(rs))
			p.AvgJCTMin, p.AvgJCTMax = math.Min(p.AvgJCTMin, r.AvgJCT), math.Max(p.AvgJCTMax, r.AvgJCT)
			p.MaxQTMin, p.MaxQTMax = math.Min(p.MaxQTMin, r.MaxQT), math.Max(p.MaxQTMax, r.MaxQT)
		}
		out = append(out, p)
	}
	slices.SortFunc(out, func(a, b OmegaPoint) int { return cmpFloat(a.Omega, b.Omega) })
	return out, nil
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// BaselinePoint is a baseline's mean AvgJCT and MaxQT over its test rows.
type BaselinePoint struct {
	Name          string
	AvgJCT, MaxQT float64
}

// BaselinePoints is every scheduler of rows at its mean, in first-row order.
func BaselinePoints(rows []ResultRow) []BaselinePoint {
	var out []BaselinePoint
	for _, l := range baselineLevels(rows) {
		out = append(out, BaselinePoint{Name: l.Name, AvgJCT: l.AvgJCT, MaxQT: l.MaxQT})
	}
	return out
}

// logSpread is the ratio of the largest to the smallest value of an axis
// above which TradeoffFrontPlot draws it on a log scale: a baseline an
// order of magnitude off would otherwise squash every other point.
const logSpread = 10

// TradeoffFrontPlot draws one test-set figure of AvgJCT (y) against MaxQT
// (x), in hours: each ω of the sweep a black point at the mean over its
// seeds with bars spanning the seeds' range on both axes, labelled
// "ω = 0.5"; each baseline a labelled square in its fixed colour
// (figure.SchedulerColor). Labels never overlap another label or a point
// (figure.Labels places them when the canvas is known; layout, if not
// nil, receives the boxes). An axis whose positive values span more than
// logSpread is logarithmic.
//
// notes are further legend lines (which test sets the points pool, say).
func TradeoffFrontPlot(omegas []OmegaPoint, baselines []BaselinePoint, layout *figure.LabelLayout, notes ...string) (*Figure, error) {
	if len(omegas) == 0 {
		return nil, errors.New("trade-off front: no ω points")
	}
	seeds := 0
	for _, o := range omegas {
		seeds = max(seeds, o.Seeds)
	}
	p := newPlot("AvgJCT against MaxQT on the test set", "MaxQT (h)", "AvgJCT (h)")
	p.Title.Padding = vg.Points(8) // room above the title: it is never cut
	var xs, ys []float64
	for _, o := range omegas {
		xs = append(xs, o.MaxQTMin, o.MaxQTMax)
		ys = append(ys, o.AvgJCTMin, o.AvgJCTMax)
	}
	for _, b := range baselines {
		xs, ys = append(xs, b.MaxQT), append(ys, b.AvgJCT)
	}
	logX, logY := wantsLogSpread(xs), wantsLogSpread(ys)
	if logX {
		p.X.Scale, p.X.Tick.Marker = plot.LogScale{}, figure.DistinctTicks{Ticker: logTicks125{}}
		p.X.Label.Text += ", log scale"
	}
	if logY {
		p.Y.Scale, p.Y.Tick.Marker = plot.LogScale{}, figure.DistinctTicks{Ticker: logTicks125{}}
		p.Y.Label.Text += ", log scale"
	}
	learned, _ := figure.SchedulerColor("learned")
	var labels []figure.PointLabel
	var tips []figure.Tip
	pts := make(plotter.XYs, len(omegas))
	xerr := make(plotter.XErrors, len(omegas))
	yerr := make(plotter.YErrors, len(omegas))
	for i, o := range omegas {
		pts[i] = plotter.XY{X: o.MaxQT, Y: o.AvgJCT}
		xerr[i] = struct{ Low, High float64 }{o.MaxQT - o.MaxQTMin, o.MaxQTMax - o.MaxQT}
		yerr[i] = struct{ Low, High float64 }{o.AvgJCT - o.AvgJCTMin, o.AvgJCTMax - o.AvgJCT}
		labels = append(labels, figure.PointLabel{X: o.MaxQT, Y: o.AvgJCT, Text: fmt.Sprintf("ω = %g", o.Omega), Color: learned})
		tips = append(tips, figure.Tip{X: o.MaxQT, Y0: o.AvgJCT, Y1: o.AvgJCT, Point: true, HalfWidth: vg.Points(4),
			Text: fmt.Sprintf("ω = %g: AvgJCT %.4g h (seeds %.4g–%.4g), MaxQT %.4g h (seeds %.4g–%.4g), %d seeds", o.Omega, o.AvgJCT, o.AvgJCTMin, o.AvgJCTMax, o.MaxQT, o.MaxQTMin, o.MaxQTMax, o.Seeds)})
	}
	sc, err := plotter.NewScatter(pts)
	if err != nil {
		return nil, fmt.Errorf("trade-off front: %w", err)
	}
	sc.GlyphStyle = draw.GlyphStyle{Color: learned, Radius: vg.Points(3), Shape: draw.CircleGlyph{}}
	bars := struct {
		plotter.XYs
		plotter.XErrors
		plotter.YErrors
	}{pts, xerr, yerr}
	xb, err := plotter.NewXErrorBars(bars)
	if err != nil {
		return nil, fmt.Errorf("trade-off front: %w", err)
	}
	yb, err := plotter.NewYErrorBars(bars)
	if err != nil {
		return nil, fmt.Errorf("trade-off front: %w", err)
	}
	xb.Color, yb.Color = withAlpha(learned, 0x99), withAlpha(learned, 0x99)
	p.Add(xb, yb, sc)
	leg := figure.NewLegend()
	what := "learned (GP), one point per ω"
	if seeds > 1 {
		what += fmt.Sprintf(": mean over %d seeds, bars = range over seeds", seeds)
	} else {
		what += " (one seed)"
	}
	leg.Add(what, sc)
	colours := map[string]color.Color{"learned": learned}
	pal := figure.NewPalette(baselineNames(baselines))
	for _, b := range baselines {
		c := pal.Color(b.Name) // a scheduler's fixed colour (figure.SchedulerColor)
		colours[b.Name] = c
		bs, err := plotter.NewScatter(plotter.XYs{{X: b.MaxQT, Y: b.AvgJCT}})
		if err != nil {
			return nil, fmt.Errorf("trade-off front: %w", err)
		}
		bs.GlyphStyle = draw.GlyphStyle{Color: c, Radius: vg.Points(3.5), Shape: draw.BoxGlyph{}}
		p.Add(bs)
		labels = append(labels, figure.PointLabel{X: b.MaxQT, Y: b.AvgJCT, Text: b.Name, Color: c})
		tips = append(tips, figure.Tip{X: b.MaxQT, Y0: b.AvgJCT, Y1: b.AvgJCT, Point: true, HalfWidth: vg.Points(4),
			Text: fmt.Sprintf("%s: AvgJCT %.4g h, MaxQT %.4g h (mean over its test rows)", b.Name, b.AvgJCT, b.MaxQT)})
	}
	if len(baselines) > 0 {
		leg.Add("baselines (squares), labelled, mean over the test instances")
	}
	for _, n := range notes {
		leg.Add(n)
	}
	lab := figure.NewLabels(labels)
	lab.Layout = layout
	for _, o := range omegas {
		lab.Segments = append(lab.Segments,
			[2]plotter.XY{{X: o.MaxQTMin, Y: o.AvgJCT}, {X: o.MaxQTMax, Y: o.AvgJCT}},
			[2]plotter.XY{{X: o.MaxQT, Y: o.AvgJCTMin}, {X: o.MaxQT, Y: o.AvgJCTMax}})
	}
	p.Add(lab)
	padAxes(p, logX, logY)
	return &Figure{Name: TradeoffFrontName, Width: 7 * vg.Inch, Height: 4.8 * vg.Inch, Panels: [][]*plot.Plot{{p}}, Legend: leg,
		LegendBelow: true, Tips: tips, LabelColors: colours}, nil
}

func baselineNames(bs []BaselinePoint) []string {
	out := make([]string, len(bs))
	for i, b := range bs {
		out[i] = b.Name
	}
	return out
}

// wantsLogSpread reports whether the values, all positive, span more than
// logSpread (a zero cannot sit on a log axis).
func wantsLogSpread(vs []float64) bool {
	lo, hi := math.Inf(1), 0.0
	for _, v := range vs {
		if !(v > 0) {
			return false
		}
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	return hi > logSpread*lo
}

// padAxes widens each axis by a margin so that points and their labels
// sit inside the data area rather than on its edge: 15 % of the span on a
// linear axis, a factor 1.6 on a log one.
func padAxes(p *plot.Plot, logX, logY bool) {
	pad := func(a *plot.Axis, log bool) {
		lo, hi := a.Min, a.Max
		if log {
			a.Min, a.Max = lo/1.6, hi*1.6
			return
		}
		span := hi - lo
		if span == 0 {
			span = math.Max(math.Abs(hi), 1)
		}
		a.Min, a.Max = lo-0.15*span, hi+0.15*span
		if lo >= 0 && a.Min < 0 {
			a.Min = math.Min(0, lo) - 0.05*span // times are never negative: little room below 0
		}
	}
	pad(&p.X, logX)
	pad(&p.Y, logY)
}

package frontplot

import (
	"cmp"
	"errors"
	"fmt"
	"image/color"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/evogp/evogp/internal/figure"
	"github.com/evogp/evogp/internal/pareto"
)

// Point is a labelled point of the plot.
type Point struct {
	Label string
	X, Y  float64
	// OmegaLo..OmegaHi is the ω interval a front member wins (NaN: none,
	// drawn grey). Baselines ignore it.
	OmegaLo, OmegaHi float64
}

// Input is what a front plot shows.
type Input struct {
	Name          string // file stem (front, tradeoff_front)
	Title         string
	XLabel        string
	YLabel        string
	Members       []Point // front members, in front order
	Baselines     []Point
	LineLabel     string // legend entry of the line through the non-dominated members
	OmegaVariable string // the weight the colour scale shows, e.g. "ω (weight of avg_jct)"
	// Grid, if not empty, is the ω grid of the front's ω table: each
	// member picked for some ω of it (Picks) is circled and its label
	// names those ω (issue 42).
	Grid []float64
	// Layout, if not nil, receives the label boxes of the last drawing.
	Layout *figure.LabelLayout
}

// Members is "1 member" or "n members", for titles.
func Members(n int) string {
	if n == 1 {
		return "1 member"
	}
	return fmt.Sprintf("%d members", n)
}

// Picks maps the index of each member picked for some ω of grid to those
// ω, in grid order: the member picked for ω is the first one, in front
// order, whose ω interval holds ω — the member that minimises
// ω·o1 + (1 − ω)·o2 of the validation objectives, as the ω table picks it
// (at an interval's end two members tie and the first is kept, as
// pareto.PickWeights keeps the lowest index). An ω no member's interval
// holds picks none.
func Picks(members []Point, grid []float64) map[int][]float64 {
	const eps = 1e-12
	out := map[int][]float64{}
	for _, w := range grid {
		for i, m := range members {
			if !math.IsNaN(m.OmegaLo) && m.OmegaLo-eps <= w && w <= m.OmegaHi+eps {
				out[i] = append(out[i], w)
				break
			}
		}
	}
	return out
}

// omegaList is "ω 0, 0.25" for a label.
func omegaList(ws []float64) string {
	s := make([]string, len(ws))
	for i, w := range ws {
		s[i] = strconv.FormatFloat(w, 'g', -1, 64)
	}
	return "ω " + strings.Join(s, ", ")
}

// Plot draws the input. Every coordinate must be finite. In the SVG each
// point has a tooltip, and a member's links to its formula in report.html
// (figure.FormulaAnchor of its label).
func Plot(in Input) (*figure.Figure, error) {
	if len(in.Members) == 0 {
		return nil, errors.New("front plot: no front members")
	}
	var xs, ys []float64
	for _, set := range [][]Point{in.Members, in.Baselines} {
		for _, p := range set {
			if math.IsNaN(p.X) || math.IsInf(p.X, 0) || math.IsNaN(p.Y) || math.IsInf(p.Y, 0) {
				return nil, fmt.Errorf("front plot: %s at (%v, %v) is not finite", p.Label, p.X, p.Y)
			}
			xs, ys = append(xs, p.X), append(ys, p.Y)
		}
	}
	p := figure.NewPlot(in.Title, in.XLabel, in.YLabel)
	leg := figure.NewLegend()
	logX, logY := wantsLog(xs), wantsLog(ys)
	if logX {
		p.X.Scale, p.X.Tick.Marker = plot.LogScale{}, plot.LogTicks{Prec: -1}
		p.X.Label.Text += " (log)"
	}
	if logY {
		p.Y.Scale, p.Y.Tick.Marker = plot.LogScale{}, plot.LogTicks{Prec: -1}
		p.Y.Label.Text += " (log)"
	}
	// The line through the members no other member dominates, by X.
	pts := make([][]float64, len(in.Members))
	for i, m := range in.Members {
		pts[i] = []float64{m.X, m.Y}
	}
	nd := pareto.NonDominated(pts)
	slices.SortStableFunc(nd, func(a, b int) int {
		return cmp.Or(cmp.Compare(pts[a][0], pts[b][0]), cmp.Compare(pts[a][1], pts[b][1]))
	})
	if len(nd) > 1 {
		xy := make(plotter.XYs, len(nd))
		for k, i := range nd {
			xy[k] = plotter.XY{X: pts[i][0], Y: pts[i][1]}
		}
		line, err := plotter.NewLine(xy)
		if err != nil {
			return nil, err
		}
		line.Color = color.Gray{Y: 0x60}
		line.Width = vg.Points(1)
		p.Add(line)
		if in.LineLabel != "" {
			leg.Add(in.LineLabel, line)
		}
	}
	picks := Picks(in.Members, in.Grid)
	var tips []figure.Tip
	for i, m := range in.Members {
		text := fmt.Sprintf("%s: %s %.4g, %s %.4g", m.Label, in.XLabel, m.X, in.YLabel, m.Y)
		if !math.IsNaN(m.OmegaLo) {
			text += fmt.Sprintf("; best for ω %.2f–%.2f", m.OmegaLo, m.OmegaHi)
		}
		if ws, ok := picks[i]; ok {
			text += "; picked for " + omegaList(ws)
		}
		tips = append(tips, figure.Tip{X: m.X, Y0: m.Y, Y1: m.Y, Point: true, HalfWidth: vg.Points(5),
			Text: text + " (click for its formula)", Href: "#" + figure.FormulaAnchor(m.Label)})
		sc, err := plotter.NewScatter(plotter.XYs{{X: m.X, Y: m.Y}})
		if err != nil {
			return nil, err
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: omegaColor(m), Radius: vg.Points(3.5), Shape: draw.CircleGlyph{}}
		p.Add(sc)
		entry := m.Label
		if !math.IsNaN(m.OmegaLo) {
			entry = fmt.Sprintf("%s  ω %.2f–%.2f", m.Label, m.OmegaLo, m.OmegaHi)
		}
		leg.Add(entry, sc)
	}
	if len(picks) > 0 {
		// A ring around each picked member, drawn over its point.
		var xy plotter.XYs
		for i, m := range in.Members {
			if _, ok := picks[i]; ok {
				xy = append(xy, plotter.XY{X: m.X, Y: m.Y})
			}
		}
		ring, err := plotter.NewScatter(xy)
		if err != nil {
			return nil, err
		}
		ring.GlyphStyle = draw.GlyphStyle{Color: color.Black, Radius: vg.Points(6.5), Shape: draw.RingGlyph{}}
		p.Add(ring)
		leg.Add("circled: the member picked on validation for each ω of the grid "+strings.TrimPrefix(omegaList(in.Grid), "ω ")+" (its label names its ω)", ring)
	}
	baselineNames := make([]string, len(in.Baselines))
	for i, b := range in.Baselines {
		baselineNames[i] = b.Label
	}
	pal := figure.NewPalette(baselineNames)
	for _, b := range in.Baselines {
		tips = append(tips, figure.Tip{X: b.X, Y0: b.Y, Y1: b.Y, Point: true, HalfWidth: vg.Points(5),
			Text: fmt.Sprintf("%s (baseline): %s %.4g, %s %.4g", b.Label, in.XLabel, b.X, in.YLabel, b.Y)})
		sc, err := plotter.NewScatter(plotter.XYs{{X: b.X, Y: b.Y}})
		if err != nil {
			return nil, err
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: baselineColor(b.Label, pal), Radius: vg.Points(3.5), Shape: draw.BoxGlyph{}}
		p.Add(sc)
		leg.Add(b.Label, sc)
	}
	// Labels beside their points, never over another label or a point
	// (figure.Labels places them once the canvas is known).
	var labels []figure.PointLabel
	for i, m := range in.Members {
		text := m.Label
		if ws, ok := picks[i]; ok {
			text += " (" + omegaList(ws) + ")"
		}
		labels = append(labels, figure.PointLabel{X: m.X, Y: m.Y, Text: text, Color: color.Black})
	}
	for _, b := range in.Baselines {
		labels = append(labels, figure.PointLabel{X: b.X, Y: b.Y, Text: b.Label, Color: baselineColor(b.Label, pal)})
	}
	lab := figure.NewLabels(labels)
	lab.TextStyle.Font.Size = vg.Points(7)
	if len(picks) > 0 {
		lab.MarkerRadius = vg.Points(7) // labels clear the rings
	}
	lab.Layout = in.Layout
	p.Add(lab)
	pad(p, xs, ys, logX, logY)
	if in.OmegaVariable != "" {
		// The scale is described by what the members show, not by its
		// ends, which no member may reach.
		leg.Add("a member's colour: the middle of the ω range it wins (listed above) of")
		leg.Add(in.OmegaVariable + ", on a scale from blue at ω = 0 to orange at ω = 1; grey: it wins none")
	}
	p.Title.Padding = vg.Points(8)
	colours := map[string]color.Color{}
	for _, b := range in.Baselines {
		colours[b.Label] = baselineColor(b.Label, pal)
	}
	// The legend goes under the panel: the title then has the figure's
	// whole width and is never cut.
	return &figure.Figure{Name: in.Name, Width: figure.Width * 1.4, Height: figure.Height * 1.6, Panels: [][]*plot.Plot{{p}}, Legend: leg,
		LegendBelow: true, Tips: tips, LabelColors: colours}, nil
}

// wantsLog: positive values spanning more than two decades.
func wantsLog(vs []float64) bool {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range vs {
		if v <= 0 {
			return false
		}
		lo, hi = min(lo, v), max(hi, v)
	}
	return hi > 100*lo
}

// pad widens the axes a little so that points and labels do not sit on
// the frame.
func pad(p *plot.Plot, xs, ys []float64, logX, logY bool) {
	set := func(a *plot.Axis, vs []float64, log bool) {
		lo, hi := slices.Min(vs), slices.Max(vs)
		if log {
			a.Min, a.Max = lo/1.3, hi*1.6
			return
		}
		span := hi - lo
		if span == 0 {
			span = math.Max(math.Abs(hi), 1) * 0.1
		}
		a.Min, a.Max = lo-0.06*span, hi+0.2*span
	}
	set(&p.X, xs, logX)
	set(&p.Y, ys, logY)
}

// omegaColor maps the middle of a member's ω interval onto a blue (ω = 0)
// to orange (ω = 1) scale; a member that wins no ω is grey.
func omegaColor(m Point) color.Color {
	if math.IsNaN(m.OmegaLo) {
		return color.Gray{Y: 0x99}
	}
	w := (m.OmegaLo + m.OmegaHi) / 2
	lo, hi := color.RGBA{0x00, 0x72, 0xB2, 0xFF}, color.RGBA{0xE6, 0x9F, 0x00, 0xFF}
	mix := func(a, b uint8) uint8 { return uint8(math.Round(float64(a) + w*(float64(b)-float64(a)))) }
	return color.RGBA{mix(lo.R, hi.R), mix(lo.G, hi.G), mix(lo.B, hi.B), 0xFF}
}

// baselineColor is a baseline's colour in pal: a scheduler's fixed colour
// (figure.SchedulerColor), the same in the validation and the test figures
// and in every other figure of the product.
func baselineColor(name string, pal figure.Palette) color.Color {
	return pal.Color(name)
}

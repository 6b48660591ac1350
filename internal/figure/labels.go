package figure

import (
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// PointLabel is a labelled point of a scatter: its data position, the
// text beside it, and the colour of both.
type PointLabel struct {
	X, Y  float64
	Text  string
	Color color.Color
}

// Box is a rectangle on the canvas (vg units, origin bottom left).
type Box struct{ Min, Max vg.Point }

// Overlaps reports whether b and o share interior points.
func (b Box) Overlaps(o Box) bool {
	return b.Min.X < o.Max.X && o.Min.X < b.Max.X && b.Min.Y < o.Max.Y && o.Min.Y < b.Max.Y
}

// Inside reports whether b lies within o.
func (b Box) Inside(o Box) bool {
	return b.Min.X >= o.Min.X && b.Max.X <= o.Max.X && b.Min.Y >= o.Min.Y && b.Max.Y <= o.Max.Y
}

// LabelLayout is where a Labels plotter put its labels when it was last
// drawn: one box per label (in the order given) and one per point marker,
// and the data area. Tests read it to prove that no label overlaps
// another label or any point, and that every label is inside the data
// area.
type LabelLayout struct {
	Labels, Points []Box
	Area           Box
	// Leaders counts the labels placed away from their point, joined to
	// it by a thin line.
	Leaders int
}

// Labels is a plotter that writes each label beside its point without
// overlapping another label or any point marker (Obstacles included)
// and inside the data area: at draw time, when the canvas and the fonts
// fix every box, each label in turn takes the first free position of a
// search over rings of growing distance around its point (8 directions
// near it, 16 further out); a label set off by more than the first ring
// gets a leader line to its point. Labels are placed in the order given,
// so earlier ones (baselines, say) stay closest to their points.
type Labels struct {
	Points []PointLabel
	// Obstacles are further points no label may cover (markers of other
	// series), in data coordinates.
	Obstacles []plotter.XY
	// Segments are lines (error bars) no label may cross, in data
	// coordinates; they are kept free only where a free position exists,
	// after points and other labels.
	Segments [][2]plotter.XY
	// MarkerRadius is the half size of the box kept free around every
	// point and obstacle.
	MarkerRadius vg.Length
	TextStyle    text.Style
	// Layout receives the boxes of the last drawing (for tests); may be nil.
	Layout *LabelLayout
}

// NewLabels returns a Labels with the figures' tick-label font.
func NewLabels(points []PointLabel) *Labels {
	sty := text.Style{Color: color.Black, Font: plot.DefaultFont, Handler: plot.DefaultTextHandler}
	sty.Font.Size = vg.Points(8)
	return &Labels{Points: points, MarkerRadius: vg.Points(4), TextStyle: sty}
}

// Plot implements plot.Plotter.
func (l *Labels) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	area := Box{Min: c.Min, Max: c.Max}
	r := l.MarkerRadius
	var points []Box
	at := func(x, y float64) vg.Point { return vg.Point{X: trX(x), Y: trY(y)} }
	for _, p := range l.Points {
		q := at(p.X, p.Y)
		points = append(points, Box{Min: vg.Point{X: q.X - r, Y: q.Y - r}, Max: vg.Point{X: q.X + r, Y: q.Y + r}})
	}
	for _, o := range l.Obstacles {
		q := at(o.X, o.Y)
		points = append(points, Box{Min: vg.Point{X: q.X - r, Y: q.Y - r}, Max: vg.Point{X: q.X + r, Y: q.Y + r}})
	}
	var segs []Box
	for _, sg := range l.Segments {
		a, b := at(sg[0].X, sg[0].Y), at(sg[1].X, sg[1].Y)
		segs = append(segs, Box{Min: vg.Point{X: min(a.X, b.X) - 0.5, Y: min(a.Y, b.Y) - 0.5}, Max: vg.Point{X: max(a.X, b.X) + 0.5, Y: max(a.Y, b.Y) + 0.5}})
	}
	layout := LabelLayout{Points: points, Area: area}
	var leaders [][2]vg.Point // drawn leader lines: no later label may cover one
	gap := vg.Points(2)
	for _, p := range l.Points {
		q := at(p.X, p.Y)
		w, h := l.TextStyle.Width(p.Text), l.TextStyle.Height(p.Text)
		best, bestCost, ring := Box{}, math.Inf(1), 0
		for k := 0; k < 40 && bestCost > 0; k++ {
			dirs := 8
			if k > 0 {
				dirs = 16
			}
			dist := r + gap + vg.Length(k)*(h+gap)
			for j := range dirs {
				a := 2 * math.Pi * float64(j) / float64(dirs)
				dx, dy := vg.Length(math.Cos(a)), vg.Length(math.Sin(a))
				// Anchor the box on its side facing the point.
				cx := q.X + dx*(dist+w/2)
				cy := q.Y + dy*(dist+h/2)
				b := Box{Min: vg.Point{X: cx - w/2, Y: cy - h/2}, Max: vg.Point{X: cx + w/2, Y: cy + h/2}}
				cost := 0.0
				if !b.Inside(area) {
					cost += 1e6
				}
				for _, o := range layout.Labels {
					if b.Overlaps(Box{Min: vg.Point{X: o.Min.X - gap, Y: o.Min.Y - gap/2}, Max: vg.Point{X: o.Max.X + gap, Y: o.Max.Y + gap/2}}) {
						cost += 1e3
					}
				}
				for _, o := range points {
					if b.Overlaps(o) {
						cost += 1e3
					}
				}
				for _, o := range segs {
					if b.Overlaps(o) {
						cost++
					}
				}
				for _, ld := range leaders {
					if segmentHits(ld[0], ld[1], b) {
						cost += 1e3
					}
				}
				if k > 0 { // this label's own leader must cross no label
					end := nearest(q, b)
					for _, o := range layout.Labels {
						if segmentHits(q, end, o) {
							cost += 1e3
						}
					}
				}
				if cost < bestCost {
					best, bestCost, ring = b, cost, k
				}
				if cost == 0 {
					break
				}
			}
		}
		layout.Labels = append(layout.Labels, best)
		sty := l.TextStyle
		sty.Color = p.Color
		sty.XAlign, sty.YAlign = draw.XLeft, draw.YBottom
		c.FillText(sty, best.Min, p.Text)
		if ring > 0 {
			layout.Leaders++
			ls := draw.LineStyle{Color: p.Color, Width: vg.Points(0.5)}
			end := nearest(q, best)
			c.StrokeLine2(ls, q.X, q.Y, end.X, end.Y)
			leaders = append(leaders, [2]vg.Point{q, end})
		}
	}
	if l.Layout != nil {
		*l.Layout = layout
	}
}

// DataRange implements plot.DataRanger: the labelled points (the labels
// themselves are placed inside whatever range the other plotters set).
func (l *Labels) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, ymin = math.Inf(1), math.Inf(1)
	xmax, ymax = math.Inf(-1), math.Inf(-1)
	for _, p := range l.Points {
		xmin, xmax = math.Min(xmin, p.X), math.Max(xmax, p.X)
		ymin, ymax = math.Min(ymin, p.Y), math.Max(ymax, p.Y)
	}
	return xmin, xmax, ymin, ymax
}

// nearest is the point of b closest to q (where a leader line ends).
func nearest(q vg.Point, b Box) vg.Point {
	clamp := func(v, lo, hi vg.Length) vg.Length { return max(lo, min(v, hi)) }
	return vg.Point{X: clamp(q.X, b.Min.X, b.Max.X), Y: clamp(q.Y, b.Min.Y, b.Max.Y)}
}

// segmentHits reports whether the segment a–e passes through the
// interior of b, sampled every half point along it (exact enough at
// drawing resolution).
func segmentHits(a, e vg.Point, b Box) bool {
	n := int(math.Hypot(float64(e.X-a.X), float64(e.Y-a.Y))*2) + 1
	for i := 0; i <= n; i++ {
		t := vg.Length(float64(i) / float64(n))
		x, y := a.X+t*(e.X-a.X), a.Y+t*(e.Y-a.Y)
		if x > b.Min.X && x < b.Max.X && y > b.Min.Y && y < b.Max.Y {
			return true
		}
	}
	return false
}

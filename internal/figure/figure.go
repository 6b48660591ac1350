package figure

import (
	"bytes"
	"fmt"
	"image/color"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgpdf"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/evogp/evogp/internal/atomicio"
)

// Default figure size.
const (
	Width  = 16 * vg.Centimeter
	Height = 10 * vg.Centimeter
)

// Figure is a grid of plots rendered together into one file per format.
type Figure struct {
	Name          string // file stem, e.g. "ranking"
	Width, Height vg.Length
	Panels        [][]*plot.Plot // rows of panels; nil entries are left blank
	// Legend, when it has entries, is drawn in a strip to the right of the
	// panels, outside every data area, so that it can never cover data;
	// the panels shrink by the strip's width. Panels that share this
	// legend should have none of their own.
	Legend *plot.Legend
	// LegendBelow draws Legend in a strip under the panels instead of
	// beside them, so that long entries cost height, not data width.
	LegendBelow bool
	// LabelColors is the colour of every label (scheduler) the figure
	// draws, as drawn: tests check that a label has one colour across the
	// figures of an output directory.
	LabelColors map[string]color.Color
	// Tips are tooltips over bars and points, written into the SVG output
	// as <title> elements (see Tip).
	Tips []Tip
}

// legendGap is the space between the panels and an outside legend.
const legendGap = 3 * vg.Millimeter

// legendWidth is the width of l's entries (0 for a nil or empty legend).
func legendWidth(l *plot.Legend, c draw.Canvas) vg.Length {
	if l == nil {
		return 0
	}
	return l.Rectangle(c).Size().X
}

// NewLegend returns an empty legend in the style of NewPlot's, for
// Figure.Legend: entries top-aligned, thumbnails on the left.
func NewLegend() *plot.Legend {
	l := plot.NewLegend()
	l.TextStyle.Font.Size = vg.Points(9)
	l.Top = true
	l.Left = true
	return &l
}

// pngDPI is the resolution of PNG output.
const pngDPI = 150

// Formats lists the output formats Figure.Render understands.
func Formats() []string { return []string{"png", "svg", "pdf"} }

// Render draws the figure in format ("png", "svg" or "pdf"). SVG and PNG
// output are a pure function of the figure: the same table gives the same
// bytes.
func (f *Figure) Render(format string) ([]byte, error) {
	var c vg.CanvasWriterTo
	switch format {
	case "svg":
		c = vgsvg.New(f.Width, f.Height)
	case "png":
		c = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(f.Width, f.Height), vgimg.UseDPI(pngDPI))}
	case "pdf":
		c = vgpdf.New(f.Width, f.Height)
	default:
		return nil, fmt.Errorf("figure %s: unknown format %q (want png, svg or pdf)", f.Name, format)
	}
	dc := draw.New(c)
	if w := legendWidth(f.Legend, dc); w > 0 && f.LegendBelow {
		h := f.Legend.Rectangle(dc).Size().Y
		strip := draw.Crop(dc, 4*legendGap, -legendGap, legendGap, -(dc.Size().Y - h - legendGap))
		f.Legend.Draw(strip)
		dc = draw.Crop(dc, 0, -2*legendGap, h+2*legendGap, 0) // a right margin: the last point is not on the page's edge
	} else if w > 0 {
		strip := draw.Crop(dc, dc.Size().X-w-legendGap, -legendGap, legendGap, -legendGap)
		f.Legend.Draw(strip)
		dc = draw.Crop(dc, 0, -(w + 2*legendGap), 0, 0)
	}
	rows := len(f.Panels)
	cols := 0
	for _, r := range f.Panels {
		cols = max(cols, len(r))
	}
	if rows == 0 || cols == 0 {
		return nil, fmt.Errorf("figure %s: no panels", f.Name)
	}
	var grid [][]*plot.Plot
	var canvases [][]draw.Canvas
	if rows == 1 && cols == 1 {
		f.Panels[0][0].Draw(dc)
		grid, canvases = f.Panels, [][]draw.Canvas{{dc}}
	} else {
		grid = make([][]*plot.Plot, rows)
		for i := range grid {
			grid[i] = make([]*plot.Plot, cols)
			copy(grid[i], f.Panels[i])
		}
		tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Millimeter * 4, PadY: vg.Millimeter * 4,
			PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 2}
		canvases = plot.Align(grid, tiles, dc)
		for i := range grid {
			for j, p := range grid[i] {
				if p != nil {
					p.Draw(canvases[i][j])
				}
			}
		}
	}
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("figure %s: render %s: %w", f.Name, format, err)
	}
	if format == "svg" {
		return withTips(buf.Bytes(), tipRects(f.Tips, grid, canvases, f.Height)), nil
	}
	return buf.Bytes(), nil
}

// Save renders the figure in every format and writes dir/Name.format
// atomically, returning the paths written.
func (f *Figure) Save(dir string, formats []string) ([]string, error) {
	var paths []string
	for _, format := range formats {
		data, err := f.Render(format)
		if err != nil {
			return paths, err
		}
		path := filepath.Join(dir, f.Name+"."+format)
		if err := atomicio.WriteBytes(path, data); err != nil {
			return paths, err
		}
		paths = append(paths, path)
	}
	return paths, nil
}

// OkabeIto returns the Okabe–Ito colour-blind-safe palette (Okabe & Ito,
// "Color Universal Design", 2008), ordered for lines on white: orange, sky
// blue, bluish green, blue, vermillion, reddish purple, black, yellow.
func OkabeIto() []color.Color {
	return []color.Color{
		color.RGBA{0xE6, 0x9F, 0x00, 0xFF},
		color.RGBA{0x56, 0xB4, 0xE9, 0xFF},
		color.RGBA{0x00, 0x9E, 0x73, 0xFF},
		color.RGBA{0x00, 0x72, 0xB2, 0xFF},
		color.RGBA{0xD5, 0x5E, 0x00, 0xFF},
		color.RGBA{0xCC, 0x79, 0xA7, 0xFF},
		color.RGBA{0x00, 0x00, 0x00, 0xFF},
		color.RGBA{0xF0, 0xE4, 0x42, 0xFF},
	}
}

// SeriesColor is the colour of the i-th series; past the palette's length
// colours repeat and SeriesDash tells the series apart.
func SeriesColor(i int) color.Color {
	p := OkabeIto()
	return p[i%len(p)]
}

// SeriesDash is solid for the first len(palette) series, then dashed, then
// dotted.
func SeriesDash(i int) []vg.Length {
	switch (i / len(OkabeIto())) % 3 {
	case 1:
		return []vg.Length{vg.Points(6), vg.Points(3)}
	case 2:
		return []vg.Length{vg.Points(1.5), vg.Points(2)}
	}
	return nil
}

// WithAlpha returns c with opacity a (0..255), premultiplied as
// color.RGBA requires.
func WithAlpha(c color.Color, a uint8) color.Color {
	r, g, b, _ := c.RGBA()
	s := uint32(a)
	return color.RGBA{uint8(r >> 8 * s / 255), uint8(g >> 8 * s / 255), uint8(b >> 8 * s / 255), a}
}

// NewPlot returns a plot with a title, axis labels and a legend at the top.
func NewPlot(title, x, y string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = x
	p.Y.Label.Text = y
	p.Legend.Top = true
	p.Title.TextStyle.Font.Size = vg.Points(11)
	p.X.Label.TextStyle.Font.Size = vg.Points(10)
	p.Y.Label.TextStyle.Font.Size = vg.Points(10)
	p.X.Tick.Label.Font.Size = vg.Points(9)
	p.Y.Tick.Label.Font.Size = vg.Points(9)
	p.Legend.TextStyle.Font.Size = vg.Points(9)
	p.X.Tick.Marker = DistinctTicks{Ticker: plot.DefaultTicks{}}
	p.Y.Tick.Marker = DistinctTicks{Ticker: plot.DefaultTicks{}}
	return p
}

// DistinctTicks wraps a ticker and guarantees that no two labelled ticks
// read the same: when the wrapped labels repeat (a narrow range printed
// with too few digits, e.g. 2.001 and 2.002 both as "2"), every labelled
// tick is relabelled with the fewest significant digits (up to 15) that
// tell them all apart.
type DistinctTicks struct{ Ticker plot.Ticker }

// Ticks implements plot.Ticker.
func (d DistinctTicks) Ticks(min, max float64) []plot.Tick {
	ticks := d.Ticker.Ticks(min, max)
	if labelsDistinct(ticks) {
		return ticks
	}
	for prec := 1; prec <= 15; prec++ {
		out := make([]plot.Tick, len(ticks))
		for i, t := range ticks {
			out[i] = t
			if t.Label != "" {
				out[i].Label = strconv.FormatFloat(t.Value, 'g', prec, 64)
			}
		}
		if labelsDistinct(out) {
			return out
		}
	}
	return ticks
}

func labelsDistinct(ticks []plot.Tick) bool {
	seen := map[string]bool{}
	for _, t := range ticks {
		if t.Label == "" {
			continue
		}
		if seen[t.Label] {
			return false
		}
		seen[t.Label] = true
	}
	return true
}

// FileStem turns an instance name into a safe file-name part: runs of
// characters other than ASCII letters, digits, '.', '_' and '-' become '_'.
func FileStem(s string) string {
	var b strings.Builder
	under := false
	for _, r := range s {
		ok := r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-')
		if ok {
			b.WriteRune(r)
			under = false
		} else if !under {
			b.WriteByte('_')
			under = true
		}
	}
	out := strings.Trim(b.String(), "_.")
	if out == "" {
		return "x"
	}
	return out
}

package figure

import (
	"bytes"
	"fmt"
	"html"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Tip is a tooltip over a bar or a point of one panel: the SVG output
// gets a transparent rectangle over it with an SVG <title>, which
// browsers show on hover (the PNG and PDF outputs are unchanged). The
// rectangle spans X ± HalfWidth (canvas length) and Y0..Y1 (data units);
// a Point gets a square of ±HalfWidth around (X, Y0).
type Tip struct {
	Row, Col  int // the panel in Figure.Panels
	X, Y0, Y1 float64
	Offset    vg.Length // added to X's canvas position (a bar of a group)
	HalfWidth vg.Length
	Point     bool
	Text      string
	// Href, when it is an anchor within the page ("#front-3"), makes the
	// rectangle a link (a front point to its formula in report.html);
	// anything else is ignored, so that a figure never links outside.
	Href string
}

// tipRect is a tip's rectangle in SVG user units (points, origin top left).
type tipRect struct {
	x, y, w, h float64
	text, href string
}

// tipRects places the tips of f on the panels drawn into canvases, for a
// page of height pageH.
func tipRects(tips []Tip, panels [][]*plot.Plot, canvases [][]draw.Canvas, pageH vg.Length) []tipRect {
	var out []tipRect
	for _, t := range tips {
		if t.Row >= len(panels) || t.Col >= len(panels[t.Row]) || panels[t.Row][t.Col] == nil {
			continue
		}
		p := panels[t.Row][t.Col]
		dc := p.DataCanvas(canvases[t.Row][t.Col])
		tx, ty := p.Transforms(&dc)
		cx := tx(t.X) + t.Offset
		lo, hi := ty(t.Y0), ty(t.Y1)
		if t.Point {
			lo, hi = lo-t.HalfWidth, hi+t.HalfWidth
		}
		lo, hi = min(lo, hi), max(lo, hi)
		lo = max(lo, dc.Min.Y) // a log axis maps 0 below the data area
		hi = min(hi, dc.Max.Y)
		out = append(out, tipRect{
			x: float64(cx - t.HalfWidth), y: float64(pageH - hi),
			w: float64(2 * t.HalfWidth), h: float64(max(hi-lo, 1)), text: t.Text, href: internalHref(t.Href),
		})
	}
	return out
}

// withTips inserts the tip rectangles before the closing </svg> of svg.
func withTips(svg []byte, rects []tipRect) []byte {
	if len(rects) == 0 {
		return svg
	}
	end := bytes.LastIndex(svg, []byte("</svg>"))
	if end < 0 {
		return svg
	}
	var b bytes.Buffer
	b.Write(svg[:end])
	b.WriteString(`<g class="tips" fill="#000" fill-opacity="0">` + "\n")
	for _, r := range rects {
		if r.href != "" {
			fmt.Fprintf(&b, `<a href="%s">`, html.EscapeString(r.href))
		}
		fmt.Fprintf(&b, `<rect x="%.2f" y="%.2f" width="%.2f" height="%.2f"><title>%s</title></rect>`,
			r.x, r.y, r.w, r.h, html.EscapeString(r.text))
		if r.href != "" {
			b.WriteString("</a>")
		}
		b.WriteString("\n")
	}
	b.WriteString("</g>\n")
	b.Write(svg[end:])
	return b.Bytes()
}

// internalHref is h when it is an anchor within the page ("#" and at
// least one character, no space or quote), else "".
func internalHref(h string) string {
	if len(h) < 2 || h[0] != '#' || strings.ContainsAny(h, " \t\n\"'<>") {
		return ""
	}
	return h
}

// FormulaAnchor is the anchor of label's formula in report.html
// ("formula-" and the label with characters other than ASCII letters,
// digits, '-', '_' and '.' as '_'; htmlreport.Anchor("formula-", label)):
// front figures link their points to it.
func FormulaAnchor(label string) string {
	var b strings.Builder
	b.WriteString("formula-")
	for _, r := range label {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}

package reports

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"gonum.org/v1/plot/vg"
)

// affine is the SVG matrix (a b c d e f): x' = a·x + c·y + e, y' = b·x + d·y + f.
type affine [6]float64

var identity = affine{1, 0, 0, 1, 0, 0}

// then returns m·n (n applied first).
func (m affine) then(n affine) affine {
	return affine{
		m[0]*n[0] + m[2]*n[1], m[1]*n[0] + m[3]*n[1],
		m[0]*n[2] + m[2]*n[3], m[1]*n[2] + m[3]*n[3],
		m[0]*n[4] + m[2]*n[5] + m[4], m[1]*n[4] + m[3]*n[5] + m[5],
	}
}

func (m affine) apply(x, y float64) (float64, float64) {
	return m[0]*x + m[2]*y + m[4], m[1]*x + m[3]*y + m[5]
}

var transformRE = regexp.MustCompile(`(\w+)\(([^)]*)\)`)

// parseTransform reads the translate, scale, rotate and matrix forms that
// gonum's SVG canvas writes.
func parseTransform(s string) (affine, error) {
	m := identity
	for _, t := range transformRE.FindAllStringSubmatch(s, -1) {
		var a []float64
		for _, f := range strings.FieldsFunc(t[2], func(r rune) bool { return r == ',' || r == ' ' }) {
			v, err := strconv.ParseFloat(f, 64)
			if err != nil {
				return m, fmt.Errorf("transform %q: %w", s, err)
			}
			a = append(a, v)
		}
		var n affine
		switch {
		case t[1] == "translate" && len(a) == 2:
			n = affine{1, 0, 0, 1, a[0], a[1]}
		case t[1] == "scale" && len(a) == 2:
			n = affine{a[0], 0, 0, a[1], 0, 0}
		case t[1] == "rotate" && len(a) == 1:
			r := a[0] * math.Pi / 180
			n = affine{math.Cos(r), math.Sin(r), -math.Sin(r), math.Cos(r), 0, 0}
		case t[1] == "matrix" && len(a) == 6:
			n = affine(a)
		default:
			return m, fmt.Errorf("transform %q: unsupported %s", s, t[0])
		}
		m = m.then(n)
	}
	return m, nil
}

// textBox is the estimated page box of one <text> element.
type textBox struct {
	Text                   string
	MinX, MinY, MaxX, MaxY float64       // axis-aligned bounds
	Corners                [4][2]float64 // the (possibly rotated) box, in order round it
}

var fontSizeRE = regexp.MustCompile(`font-size:([0-9.]+)px`)

// svgTextBoxes parses every <text> of an SVG written by gonum and
// estimates its box: x is the left end of the baseline, the glyphs rise
// 0.65 em above it (cap height) and descend 0.15 em below, and the width is
// the text's advance in the figure font (textWidth); the box is mapped through every
// enclosing transform to page coordinates.
func svgTextBoxes(svg []byte) ([]textBox, error) {
	dec := xml.NewDecoder(bytes.NewReader(svg))
	stack := []affine{identity}
	var boxes []textBox
	for {
		tok, err := dec.Token()
		if err != nil {
			if err.Error() == "EOF" {
				return boxes, nil
			}
			return nil, err
		}
		switch e := tok.(type) {
		case xml.StartElement:
			var x, y, size float64
			var tr string
			for _, a := range e.Attr {
				switch a.Name.Local {
				case "x":
					x, _ = strconv.ParseFloat(a.Value, 64)
				case "y":
					y, _ = strconv.ParseFloat(a.Value, 64)
				case "transform":
					tr = a.Value
				case "style":
					if m := fontSizeRE.FindStringSubmatch(a.Value); m != nil {
						size, _ = strconv.ParseFloat(m[1], 64)
					}
				}
			}
			local, err := parseTransform(tr)
			if err != nil {
				return nil, err
			}
			m := stack[len(stack)-1].then(local)
			stack = append(stack, m)
			if e.Name.Local != "text" {
				continue
			}
			var content string
			if err := dec.DecodeElement(&content, &e); err != nil {
				return nil, err
			}
			stack = stack[:len(stack)-1]
			w := textWidth(content, size)
			b := textBox{Text: content, MinX: math.Inf(1), MinY: math.Inf(1), MaxX: math.Inf(-1), MaxY: math.Inf(-1)}
			for k, c := range [][2]float64{{x, y - 0.65*size}, {x + w, y - 0.65*size}, {x + w, y + 0.15*size}, {x, y + 0.15*size}} {
				px, py := m.apply(c[0], c[1])
				b.Corners[k] = [2]float64{px, py}
				b.MinX, b.MaxX = math.Min(b.MinX, px), math.Max(b.MaxX, px)
				b.MinY, b.MaxY = math.Min(b.MinY, py), math.Max(b.MaxY, py)
			}
			boxes = append(boxes, b)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		}
	}
}

// textWidth measures s in the figures' font (Liberation Serif) at size
// points; SVG user units of gonum's canvas are points. Characters the font
// lacks count 0.5 em.
func textWidth(s string, size float64) float64 {
	sty := newPlot("", "", "").X.Tick.Label
	sty.Font.Size = vg.Points(size)
	w := float64(sty.Width(s))
	if w == 0 {
		w = 0.5 * size * float64(utf8.RuneCountInString(s))
	}
	return w
}

// overlappingText returns the pairs of text boxes of svg that overlap by
// more than slack points in both directions.
func overlappingText(svg []byte, slack float64) ([]string, error) {
	boxes, err := svgTextBoxes(svg)
	if err != nil {
		return nil, err
	}
	var out []string
	for i := range boxes {
		for j := i + 1; j < len(boxes); j++ {
			a, b := boxes[i], boxes[j]
			if boxesOverlap(a.Corners, b.Corners, slack) {
				out = append(out, fmt.Sprintf("%q overlaps %q", a.Text, b.Text))
			}
		}
	}
	return out, nil
}

// boxesOverlap reports whether two convex quadrilaterals overlap by more
// than slack along every separating axis (their edge normals).
func boxesOverlap(a, b [4][2]float64, slack float64) bool {
	for _, q := range [][4][2]float64{a, b} {
		for k := range 2 {
			ex, ey := q[k+1][0]-q[k][0], q[k+1][1]-q[k][1]
			n := math.Hypot(ex, ey)
			if n == 0 {
				return false
			}
			nx, ny := -ey/n, ex/n
			lo1, hi1 := project(a, nx, ny)
			lo2, hi2 := project(b, nx, ny)
			if math.Min(hi1, hi2)-math.Max(lo1, lo2) <= slack {
				return false
			}
		}
	}
	return true
}

func project(q [4][2]float64, nx, ny float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, c := range q {
		v := c[0]*nx + c[1]*ny
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	return lo, hi
}

// The helper itself: two texts on one baseline overlap when the first is
// long enough to reach the second; a rotated label is measured along its
// rotated direction.
func TestOverlappingTextHelper(t *testing.T) {
	svg := func(body string) []byte {
		return []byte(`<svg xmlns="http://www.w3.org/2000/svg"><g transform="scale(1, -1) translate(0, -100)">` + body + `</g></svg>`)
	}
	txt := func(x, y float64, s string) string {
		return fmt.Sprintf(`<text x="%g" y="%g" transform="scale(1, -1)" style="font-size:10px">%s</text>`, x, y, s)
	}
	if got, _ := overlappingText(svg(txt(0, -50, "abcd")+txt(25, -50, "efgh")), 0.5); len(got) != 0 {
		t.Fatalf("separate labels reported: %v", got)
	}
	if got, _ := overlappingText(svg(txt(0, -50, "abcdefgh")+txt(25, -50, "efgh")), 0.5); len(got) != 1 {
		t.Fatalf("overlap missed: %v", got)
	}
	// Rotated by 90°: the long label runs vertically and clears a label
	// beside it.
	rot := `<g transform="rotate(90)">` + txt(0, -50, "abcdefghijkl") + `</g>`
	// Two parallel labels at 45° side by side do not overlap although
	// their axis-aligned bounds do.
	diag := `<g transform="rotate(45)">` + txt(0, -50, "abcdefghijkl") + txt(0, -38, "abcdefghijkl") + `</g>`
	if got, _ := overlappingText(svg(diag), 0.5); len(got) != 0 {
		t.Fatalf("parallel rotated labels reported: %v", got)
	}
	boxes, err := svgTextBoxes(svg(rot))
	if err != nil {
		t.Fatal(err)
	}
	if b := boxes[0]; b.MaxY-b.MinY < 45 || b.MaxX-b.MinX > 10 {
		t.Fatalf("rotated box %+v", b)
	}
}

// No figure has text boxes that overlap.
func TestFiguresTextDoesNotOverlap(t *testing.T) {
	for _, f := range append(figures(t), crowdedFigures(t)...) {
		svg, err := f.Render("svg")
		if err != nil {
			t.Fatal(err)
		}
		bad, err := overlappingText(svg, 0.5)
		if err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		if len(bad) > 0 {
			t.Errorf("%s: %d overlapping texts, e.g. %s", f.Name, len(bad), bad[0])
		}
	}
}

// Legends placed beside the axes (Figure.Legend) lie right of every tick
// label, hence right of every data area; the ranking, JCT CDF and
// trade-off figures use one.
func TestOutsideLegendsBesideData(t *testing.T) {
	for _, c := range []struct {
		name   string
		legend []string
	}{
		{"ranking", []string{"1st", "2nd", "3rd"}},
		{"jct_cdf", []string{"gp", "tiresias"}},
		{"tradeoff", []string{"learned (GP), mean and 95% CI over 2 seeds", "gp", "tiresias", "spark"}},
		{"pressure", []string{"gp", "tiresias", "spark"}},
	} {
		var f *Figure
		for _, g := range figures(t) {
			if g.Name == c.name {
				f = g
			}
		}
		if f == nil || f.Legend == nil {
			t.Fatalf("%s: no figure legend", c.name)
		}
		svg, err := f.Render("svg")
		if err != nil {
			t.Fatal(err)
		}
		boxes, err := svgTextBoxes(svg)
		if err != nil {
			t.Fatal(err)
		}
		legendLeft, othersRight := math.Inf(1), math.Inf(-1)
		found := 0
		for _, b := range boxes {
			if slices.Contains(c.legend, b.Text) {
				legendLeft = math.Min(legendLeft, b.MinX)
				found++
				continue
			}
			if b.MaxY-b.MinY < 10 && !strings.Contains(b.Text, " ") { // tick labels: short, level
				othersRight = math.Max(othersRight, b.MaxX)
			}
		}
		if found != len(c.legend) {
			t.Fatalf("%s: %d of %d legend entries found", c.name, found, len(c.legend))
		}
		if legendLeft <= othersRight {
			t.Errorf("%s: legend starts at x = %.1f, left of a tick label ending at %.1f", c.name, legendLeft, othersRight)
		}
	}
}

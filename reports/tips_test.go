package reports

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

var (
	tipRectRE = regexp.MustCompile(`<rect x="([-0-9.]+)" y="([-0-9.]+)" width="([-0-9.]+)" height="([-0-9.]+)"><title>([^<]*)</title></rect>`)
	barPathRE = regexp.MustCompile(`<path d="M([-0-9.]+),([-0-9.]+)L([-0-9.]+),([-0-9.]+)L([-0-9.]+),([-0-9.]+)L([-0-9.]+),([-0-9.]+)Z" style="fill:#`)
	svgHRE    = regexp.MustCompile(`viewBox="0 0 [0-9.]+ ([0-9.]+)"`)
)

func atof(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// Every bar of the ranking and breakdown figures carries an SVG <title>
// tooltip whose rectangle lies exactly over a drawn bar (page coordinates,
// y down; the bars are drawn in the flipped y-up group).
func TestTooltipsCoverBars(t *testing.T) {
	rank, err := RankingPlot(statsTable())
	if err != nil {
		t.Fatal(err)
	}
	bd, err := BreakdownPlot(statsTable(), "")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		f    *Figure
		tips int
		text string
	}{{rank, 9, "gp: 1st "}, {bd, 9, "spark: objective 4 (95% CI "}} {
		svg, err := c.f.Render("svg")
		if err != nil {
			t.Fatal(err)
		}
		s := string(svg)
		h := atof(t, svgHRE.FindStringSubmatch(s)[1])
		var bars [][4]float64 // x0, x1, top, bottom in page coordinates
		for _, m := range barPathRE.FindAllStringSubmatch(s, -1) {
			x0, y0, y1, x1 := atof(t, m[1]), atof(t, m[2]), atof(t, m[4]), atof(t, m[5])
			bars = append(bars, [4]float64{x0, x1, h - math.Max(y0, y1), h - math.Min(y0, y1)})
		}
		rects := tipRectRE.FindAllStringSubmatch(s, -1)
		if len(rects) != c.tips {
			t.Fatalf("%s: %d tooltips, want %d", c.f.Name, len(rects), c.tips)
		}
		found := false
		for _, r := range rects {
			x, y, w, hh := atof(t, r[1]), atof(t, r[2]), atof(t, r[3]), atof(t, r[4])
			found = found || strings.HasPrefix(r[5], c.text)
			if hh <= 1 { // a zero-height bar draws no path
				continue
			}
			over := false
			for _, b := range bars {
				if math.Abs(b[0]-x) < 0.02 && math.Abs(b[1]-(x+w)) < 0.02 && math.Abs(b[2]-y) < 0.02 && math.Abs(b[3]-(y+hh)) < 0.02 {
					over = true
				}
			}
			if !over {
				t.Errorf("%s: tooltip %q at (%g, %g, %g×%g) covers no bar", c.f.Name, r[5], x, y, w, hh)
			}
		}
		if !found {
			t.Errorf("%s: no tooltip starts with %q", c.f.Name, c.text)
		}
	}
	// PNG output is unchanged by tooltips.
	png1, _ := bd.Render("png")
	bd.Tips = nil
	png2, _ := bd.Render("png")
	if string(png1) != string(png2) {
		t.Error("tooltips changed the PNG")
	}
}

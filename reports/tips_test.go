package reports

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg/draw"

	"github.com/evogp/evogp/internal/frontplot"
)

var (
	tipRectRE = regexp.MustCompile(`<rect x="([-0-9.]+)" y="([-0-9.]+)" width="([-0-9.]+)" height="([-0-9.]+)"><title>([^<]*)</title></rect>`)
	barPathRE = regexp.MustCompile(`<path d="M([-0-9.]+),([-0-9.]+)L([-0-9.]+),([-0-9.]+)L([-0-9.]+),([-0-9.]+)L([-0-9.]+),([-0-9.]+)Z"( style="fill:#|  />)`) // a black bar has no fill style
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
	}{{rank, 9, "gp: 1st "}, {bd, 9, "spark: objective 4 (mean of 4)"}} {
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

var svgWRE = regexp.MustCompile(`viewBox="0 0 ([0-9.]+) [0-9.]+"`)

// allFigureKinds is every figure kind the package draws (pinnedFigures,
// the EVO and estimate figures and a front), each on fixed data.
func allFigureKinds(t *testing.T) []*Figure {
	t.Helper()
	figs := pinnedFigures(t)
	add := func(f *Figure, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		figs = append(figs, f)
	}
	add(OpsTimePlot(plotOps()))
	res, pairs := plotEVOResults()
	add(EVORankingPlot(res, pairs))
	add(EstimateErrorCDFPlot([]string{"adaptive", "head"}, [][]float64{{0, 1, 2, 3}, {10, 20, 40, 80}}))
	add(StabilityPlot(StabilityTrace{Name: "s.csv", Times: []float64{2.7, 0.75, 0.74, 0.75, 0.76, 0.75, 0.75, 0.74},
		StableAt: 2, SampleFrom: 2, SampleTo: 5, Observed: 6}))
	add(frontplot.Plot(frontplot.Input{Name: "front", XLabel: "cq_avg", YLabel: "size",
		Members:   []frontplot.Point{{Label: "front-1", X: 1, Y: 9, OmegaLo: 0, OmegaHi: 0.5}, {Label: "front-2", X: 2, Y: 3, OmegaLo: 0.5, OmegaHi: 1}},
		Baselines: []frontplot.Point{{Label: "spark", X: 1.5, Y: 0}}}))
	add(frontplot.HypervolumePlot("hypervolume", []float64{0.2, 0.4, 0.5}, 0.45))
	return figs
}

// Every figure kind has SVG <title> tooltips: one rectangle per tip, all
// on the page, none in the legend strip beside the panels; front members
// link to their formulas' anchors and nothing links outside the page.
func TestEveryFigureKindHasTooltips(t *testing.T) {
	for _, f := range allFigureKinds(t) {
		if len(f.Tips) == 0 {
			t.Errorf("%s: no tooltips", f.Name)
			continue
		}
		svg, err := f.Render("svg")
		if err != nil {
			t.Fatal(err)
		}
		s := string(svg)
		w, h := atof(t, svgWRE.FindStringSubmatch(s)[1]), atof(t, svgHRE.FindStringSubmatch(s)[1])
		legendLeft := w
		if f.Legend != nil && !f.LegendBelow {
			legendLeft = w - float64(f.Legend.Rectangle(draw.Canvas{}).Size().X)
		}
		rects := tipRectRE.FindAllStringSubmatch(s, -1)
		if len(rects) != len(f.Tips) {
			t.Errorf("%s: %d tooltip rectangles for %d tips", f.Name, len(rects), len(f.Tips))
		}
		for _, r := range rects {
			x, y, rw, rh := atof(t, r[1]), atof(t, r[2]), atof(t, r[3]), atof(t, r[4])
			if x < 0 || y < 0 || x+rw > w+0.01 || y+rh > h+0.01 || x+rw/2 > legendLeft {
				t.Errorf("%s: tooltip %q at (%g, %g, %g×%g) is off the panels of a %g×%g page", f.Name, r[5], x, y, rw, rh, w, h)
			}
		}
		for _, m := range regexp.MustCompile(`<a href="([^"]*)">`).FindAllStringSubmatch(s, -1) {
			if !strings.HasPrefix(m[1], "#formula-") {
				t.Errorf("%s: link %q", f.Name, m[1])
			}
		}
		if f.Name == "front" && strings.Count(s, `<a href="#formula-front-`) != 2 {
			t.Errorf("front: members do not link to their formulas")
		}
	}
}

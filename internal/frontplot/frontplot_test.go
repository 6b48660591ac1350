package frontplot

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/evogp/evogp/internal/figure"
)

// The collisions issue 44 found on front.png: front-1 on top of tiresias
// and srsf (identical rows), front-3 beside liquid; and a crowded front
// of 20 members. No label may overlap another label or a point, and
// every label stays in the data area.
func TestFrontLabelsNeverOverlap(t *testing.T) {
	nan := math.NaN()
	crowded := Input{Name: "front", Title: "validation front (20 members)", XLabel: "x", YLabel: "y", OmegaVariable: "ω·a + (1 − ω)·b"}
	for i := range 20 {
		crowded.Members = append(crowded.Members, Point{Label: fmt.Sprintf("front-%d", i+1), X: 1 + 0.01*float64(i), Y: 1.2 - 0.01*float64(i), OmegaLo: nan, OmegaHi: nan})
	}
	crowded.Baselines = []Point{{Label: "tiresias", X: 1.05, Y: 1.15}, {Label: "srsf", X: 1.05, Y: 1.15}, {Label: "liquid", X: 1.1, Y: 1.1}}
	issue := Input{Name: "front", Title: "validation front (3 members)", XLabel: "avg_jct", YLabel: "max_qt",
		Members: []Point{
			{Label: "front-1", X: 1, Y: 1, OmegaLo: 0.6, OmegaHi: 1},
			{Label: "front-2", X: 1.02, Y: 0.8, OmegaLo: 0.2, OmegaHi: 0.6},
			{Label: "front-3", X: 1.06, Y: 0.35, OmegaLo: 0, OmegaHi: 0.2},
		},
		Baselines: []Point{{Label: "tiresias", X: 1, Y: 1}, {Label: "srsf", X: 1, Y: 1}, {Label: "liquid", X: 1.061, Y: 0.345}, {Label: "spark", X: 1.2, Y: 0.4}}}
	for _, in := range []Input{issue, crowded} {
		var layout figure.LabelLayout
		in.Layout = &layout
		f, err := Plot(in)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.Render("png"); err != nil {
			t.Fatal(err)
		}
		if len(layout.Labels) != len(in.Members)+len(in.Baselines) {
			t.Fatalf("%s: %d labels", in.Title, len(layout.Labels))
		}
		for i, a := range layout.Labels {
			if !a.Inside(layout.Area) {
				t.Errorf("%s: label %d outside the data area", in.Title, i)
			}
			for j, b := range layout.Labels[i+1:] {
				if a.Overlaps(b) {
					t.Errorf("%s: labels %d and %d overlap", in.Title, i, i+1+j)
				}
			}
			for j, p := range layout.Points {
				if a.Overlaps(p) {
					t.Errorf("%s: label %d overlaps point %d", in.Title, i, j)
				}
			}
		}
		if !f.LegendBelow {
			t.Errorf("%s: legend beside the panel narrows it and cuts the title", in.Title)
		}
	}
}

// Titles and colours: "1 member", baselines in their fixed colours, no
// promise of the colour scale's ends.
func TestFrontTitleAndColours(t *testing.T) {
	if Members(1) != "1 member" || Members(3) != "3 members" {
		t.Fatalf("%q %q", Members(1), Members(3))
	}
	in := Input{Name: "front", Title: "t", Members: []Point{{Label: "front-1", X: 1, Y: 1, OmegaLo: 0, OmegaHi: 1}},
		Baselines: []Point{{Label: "tiresias", X: 2, Y: 2}}, OmegaVariable: "ω·a + (1 − ω)·b"}
	f, err := Plot(in)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := figure.SchedulerColor("tiresias")
	if f.LabelColors["tiresias"] != want {
		t.Errorf("tiresias %v, want %v", f.LabelColors["tiresias"], want)
	}
	svg, err := f.Render("svg")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(svg), "(blue ω = 0 … orange ω = 1") {
		t.Error("the legend still promises the scale's end colours")
	}
}

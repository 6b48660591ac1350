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

// The ω grid's picks (issue 42): each ω goes to the first member whose ω
// interval holds it (at an interval's end the first of the two), a member
// winning no ω is never picked, the picked members are circled and their
// labels name their ω, and no label overlaps a label, a point or a ring.
func TestFrontPicksOnTheGrid(t *testing.T) {
	nan := math.NaN()
	members := []Point{
		{Label: "front-1", X: 1, Y: 1, OmegaLo: 0.6, OmegaHi: 1},
		{Label: "front-2", X: 1.02, Y: 0.8, OmegaLo: 0.25, OmegaHi: 0.6},
		{Label: "front-3", X: 1.03, Y: 0.79, OmegaLo: nan, OmegaHi: nan},
		{Label: "front-4", X: 1.06, Y: 0.35, OmegaLo: 0, OmegaHi: 0.25},
	}
	grid := []float64{0, 0.25, 0.5, 0.75, 1}
	got := Picks(members, grid)
	want := map[int][]float64{0: {0.75, 1}, 1: {0.25, 0.5}, 3: {0}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("picks %v, want %v", got, want)
	}
	if len(Picks(members, nil)) != 0 {
		t.Error("no grid, yet picks")
	}
	var layout figure.LabelLayout
	in := Input{Name: "tradeoff_front", Title: "t", XLabel: "cq_avg", YLabel: "cq_max", Members: members, Grid: grid,
		Baselines: []Point{{Label: "liquid", X: 1.061, Y: 0.345}, {Label: "srsf", X: 1, Y: 1}}, OmegaVariable: "ω·a + (1 − ω)·b", Layout: &layout}
	f, err := Plot(in)
	if err != nil {
		t.Fatal(err)
	}
	svg, err := f.Render("svg")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"front-1 (ω 0.75, 1)", "front-2 (ω 0.25, 0.5)", "front-4 (ω 0)", "circled: the member picked on validation for each ω of the grid 0, 0.25, 0.5, 0.75, 1"} {
		if !strings.Contains(string(svg), s) {
			t.Errorf("the figure lacks %q", s)
		}
	}
	if strings.Contains(string(svg), "front-3 (ω") {
		t.Error("front-3 wins no ω but is labelled as picked")
	}
	for i, a := range layout.Labels {
		for j, b := range layout.Labels[i+1:] {
			if a.Overlaps(b) {
				t.Errorf("labels %d and %d overlap", i, i+1+j)
			}
		}
		for j, p := range layout.Points {
			if a.Overlaps(p) {
				t.Errorf("label %d overlaps point %d (with its ring)", i, j)
			}
		}
	}
	// Without a grid the figure is as before: no ring, plain labels.
	in.Grid, in.Layout = nil, nil
	f, err = Plot(in)
	if err != nil {
		t.Fatal(err)
	}
	svg, _ = f.Render("svg")
	if strings.Contains(string(svg), "circled") || strings.Contains(string(svg), "front-1 (ω") {
		t.Error("no grid, yet the picks are drawn")
	}
}

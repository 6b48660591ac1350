package reports

import (
	"strings"
	"testing"

	"gonum.org/v1/plot"
)

// labelledTicks returns the labelled ticks of an axis as drawn.
func labelledTicks(a plot.Axis) []string {
	var out []string
	for _, tk := range a.Tick.Marker.Ticks(a.Min, a.Max) {
		if tk.Label != "" {
			out = append(out, tk.Label)
		}
	}
	return out
}

// Both convergence figures span exactly the generations run, label at
// least five distinct y values, keep the legend under the axes (no data
// width lost to it), and a single run draws validation and baseline so
// that they can be told apart where they overlap.
func TestConvergenceAxesAndOverlap(t *testing.T) {
	gens := plotGenerations() // generations 0..9, best 3 → 2.1
	ref := ConvergenceRef{Subset: 3, Baseline: "liquid", Level: 0.705,
		Validation: []ValidationPoint{{Generation: 0, Score: 0.9}, {Generation: 9, Score: 0.7}}}
	single, err := ConvergencePlot(gens, ref)
	if err != nil {
		t.Fatal(err)
	}
	sweep, err := ConvergenceOverlayPlot([]RunGenerations{{Label: "a", Rows: gens[2:], Subset: 3}, {Label: "b", Rows: gens[:7], Subset: 3}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		f      *Figure
		lo, hi float64
	}{{single, 0, 9}, {sweep, 0, 9}} {
		p := c.f.Panels[0][0]
		if p.X.Min != c.lo || p.X.Max != c.hi {
			t.Errorf("%s: x range %v..%v, want the generations run %v..%v", c.f.Name, p.X.Min, p.X.Max, c.lo, c.hi)
		}
		ys := labelledTicks(p.Y)
		if len(ys) < 5 {
			t.Errorf("%s: %d labelled y ticks %q, want ≥ 5", c.f.Name, len(ys), ys)
		}
		seen := map[string]bool{}
		for _, l := range ys {
			if seen[l] || len(l) > 6 {
				t.Errorf("%s: y tick labels %q repeat or are long", c.f.Name, ys)
			}
			seen[l] = true
		}
		if !c.f.LegendBelow {
			t.Errorf("%s: legend beside the axes", c.f.Name)
		}
	}
	// The baseline (0.705) lies within 3 % of the y range of the last
	// validation score (0.7): its legend entry says so with both values.
	svg, err := single.Render("svg")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(svg), "best baseline liquid on validation (0.705; overlaps the validation line, 0.7 at generation 9)") {
		t.Error("overlapping validation and baseline lines not noted in the legend")
	}
	ref.Level = 0.5
	far, err := ConvergencePlot(gens, ref)
	if err != nil {
		t.Fatal(err)
	}
	svg, _ = far.Render("svg")
	if strings.Contains(string(svg), "overlaps") {
		t.Error("distant baseline reported as overlapping")
	}
}

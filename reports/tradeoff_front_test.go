package reports

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/evogp/evogp/internal/figure"
)

// checkLayout renders f (which fills layout) and fails on any label that
// overlaps another label or a point, or leaves the data area.
func checkLayout(t *testing.T, name string, f *Figure, layout *figure.LabelLayout, labels int) {
	t.Helper()
	if _, err := f.Render("png"); err != nil {
		t.Fatal(err)
	}
	if len(layout.Labels) != labels {
		t.Fatalf("%s: %d labels laid out, want %d", name, len(layout.Labels), labels)
	}
	for i, a := range layout.Labels {
		if !a.Inside(layout.Area) {
			t.Errorf("%s: label %d %v outside the data area %v", name, i, a, layout.Area)
		}
		for j, b := range layout.Labels[i+1:] {
			if a.Overlaps(b) {
				t.Errorf("%s: labels %d and %d overlap: %v %v", name, i, i+1+j, a, b)
			}
		}
		for j, p := range layout.Points {
			if a.Overlaps(p) {
				t.Errorf("%s: label %d overlaps point %d: %v %v", name, i, j, a, p)
			}
		}
	}
}

func omegaGrid(ws []float64, at func(i int) (x, y float64)) []OmegaPoint {
	var out []OmegaPoint
	for i, w := range ws {
		x, y := at(i)
		out = append(out, OmegaPoint{Omega: w, Seeds: 3, AvgJCT: y, MaxQT: x, AvgJCTMin: y * 0.97, AvgJCTMax: y * 1.03, MaxQTMin: x * 0.9, MaxQTMax: x * 1.1})
	}
	return out
}

// The collisions issue 44 lists: ω points on top of tiresias and srsf
// (identical rows: the same point), another beside liquid; then a
// crowded front of 15 ω points in a small region with every baseline
// among them; then random fronts. No label may overlap another label or
// any point.
func TestTradeoffFrontLabelsNeverOverlap(t *testing.T) {
	type tc struct {
		name      string
		omegas    []OmegaPoint
		baselines []BaselinePoint
	}
	cases := []tc{{
		name: "issue 44 collisions",
		omegas: omegaGrid([]float64{0, 0.25, 0.5, 0.75, 1}, func(i int) (float64, float64) {
			return []float64{3.1, 3.0, 2.0, 1.21, 0.9}[i], []float64{2.70, 2.69, 2.6, 2.62, 2.9}[i]
		}),
		baselines: []BaselinePoint{{"spark", 2.62, 1.2}, {"liquid", 2.62, 1.2}, {"tiresias", 2.69, 3.0}, {"lyra", 2.62, 1.2}, {"srsf", 2.69, 3.0}},
	}, {
		name: "crowded front",
		omegas: omegaGrid([]float64{0, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95, 1}, func(i int) (float64, float64) {
			return 1 + 0.02*float64(i), 2 - 0.015*float64(i)
		}),
		baselines: []BaselinePoint{{"spark", 1.9, 1.1}, {"liquid", 1.85, 1.15}, {"tiresias", 1.95, 1.2}, {"lyra", 1.8, 1.05}, {"srsf", 1.95, 1.2}},
	}, {
		name: "a baseline an order of magnitude off (log axes)",
		omegas: omegaGrid([]float64{0, 0.5, 1}, func(i int) (float64, float64) {
			return 1 + float64(i), 2 - 0.2*float64(i)
		}),
		baselines: []BaselinePoint{{"spark", 2, 1.5}, {"tiresias", 60, 40}, {"liquid", 1.9, 1.6}},
	}}
	rng := rand.New(rand.NewPCG(44, 1))
	for k := range 6 {
		n := 3 + rng.IntN(10)
		ws := make([]float64, n)
		for i := range ws {
			ws[i] = float64(i) / float64(n)
		}
		c := tc{name: fmt.Sprintf("random %d", k), omegas: omegaGrid(ws, func(int) (float64, float64) { return 1 + rng.Float64(), 1 + rng.Float64() })}
		for _, b := range []string{"spark", "liquid", "tiresias", "lyra"} {
			c.baselines = append(c.baselines, BaselinePoint{b, 1 + rng.Float64(), 1 + rng.Float64()})
		}
		cases = append(cases, c)
	}
	for _, c := range cases {
		var layout figure.LabelLayout
		f, err := TradeoffFrontPlot(c.omegas, c.baselines, &layout)
		if err != nil {
			t.Fatal(err)
		}
		checkLayout(t, c.name, f, &layout, len(c.omegas)+len(c.baselines))
	}
}

// Log axes exactly when a value is an order of magnitude off; one colour
// per scheduler whatever else the figure holds.
func TestTradeoffFrontAxesAndColours(t *testing.T) {
	om := omegaGrid([]float64{0, 1}, func(i int) (float64, float64) { return 1 + float64(i), 2 })
	f, err := TradeoffFrontPlot(om, []BaselinePoint{{"tiresias", 2, 1.5}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if p := f.Panels[0][0]; p.X.Label.Text != "MaxQT (h)" || p.Y.Label.Text != "AvgJCT (h)" {
		t.Errorf("linear axes expected: %q, %q", p.X.Label.Text, p.Y.Label.Text)
	}
	g, err := TradeoffFrontPlot(om, []BaselinePoint{{"liquid", 2, 1.5}, {"tiresias", 30, 40}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if p := g.Panels[0][0]; p.X.Label.Text != "MaxQT (h), log scale" || p.Y.Label.Text != "AvgJCT (h), log scale" {
		t.Errorf("log axes expected: %q, %q", p.X.Label.Text, p.Y.Label.Text)
	}
	want, _ := figure.SchedulerColor("tiresias")
	if f.LabelColors["tiresias"] != want || g.LabelColors["tiresias"] != want {
		t.Errorf("tiresias drawn in %v and %v, want %v in both", f.LabelColors["tiresias"], g.LabelColors["tiresias"], want)
	}
}

func TestOmegaPointsMeanAndSpread(t *testing.T) {
	rows := []SweepRow{
		{Point: "a", Omega: 0.5, Seed: 1, AvgJCT: 2, MaxQT: 1, Objective: 1.5},
		{Point: "a", Omega: 0.5, Seed: 2, AvgJCT: 4, MaxQT: 3, Objective: 3.5},
		{Point: "b", Omega: 0, Seed: 1, AvgJCT: 5, MaxQT: 0.5, Objective: 0.5},
	}
	ps, err := OmegaPoints(rows)
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 2 || ps[0].Omega != 0 || ps[1].AvgJCT != 3 || ps[1].MaxQT != 2 || ps[1].AvgJCTMin != 2 || ps[1].MaxQTMax != 3 || ps[1].Seeds != 2 {
		t.Fatalf("%+v", ps)
	}
}

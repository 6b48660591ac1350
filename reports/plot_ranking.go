package reports

import (
	"errors"
	"fmt"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/evogp/evogp/internal/figure"
)

// groupedBars adds one bar series per entry of values (values[s][g] is the
// bar of series s in group g), offset so that the series of a group sit side
// by side, filling 80% of the group's width. plotWidth approximates the
// width of the data area.
func groupedBars(p *plot.Plot, leg *plot.Legend, names []string, values [][]float64, plotWidth vg.Length) error {
	_, err := groupedBarsTips(p, leg, names, nil, values, plotWidth)
	return err
}

// groupedBarsTips is groupedBars that also returns a tooltip per bar,
// "group: series value", for panel (0, 0); groups names the groups (nil:
// no tooltips).
func groupedBarsTips(p *plot.Plot, leg *plot.Legend, names, groups []string, values [][]float64, plotWidth vg.Length) ([]figure.Tip, error) {
	var tips []figure.Tip
	if len(values) == 0 || len(values[0]) == 0 {
		return nil, errors.New("no bars")
	}
	n := len(values[0])
	w := plotWidth * 0.8 / vg.Length(n*len(values))
	for s, vs := range values {
		b, err := plotter.NewBarChart(plotter.Values(vs), w)
		if err != nil {
			return nil, err
		}
		b.Color = seriesColor(s)
		b.LineStyle.Width = 0
		b.Offset = w * (vg.Length(s) - vg.Length(len(values)-1)/2)
		p.Add(b)
		leg.Add(names[s], b)
		for g, v := range vs {
			if g < len(groups) {
				tips = append(tips, figure.Tip{X: float64(g), Y0: 0, Y1: v, Offset: b.Offset, HalfWidth: w / 2,
					Text: fmt.Sprintf("%s: %s %g", groups[g], names[s], v)})
			}
		}
	}
	return tips, nil
}

// RankingPlot draws paper Fig. 4: for every scheduler, grouped bars of how
// many instances (complete (instance, seed) keys) it ranked 1st, 2nd, … on
// the objective, by competition ranking (ties share the better rank).
func RankingPlot(rows []ResultRow) (*Figure, error) {
	t, err := newObjectiveTable(rows)
	if err != nil {
		return nil, fmt.Errorf("ranking plot: %w", err)
	}
	rk := t.ranks()
	if rk.ranked == 0 {
		return nil, errors.New("ranking plot: no instance on which every scheduler ran")
	}
	n := len(t.scheds)
	names := make([]string, n)
	values := make([][]float64, n) // series = rank position, group = scheduler
	for k := range n {
		names[k] = ordinal(k + 1)
		values[k] = make([]float64, n)
		for s := range n {
			values[k][s] = float64(rk.counts[s][k])
		}
	}
	p := newPlot(fmt.Sprintf("Ranking on the objective over %d instances", rk.ranked), "scheduler", "instances (count)")
	p.NominalX(t.scheds...)
	extra := fitNominalLabels(p, t.scheds, figW*0.7)
	p.Y.Min = 0
	p.Y.Max = float64(rk.ranked) * 1.05
	leg := figure.NewLegend()
	tips, err := groupedBarsTips(p, leg, names, t.scheds, values, figW*0.7)
	if err != nil {
		return nil, fmt.Errorf("ranking plot: %w", err)
	}
	return &Figure{Name: "ranking", Width: figW, Height: figH + extra, Panels: [][]*plot.Plot{{p}}, Legend: leg, Tips: tips}, nil
}

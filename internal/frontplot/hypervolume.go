package frontplot

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/evogp/evogp/internal/figure"
)

// HypervolumePlot draws the convergence of a multi-objective run: the
// hypervolume of each generation's non-dominated members on its training
// subset (hv[g] for generation g), with the validation front's hypervolume
// as a reference line when it is finite.
func HypervolumePlot(name string, hv []float64, validation float64) (*figure.Figure, error) {
	if len(hv) == 0 {
		return nil, errors.New("hypervolume plot: no generations")
	}
	xy := make(plotter.XYs, len(hv))
	var tips []figure.Tip
	for g, v := range hv {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("hypervolume plot: generation %d has hypervolume %v", g, v)
		}
		xy[g] = plotter.XY{X: float64(g), Y: v}
		tips = append(tips, figure.Tip{X: float64(g), Y0: v, Y1: v, Point: true, HalfWidth: vg.Points(3),
			Text: fmt.Sprintf("generation %d: hypervolume %.4g (training subset)", g, v)})
	}
	p := figure.NewPlot("hypervolume per generation (normalised objectives)", "generation", "hypervolume")
	leg := figure.NewLegend()
	line, err := plotter.NewLine(xy)
	if err != nil {
		return nil, err
	}
	line.Color = figure.SeriesColor(3)
	p.Add(line)
	leg.Add("population front (training subset)", line)
	if !math.IsNaN(validation) && !math.IsInf(validation, 0) {
		ref, err := plotter.NewLine(plotter.XYs{{X: 0, Y: validation}, {X: float64(max(len(hv)-1, 1)), Y: validation}})
		if err != nil {
			return nil, err
		}
		ref.Color = figure.SeriesColor(4)
		ref.Dashes = figure.SeriesDash(8)
		p.Add(ref)
		leg.Add("final front (validation)", ref)
	}
	return &figure.Figure{Name: name, Width: figure.Width, Height: figure.Height, Panels: [][]*plot.Plot{{p}}, Legend: leg, Tips: tips}, nil
}

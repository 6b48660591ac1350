package reports

import (
	"errors"
	"fmt"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/evogp/evogp/internal/figure"
	"github.com/evogp/evogp/internal/runlog"
)

// ConvergenceRef adds references to a convergence plot (see runlog).
type ConvergenceRef = runlog.ConvergenceRef

// ValidationPoint is a validation score at a generation.
type ValidationPoint = runlog.ValidationPoint

// ConvergencePlot draws a GP run's best and median fitness per generation,
// with optional references (runlog.ConvergencePlot, shared with learn).
func ConvergencePlot(rows []GenerationRow, refs ...ConvergenceRef) (*Figure, error) {
	return runlog.ConvergencePlot(rows, refs...)
}

// RunGenerations is one learning run's generation table, labelled (e.g.
// by its sweep point).
type RunGenerations struct {
	Label string
	Rows  []GenerationRow
}

// ConvergenceOverlayPlot draws the best fitness per generation of several
// runs (the points of a sweep) on one axis, one line per run, in the order
// given. Fitness is Σ over the generation's training subset of
// O_c,i / O_SRSF,i (SPEC §8); runs with different subset sizes are not
// comparable in absolute terms.
func ConvergenceOverlayPlot(runs []RunGenerations) (*Figure, error) {
	if len(runs) == 0 {
		return nil, errors.New("convergence overlay: no runs")
	}
	p := newPlot("GP convergence of every sweep point (best fitness)", "generation", "best fitness (Σ objective ÷ SRSF objective)")
	leg := figure.NewLegend()
	for i, run := range runs {
		if len(run.Rows) == 0 {
			return nil, fmt.Errorf("convergence overlay: run %q has no generations", run.Label)
		}
		rs := slices.Clone(run.Rows)
		slices.SortStableFunc(rs, func(a, b GenerationRow) int { return int(a.Generation - b.Generation) })
		xy := make(plotter.XYs, len(rs))
		for k, r := range rs {
			if err := r.Check(); err != nil {
				return nil, fmt.Errorf("convergence overlay: run %q generation %d: %w", run.Label, r.Generation, err)
			}
			xy[k] = plotter.XY{X: float64(r.Generation), Y: r.Best}
		}
		l, err := plotter.NewLine(xy)
		if err != nil {
			return nil, fmt.Errorf("convergence overlay: %w", err)
		}
		l.Color = seriesColor(i)
		l.Dashes = seriesDash(i)
		l.Width = vg.Points(1.2)
		p.Add(l)
		leg.Add(run.Label, l)
	}
	return &Figure{Name: "convergence_sweep", Width: figW, Height: figH, Panels: [][]*plot.Plot{{p}}, Legend: leg}, nil
}

package reports

import (
	"errors"
	"fmt"
	"math"
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
// by its sweep point). Subset is the run's training subset size α
// (gp.subset; 0 = unknown).
type RunGenerations struct {
	Label  string
	Rows   []GenerationRow
	Subset int
}

// ConvergenceOverlayPlot draws the best fitness per generation of several
// runs (the points of a sweep) on one axis, one line per run, in the order
// given. It plots the quantity a single run's ConvergencePlot plots: with
// every run's Subset known, fitness ÷ α, the per-instance mean of
// O_c,i / O_SRSF,i (SPEC §8), comparable across subset sizes; with none
// known, the subset sum, said so on the axis. Some known and some not is
// an error. The x axis spans the generations run, the legend sits under
// the axes, and the SVG has a tooltip per point.
func ConvergenceOverlayPlot(runs []RunGenerations) (*Figure, error) {
	if len(runs) == 0 {
		return nil, errors.New("convergence overlay: no runs")
	}
	known := 0
	for _, run := range runs {
		if run.Subset > 0 {
			known++
		}
	}
	if known != 0 && known != len(runs) {
		for _, run := range runs {
			if run.Subset <= 0 {
				return nil, fmt.Errorf("convergence overlay: run %q has no training subset size while others have one: its fitness sums cannot be drawn beside per-instance means", run.Label)
			}
		}
	}
	p := newPlot("GP convergence of every sweep point", "generation", "best: "+runlog.FitnessLabel(known))
	p.X.Tick.Marker = figure.MinTicks{N: 5, Integer: true}
	p.Y.Tick.Marker = figure.DistinctTicks{Ticker: figure.MinTicks{N: 5}}
	leg := figure.NewLegend()
	var tips []figure.Tip
	lo, hi := math.Inf(1), math.Inf(-1)
	for i, run := range runs {
		if len(run.Rows) == 0 {
			return nil, fmt.Errorf("convergence overlay: run %q has no generations", run.Label)
		}
		scale := 1.0
		if run.Subset > 0 {
			scale = float64(run.Subset)
		}
		rs := slices.Clone(run.Rows)
		slices.SortStableFunc(rs, func(a, b GenerationRow) int { return int(a.Generation - b.Generation) })
		xy := make(plotter.XYs, len(rs))
		for k, r := range rs {
			if err := r.Check(); err != nil {
				return nil, fmt.Errorf("convergence overlay: run %q generation %d: %w", run.Label, r.Generation, err)
			}
			xy[k] = plotter.XY{X: float64(r.Generation), Y: r.Best / scale}
			lo, hi = math.Min(lo, xy[k].X), math.Max(hi, xy[k].X)
			tips = append(tips, figure.Tip{X: xy[k].X, Y0: xy[k].Y, Y1: xy[k].Y, Point: true, HalfWidth: vg.Points(3),
				Text: fmt.Sprintf("%s, generation %d: best %.4g (%s)", run.Label, r.Generation, xy[k].Y, r.BestFormula)})
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
	p.X.Min, p.X.Max = lo, hi
	if lo == hi {
		p.X.Min, p.X.Max = lo-0.5, hi+0.5
	}
	return &Figure{Name: "convergence_sweep", Width: figW, Height: figH, Panels: [][]*plot.Plot{{p}}, Legend: leg, LegendBelow: true, Tips: tips}, nil
}

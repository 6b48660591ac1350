package runlog

import (
	"errors"
	"fmt"
	"image/color"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/evogp/evogp/internal/figure"
	"github.com/evogp/evogp/internal/tablefile"
)

// GenerationRow is one row of generations.parquet, written by the GP
// learner once per generation. Fitness values are the (minimised) sums of
// normalised objectives of SPEC §8; Unique counts distinct individuals,
// Evaluations the simulations run in the generation and CacheHits those
// answered from the fitness cache.
type GenerationRow struct {
	Generation  int64   `parquet:"generation"`
	Best        float64 `parquet:"best"`
	Median      float64 `parquet:"median"`
	Worst       float64 `parquet:"worst"`
	BestFormula string  `parquet:"best_formula"`
	Size        int64   `parquet:"size"`
	Depth       int64   `parquet:"depth"`
	Unique      int64   `parquet:"unique"`
	Evaluations int64   `parquet:"evaluations"`
	CacheHits   int64   `parquet:"cache_hits"`
	WallSeconds float64 `parquet:"wall_seconds"`
}

// Check validates a row: generation ≥ 0, finite best ≤ median ≤ worst,
// non-negative counts and wall time.
func (r GenerationRow) Check() error {
	if r.Generation < 0 {
		return fmt.Errorf("generation = %d is negative", r.Generation)
	}
	if err := tablefile.Finite("best", r.Best, "median", r.Median, "worst", r.Worst); err != nil {
		return err
	}
	if !(r.Best <= r.Median && r.Median <= r.Worst) {
		return fmt.Errorf("need best ≤ median ≤ worst, got %v, %v, %v", r.Best, r.Median, r.Worst)
	}
	if r.Size < 0 || r.Depth < 0 || r.Unique < 0 || r.Evaluations < 0 || r.CacheHits < 0 {
		return errors.New("size, depth, unique, evaluations and cache_hits must be ≥ 0")
	}
	return tablefile.NonNegative("wall_seconds", r.WallSeconds)
}

// Write writes a learning run's generation log atomically (Parquet or CSV
// by extension), every row checked first.
func Write(path string, rows []GenerationRow) error {
	return tablefile.Write(path, rows, GenerationRow.Check)
}

// Read reads and checks a generation log.
func Read(path string) ([]GenerationRow, error) { return tablefile.Read(path, GenerationRow.Check) }

// ConvergenceRef adds references to a convergence plot.
type ConvergenceRef struct {
	// Subset is the training subset size α: the plotted values are fitness
	// ÷ α, the mean normalised objective per instance (SRSF = 1).
	Subset int
	// Validation is the best individual's validation score at some
	// generations (same scale), drawn as points joined by a line.
	Validation []ValidationPoint
	// Baseline names the best baseline and Level is its validation score,
	// drawn as a horizontal reference line; an empty name draws none.
	Baseline string
	Level    float64
}

// ValidationPoint is a validation score at a generation.
type ValidationPoint struct {
	Generation int
	Score      float64
}

// ConvergencePlot draws a GP run's best and median fitness per generation
// (fitness = Σ over the generation's training subset of O_c,i / O_SRSF,i,
// SPEC §8; lower is better). With a ConvergenceRef the values are divided
// by the subset size (mean normalised objective per instance, SRSF = 1),
// and the best individual's validation scores (a solid line with a
// triangle per score) and the best baseline's validation level (a black
// dashed line) are drawn too; when the two lie within overlapNear of the
// y range of each other, the baseline's legend entry says so with both
// values. The x axis spans exactly the generations run, the y axis has at
// least five labelled ticks, the legend sits under the axes, and the SVG
// has a tooltip per generation and per validation score.
func ConvergencePlot(rows []GenerationRow, refs ...ConvergenceRef) (*figure.Figure, error) {
	if len(rows) == 0 {
		return nil, errors.New("convergence plot: no generations")
	}
	var ref ConvergenceRef
	if len(refs) > 0 {
		ref = refs[0]
	}
	scale := 1.0
	ylabel := FitnessLabel(0)
	if ref.Subset > 0 {
		scale = float64(ref.Subset)
		ylabel = FitnessLabel(ref.Subset)
	}
	rs := slices.Clone(rows)
	slices.SortStableFunc(rs, func(a, b GenerationRow) int { return int(a.Generation - b.Generation) })
	best := make(plotter.XYs, len(rs))
	med := make(plotter.XYs, len(rs))
	var tips []figure.Tip
	for i, r := range rs {
		if err := r.Check(); err != nil {
			return nil, fmt.Errorf("convergence plot: generation %d: %w", r.Generation, err)
		}
		if i > 0 && r.Generation == rs[i-1].Generation {
			return nil, fmt.Errorf("convergence plot: generation %d appears twice", r.Generation)
		}
		g := float64(r.Generation)
		best[i] = plotter.XY{X: g, Y: r.Best / scale}
		med[i] = plotter.XY{X: g, Y: r.Median / scale}
		tips = append(tips, figure.Tip{X: g, Y0: best[i].Y, Y1: med[i].Y, HalfWidth: vg.Points(3),
			Text: fmt.Sprintf("generation %d: best %.4g, median %.4g (%s)", r.Generation, best[i].Y, med[i].Y, r.BestFormula)})
	}
	lo, hi := float64(rs[0].Generation), float64(rs[len(rs)-1].Generation)
	// Each generation is scored on a fresh training subset: its best and
	// median are not comparable across generations, and the legend says
	// so; the validation set is fixed.
	bestName, medName := "best, on its generation's training subset (a new subset each generation)", "median, on the same subset"
	p := figure.NewPlot("GP convergence", "generation", ylabel)
	p.X.Tick.Marker = figure.MinTicks{N: 5, Integer: true}
	p.Y.Tick.Marker = figure.DistinctTicks{Ticker: figure.MinTicks{N: 5}}
	p.X.Min, p.X.Max = lo, hi
	if lo == hi {
		p.X.Min, p.X.Max = lo-0.5, hi+0.5
	}
	legend := figure.NewLegend() // under the axes: it never covers a curve nor takes data width
	ymin, ymax := math.Inf(1), math.Inf(-1)
	for k, s := range []struct {
		name string
		xy   plotter.XYs
	}{{bestName, best}, {medName, med}} {
		l, err := plotter.NewLine(s.xy)
		if err != nil {
			return nil, fmt.Errorf("convergence plot: %w", err)
		}
		l.Color = figure.SeriesColor(k)
		l.Width = vg.Points(1.5)
		p.Add(l)
		legend.Add(s.name, l)
		for _, pt := range s.xy {
			ymin, ymax = math.Min(ymin, pt.Y), math.Max(ymax, pt.Y)
		}
	}
	var valid plotter.XYs
	if len(ref.Validation) > 0 {
		valid = make(plotter.XYs, len(ref.Validation))
		for i, v := range ref.Validation {
			if math.IsNaN(v.Score) || math.IsInf(v.Score, 0) {
				return nil, fmt.Errorf("convergence plot: validation score %v at generation %d", v.Score, v.Generation)
			}
			valid[i] = plotter.XY{X: float64(v.Generation), Y: v.Score}
			ymin, ymax = math.Min(ymin, v.Score), math.Max(ymax, v.Score)
			tips = append(tips, figure.Tip{X: valid[i].X, Y0: v.Score, Y1: v.Score, Point: true, HalfWidth: vg.Points(4),
				Text: fmt.Sprintf("generation %d: best individual on validation %.4g", v.Generation, v.Score)})
		}
		l, sc, err := plotter.NewLinePoints(valid)
		if err != nil {
			return nil, fmt.Errorf("convergence plot: %w", err)
		}
		l.Color, sc.Color = figure.SeriesColor(2), figure.SeriesColor(2)
		l.Width = vg.Points(1)
		l.Dashes = []vg.Length{vg.Points(2), vg.Points(2)} // dotted: measured only at the marked generations
		sc.Shape = draw.TriangleGlyph{}
		sc.Radius = vg.Points(3.5)
		p.Add(l, sc)
		legend.Add(fmt.Sprintf("best individual on the (fixed) validation set, at the %d marked generations", len(valid)), l, sc)
	}
	if ref.Baseline != "" {
		if math.IsNaN(ref.Level) || math.IsInf(ref.Level, 0) {
			return nil, fmt.Errorf("convergence plot: baseline level %v", ref.Level)
		}
		ymin, ymax = math.Min(ymin, ref.Level), math.Max(ymax, ref.Level)
		l, err := plotter.NewLine(plotter.XYs{{X: p.X.Min, Y: ref.Level}, {X: p.X.Max, Y: ref.Level}})
		if err != nil {
			return nil, fmt.Errorf("convergence plot: %w", err)
		}
		l.Color = color.Black
		l.Dashes = []vg.Length{vg.Points(6), vg.Points(3)}
		l.Width = vg.Points(1.2)
		p.Add(l)
		name := "best baseline " + ref.Baseline + " on validation"
		if v, ok := nearestValidation(valid, ref.Level, ymax-ymin); ok {
			name += fmt.Sprintf(" (%.4g; overlaps the validation line, %.4g at generation %g)", ref.Level, v.Y, v.X)
		}
		legend.Add(name, l)
	}
	return &figure.Figure{Name: "convergence", Width: figure.Width, Height: figure.Height, Panels: [][]*plot.Plot{{p}},
		Legend: legend, LegendBelow: true, Tips: tips}, nil
}

// overlapNear is the share of a convergence plot's y range within which
// the validation line and the baseline level are called overlapping.
const overlapNear = 0.03

// nearestValidation returns the validation point closest to level and
// whether it lies within overlapNear·span of it.
func nearestValidation(valid plotter.XYs, level, span float64) (plotter.XY, bool) {
	best, d := plotter.XY{}, math.Inf(1)
	for _, v := range valid {
		if a := math.Abs(v.Y - level); a < d {
			best, d = v, a
		}
	}
	return best, d <= overlapNear*span
}

// FitnessLabel is the y-axis label of a convergence plot: the
// per-instance mean of the normalised objective when the training subset
// size alpha is known (fitness ÷ α), the subset sum otherwise.
func FitnessLabel(alpha int) string {
	if alpha > 0 {
		return "per-instance mean of objective ÷ SRSF objective"
	}
	return "Σ over the training subset of objective ÷ SRSF objective"
}

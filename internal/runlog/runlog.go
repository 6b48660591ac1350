package runlog

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

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
// and the best individual's validation scores and the best baseline's
// validation level are drawn too.
func ConvergencePlot(rows []GenerationRow, refs ...ConvergenceRef) (*figure.Figure, error) {
	if len(rows) == 0 {
		return nil, errors.New("convergence plot: no generations")
	}
	var ref ConvergenceRef
	if len(refs) > 0 {
		ref = refs[0]
	}
	scale := 1.0
	ylabel := "fitness (Σ objective ÷ SRSF objective)"
	if ref.Subset > 0 {
		scale = float64(ref.Subset)
		ylabel = "mean objective ÷ SRSF objective per instance"
	}
	rs := slices.Clone(rows)
	slices.SortStableFunc(rs, func(a, b GenerationRow) int { return int(a.Generation - b.Generation) })
	best := make(plotter.XYs, len(rs))
	med := make(plotter.XYs, len(rs))
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
	}
	series := []struct {
		name string
		xy   plotter.XYs
	}{{"best", best}, {"median", med}}
	if ref.Subset > 0 {
		series[0].name, series[1].name = "best (training subset)", "median (training subset)"
	}
	if len(ref.Validation) > 0 {
		xy := make(plotter.XYs, len(ref.Validation))
		for i, v := range ref.Validation {
			if math.IsNaN(v.Score) || math.IsInf(v.Score, 0) {
				return nil, fmt.Errorf("convergence plot: validation score %v at generation %d", v.Score, v.Generation)
			}
			xy[i] = plotter.XY{X: float64(v.Generation), Y: v.Score}
		}
		series = append(series, struct {
			name string
			xy   plotter.XYs
		}{"best individual on validation", xy})
	}
	if ref.Baseline != "" {
		if math.IsNaN(ref.Level) || math.IsInf(ref.Level, 0) {
			return nil, fmt.Errorf("convergence plot: baseline level %v", ref.Level)
		}
		lo, hi := float64(rs[0].Generation), float64(rs[len(rs)-1].Generation)
		series = append(series, struct {
			name string
			xy   plotter.XYs
		}{"best baseline " + ref.Baseline + " on validation", plotter.XYs{{X: lo, Y: ref.Level}, {X: hi, Y: ref.Level}}})
	}
	p := figure.NewPlot("GP convergence", "generation", ylabel)
	legend := figure.NewLegend() // outside the axes: it never covers a curve
	for i, s := range series {
		l, err := plotter.NewLine(s.xy)
		if err != nil {
			return nil, fmt.Errorf("convergence plot: %w", err)
		}
		l.Color = figure.SeriesColor(i)
		l.Dashes = figure.SeriesDash(i)
		l.Width = vg.Points(1.5)
		if ref.Baseline != "" && i == len(series)-1 {
			l.Dashes = []vg.Length{vg.Points(6), vg.Points(3)} // the reference level
		}
		p.Add(l)
		legend.Add(s.name, l)
		if i == 2 && len(ref.Validation) > 0 {
			sc, err := plotter.NewScatter(s.xy)
			if err != nil {
				return nil, fmt.Errorf("convergence plot: %w", err)
			}
			sc.Color = figure.SeriesColor(i)
			p.Add(sc)
		}
	}
	return &figure.Figure{Name: "convergence", Width: figure.Width, Height: figure.Height, Panels: [][]*plot.Plot{{p}}, Legend: legend}, nil
}

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
)

// apeFloor is the smallest absolute percentage error the log-scale error
// CDF shows; smaller errors (an exact estimate is 0) are drawn at it.
const apeFloor = 0.01

// EstimateErrorCDFPlot draws, per estimation method, the empirical CDF of
// the absolute percentage error 100·|T̂ − T|/T over the series it
// estimated, on a log axis (errors below apeFloor drawn at apeFloor).
// apes[m] are the errors of methods[m] (percent). The inputs are plain
// numbers: reports does not know the estimators.
func EstimateErrorCDFPlot(methods []string, apes [][]float64) (*Figure, error) {
	if len(methods) == 0 || len(methods) != len(apes) {
		return nil, fmt.Errorf("estimate error CDF: %d methods, %d error lists", len(methods), len(apes))
	}
	n := 0
	p := newPlot("Duration-estimate error", "absolute percentage error (%, log scale)", "fraction of series ≤ x")
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = logTicks125{}
	p.Y.Min, p.Y.Max = 0, 1
	p.Legend.Top = false
	p.Legend.Left = false
	var tips []figure.Tip
	for m, name := range methods {
		for _, v := range apes[m] {
			if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
				return nil, fmt.Errorf("estimate error CDF: method %s: error %v is not a finite non-negative percentage", name, v)
			}
		}
		if len(apes[m]) == 0 {
			continue
		}
		n = max(n, len(apes[m]))
		floored := make([]float64, len(apes[m]))
		for i, v := range apes[m] {
			floored[i] = max(v, apeFloor)
		}
		l, err := plotter.NewLine(ecdf(floored))
		if err != nil {
			return nil, fmt.Errorf("estimate error CDF: %w", err)
		}
		l.Color = seriesColor(m)
		l.Dashes = seriesDash(m)
		l.Width = vg.Points(1.5)
		p.Add(l)
		p.Legend.Add(fmt.Sprintf("%s (%d series)", name, len(apes[m])), l)
		sorted := slices.Sorted(slices.Values(floored))
		for _, q := range []float64{0.5, 0.9} {
			v := quantile7(sorted, q)
			tips = append(tips, figure.Tip{X: v, Y0: q, Y1: q, Point: true, HalfWidth: vg.Points(3),
				Text: fmt.Sprintf("%s: %.0f %% of %d series within %.3g %% error", name, 100*q, len(sorted), v)})
		}
	}
	if n == 0 {
		return nil, errors.New("estimate error CDF: no errors")
	}
	return &Figure{Name: "estimate_error_cdf", Width: figW, Height: figH, Panels: [][]*plot.Plot{{p}}, Tips: tips}, nil
}

// StabilityTrace is one per-iteration series and what the adaptive
// estimator detected on it (1-based iterations).
type StabilityTrace struct {
	Name       string    // the series' file
	Times      []float64 // t_1 … t_n
	Unit       string    // unit of the times, e.g. "s"
	StableAt   int       // first stable iteration; 0 when none was found
	SampleFrom int       // first sampled iteration
	SampleTo   int       // last sampled iteration
	Observed   int       // iterations the estimator observed (its overhead)
}

// StabilityPlot draws the per-iteration times of one series (log scale)
// with the detected stability point, the sampled window and the end of the
// observed prefix marked by vertical lines: on the left the first
// max(3·observed, 40) iterations, on the right the whole series.
func StabilityPlot(tr StabilityTrace) (*Figure, error) {
	if len(tr.Times) == 0 {
		return nil, fmt.Errorf("stability plot %s: no iterations", tr.Name)
	}
	for i, t := range tr.Times {
		if !(t > 0) || math.IsInf(t, 0) {
			return nil, fmt.Errorf("stability plot %s: iteration %d: time %v is not positive and finite", tr.Name, i+1, t)
		}
	}
	zoom := min(len(tr.Times), max(3*tr.Observed, 40))
	left, err := stabilityPanel(tr, zoom, fmt.Sprintf("first %d of %d iterations", zoom, len(tr.Times)), true)
	if err != nil {
		return nil, err
	}
	right, err := stabilityPanel(tr, len(tr.Times), fmt.Sprintf("all %d iterations", len(tr.Times)), false)
	if err != nil {
		return nil, err
	}
	var tips []figure.Tip
	for col, pl := range []*plot.Plot{left, right} {
		upto := int(pl.X.Max)
		for _, m := range stabilityMarks(tr) {
			if m.at < 1 || m.at > upto || m.at > len(tr.Times) || m.tip == "" {
				continue
			}
			tips = append(tips, figure.Tip{Col: col, X: float64(m.at), Y0: pl.Y.Min, Y1: pl.Y.Max, HalfWidth: vg.Points(3),
				Text: fmt.Sprintf("%s (t = %.4g %s)", m.tip, tr.Times[m.at-1], unitOf(tr))})
		}
	}
	return &Figure{Name: "estimate_stability_" + fileStem(tr.Name), Width: 2 * panelW * 1.2, Height: panelH * 1.4,
		Panels: [][]*plot.Plot{{left, right}}, Tips: tips}, nil
}

// stabilityPanel draws iterations 1 … upto of tr, with the marks and,
// when legend is set, their legend.
func stabilityPanel(tr StabilityTrace, upto int, subtitle string, legend bool) (*plot.Plot, error) {
	times := tr.Times[:upto]
	pts := make(plotter.XYs, len(times))
	lo, hi := math.Inf(1), math.Inf(-1)
	for i, t := range times {
		pts[i] = plotter.XY{X: float64(i + 1), Y: t}
		lo, hi = min(lo, t), max(hi, t)
	}
	if hi == lo {
		lo, hi = lo/2, hi*2
	}
	unit := unitOf(tr)
	p := newPlot(tr.Name+": "+subtitle, "iteration", "iteration time ("+unit+", log scale)")
	p.Title.TextStyle.Font.Size = vg.Points(9)
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = logTicks125{}
	p.Y.Min, p.Y.Max = lo, hi
	p.X.Min, p.X.Max = 1, float64(max(upto, 2))
	p.Legend.Top = true
	p.Legend.Left = false
	l, err := plotter.NewLine(pts)
	if err != nil {
		return nil, fmt.Errorf("stability plot %s: %w", tr.Name, err)
	}
	l.Color = seriesColor(6) // black
	l.Width = vg.Points(1)
	p.Add(l)
	if legend {
		p.Legend.Add("t_i", l)
	}
	for _, m := range stabilityMarks(tr) {
		if m.at < 1 || m.at > upto {
			continue
		}
		v, err := plotter.NewLine(plotter.XYs{{X: float64(m.at), Y: lo}, {X: float64(m.at), Y: hi}})
		if err != nil {
			return nil, fmt.Errorf("stability plot %s: %w", tr.Name, err)
		}
		v.Color = seriesColor(m.c)
		v.Dashes = m.dash
		v.Width = vg.Points(float64(m.width))
		p.Add(v)
		if legend && m.label != "" {
			p.Legend.Add(m.label, v)
		}
	}
	return p, nil
}

// stabilityMark is a vertical line of a stability panel: its legend
// entry (none for the sample's end), iteration, style and tooltip.
type stabilityMark struct {
	label string
	at    int
	c     int
	width vg.Length
	dash  []vg.Length
	tip   string
}

// stabilityMarks are the stability point, the sampled window's ends and
// the end of the observed prefix of tr.
func stabilityMarks(tr StabilityTrace) []stabilityMark {
	marks := []stabilityMark{
		{fmt.Sprintf("stable from iteration %d", tr.StableAt), tr.StableAt, 4, 2.5, nil, fmt.Sprintf("iteration %d: first stable iteration", tr.StableAt)},
		{fmt.Sprintf("sample %d–%d", tr.SampleFrom, tr.SampleTo), tr.SampleFrom, 2, 1.2, []vg.Length{vg.Points(4), vg.Points(2)}, fmt.Sprintf("iteration %d: first sampled iteration", tr.SampleFrom)},
		{"", tr.SampleTo, 2, 1.2, []vg.Length{vg.Points(4), vg.Points(2)}, fmt.Sprintf("iteration %d: last sampled iteration", tr.SampleTo)},
		{fmt.Sprintf("observed %d iterations", tr.Observed), tr.Observed, 3, 1.2, []vg.Length{vg.Points(1.5), vg.Points(2)}, fmt.Sprintf("iteration %d: end of the observed prefix", tr.Observed)},
	}
	if tr.StableAt == 0 {
		marks[1].label = fmt.Sprintf("never stable in the prefix: sample %d–%d", tr.SampleFrom, tr.SampleTo)
	}
	return marks
}

// unitOf is the unit of tr's times ("s" when unset).
func unitOf(tr StabilityTrace) string {
	if tr.Unit == "" {
		return "s"
	}
	return tr.Unit
}

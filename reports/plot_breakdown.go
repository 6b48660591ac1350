package reports

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/evogp/evogp/internal/figure"
	"github.com/evogp/evogp/internal/stats"
)

// breakdownMetric is one panel of the objective breakdown: a short name
// (panel title), the y-axis label a reader understands, and the value.
type breakdownMetric struct {
	Name, Label string
	Value       func(ResultRow) float64
}

// breakdownMetrics returns the panels of the objective breakdown for the
// run's objective kind (SPEC §4.5): under "single" (Eq. 16) mean JCT and
// max queueing time, otherwise (Eq. 5, "multi", "deadline" or "") cq_avg,
// cq_max and 1 − util; then the objective itself; and when deadlines are
// in play (some row has total tardiness or deadline misses > 0) total
// tardiness and deadline misses.
func breakdownMetrics(rows []ResultRow, objective string) []breakdownMetric {
	var ms []breakdownMetric
	if objective == "single" {
		ms = []breakdownMetric{
			{"AvgJCT", "mean job completion time (h)", func(r ResultRow) float64 { return r.AvgJCT }},
			{"MaxQT", "longest queueing time (h)", func(r ResultRow) float64 { return r.MaxQT }},
			{"objective", "ω·AvgJCT + (1−ω)·MaxQT (h)", func(r ResultRow) float64 { return r.Objective }},
		}
	} else {
		ms = []breakdownMetric{
			{"cq_avg", "mean priority-weighted queueing (h)", func(r ResultRow) float64 { return r.CQAvg }},
			{"cq_max", "max priority-weighted queueing (h)", func(r ResultRow) float64 { return r.CQMax }},
			{"1 − util", "idle share of GPU capacity", func(r ResultRow) float64 { return 1 - r.Util }},
			{"objective", "weighted objective (lower is better)", func(r ResultRow) float64 { return r.Objective }},
		}
	}
	for _, r := range rows {
		if r.TotalTardiness > 0 || r.DeadlineMisses > 0 {
			return append(ms,
				breakdownMetric{"total tardiness", "total tardiness (h)", func(r ResultRow) float64 { return r.TotalTardiness }},
				breakdownMetric{"deadline misses", "jobs past their deadline", func(r ResultRow) float64 { return float64(r.DeadlineMisses) }})
		}
	}
	return ms
}

// breakdownValue is one bar of the objective breakdown: the mean of a
// metric over a scheduler's rows, and its error bar, the paired 95 %
// bootstrap interval of its ratio to the best baseline (pairedRatioCI:
// (instance, seed) keys resampled as pairs), drawn on the best baseline's
// scale: Low, High = the best baseline's mean over the paired keys × the
// ratio's bounds. Low and High are NaN for the best baseline itself, with
// no best baseline, or with fewer than stats.MinTestPairs pairs.
type breakdownValue struct {
	Mean             float64
	N                int // rows in the mean
	Pairs            int // keys both the scheduler and the best baseline ran
	Ratio            float64
	RatioLo, RatioHi float64
	Low, High        float64
}

// hasBar reports whether v gets an error bar.
func (v breakdownValue) hasBar() bool { return v.High > v.Low }

// breakdownKey pairs a scheduler's row with the best baseline's.
type breakdownKey struct {
	instance string
	seed     int64
}

// breakdownValues returns, per scheduler (first-appearance order) and
// metric of breakdownMetrics(rows, objective), the mean of the metric over
// the rows of instance (all rows when instance is "") with, when best is
// one of the schedulers, its paired interval against best (breakdownValue).
func breakdownValues(rows []ResultRow, instance, objective, best string) ([]string, []breakdownMetric, [][]breakdownValue, error) {
	var scheds []string
	vals := map[string][][]float64{}
	byKey := map[string]map[breakdownKey][]float64{}
	ms := breakdownMetrics(rows, objective)
	for _, r := range rows {
		if instance != "" && r.Instance != instance {
			continue
		}
		v, ok := vals[r.Scheduler]
		if !ok {
			scheds = append(scheds, r.Scheduler)
			v = make([][]float64, len(ms))
			byKey[r.Scheduler] = map[breakdownKey][]float64{}
		}
		k := breakdownKey{r.Instance, r.Seed}
		_, dup := byKey[r.Scheduler][k]
		row := make([]float64, len(ms))
		for m, metric := range ms {
			v[m] = append(v[m], metric.Value(r))
			row[m] = metric.Value(r)
		}
		if !dup { // a repeated key pairs by its first row
			byKey[r.Scheduler][k] = row
		}
		vals[r.Scheduler] = v
	}
	if len(scheds) == 0 {
		return nil, nil, nil, fmt.Errorf("no results for instance %q", instance)
	}
	out := make([][]breakdownValue, len(scheds))
	for s, name := range scheds {
		out[s] = make([]breakdownValue, len(ms))
		for m, xs := range vals[name] {
			bv := breakdownValue{N: len(xs), Ratio: math.NaN(), RatioLo: math.NaN(), RatioHi: math.NaN(), Low: math.NaN(), High: math.NaN()}
			for _, x := range xs {
				bv.Mean += x / float64(len(xs))
			}
			if refs, ok := byKey[best]; ok && name != best {
				var x, y []float64
				for k, row := range byKey[name] {
					if ref, ok := refs[k]; ok {
						x, y = append(x, row[m]), append(y, ref[m])
					}
				}
				// Map order is random: sort the pairs so that the
				// bootstrap sees them in one order every time.
				sortPairs(x, y)
				bv.Pairs = len(x)
				var sx, sy float64
				for i := range x {
					sx, sy = sx+x[i], sy+y[i]
				}
				if sy > 0 {
					bv.Ratio = sx / sy
				}
				bv.RatioLo, bv.RatioHi = pairedRatioCI(x, y)
				if !math.IsNaN(bv.RatioLo) {
					yMean := sy / float64(len(y))
					bv.Low, bv.High = yMean*bv.RatioLo, yMean*bv.RatioHi
				}
			}
			out[s][m] = bv
		}
	}
	return scheds, ms, out, nil
}

// sortPairs sorts the pairs (x[i], y[i]) by x, then y.
func sortPairs(x, y []float64) {
	idx := make([]int, len(x))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int {
		if c := cmpFloat(x[a], x[b]); c != 0 {
			return c
		}
		return cmpFloat(y[a], y[b])
	})
	xs, ys := slices.Clone(x), slices.Clone(y)
	for i, j := range idx {
		x[i], y[i] = xs[j], ys[j]
	}
}

// logSpanDecades is the span (max/min of the positive values) above which
// a breakdown panel switches to a log scale.
const logSpanDecades = 2

// wantsLog reports whether ys, all positive, span more than
// logSpanDecades decades; a zero value cannot sit on a log axis.
func wantsLog(ys []float64) bool {
	lo, hi := math.Inf(1), 0.0
	for _, y := range ys {
		if !(y > 0) {
			return false
		}
		lo, hi = math.Min(lo, y), math.Max(hi, y)
	}
	return hi > lo*math.Pow(10, logSpanDecades)
}

// resultPalette is the palette of every scheduler in rows: figures drawn
// from the same results table give a scheduler the same colour.
func resultPalette(rows []ResultRow) figure.Palette {
	labels := make([]string, len(rows))
	for i, r := range rows {
		labels[i] = r.Scheduler
	}
	return figure.NewPalette(labels)
}

// BreakdownPlot is BreakdownPlotFor under the default objective (Eq. 5).
func BreakdownPlot(rows []ResultRow, instance string) (*Figure, error) {
	return BreakdownPlotFor(rows, instance, "")
}

// BreakdownPlotFor is BreakdownPlotAgainst with no best baseline: no
// error bars.
func BreakdownPlotFor(rows []ResultRow, instance, objective string) (*Figure, error) {
	return BreakdownPlotAgainst(rows, instance, objective, "")
}

// BreakdownPlotAgainst draws paper Fig. 6 for the run's objective kind
// ("single" for Eq. 16, else Eq. 5): the objective's terms and the
// objective itself, and with deadlines total tardiness and deadline
// misses, one panel per metric with its own scale and one bar per
// scheduler, on one instance (its seeds), or averaged over all rows when
// instance is "". The error bars are paired: a scheduler's bar is the
// paired 95 % bootstrap interval of its ratio to the best baseline best
// ((instance, seed) keys resampled as pairs, so the spread the instances
// share cancels), drawn on best's scale (breakdownValue); best itself,
// a scheduler with fewer than stats.MinTestPairs pairs, and every
// scheduler when best is "" or did not run get none. A panel whose positive
// values span more than two decades uses a log axis and points. A metric
// other than the objective that is equal for every scheduler (often
// 1 − util) gets no panel, and the objective panel's title says so.
// Panels sit in one row up to three, else two columns without a blank
// slot at the end. Colours follow the scheduler's label over all rows
// (resultPalette), so a per-instance figure matches the mean one.
func BreakdownPlotAgainst(rows []ResultRow, instance, objective, best string) (*Figure, error) {
	scheds, metrics, vals, err := breakdownValues(rows, instance, objective, best)
	if err != nil {
		return nil, fmt.Errorf("breakdown plot: %w", err)
	}
	pal := resultPalette(rows)
	var where string
	name := "breakdown_mean"
	n := vals[0][0].N
	bars := false
	for s := range vals {
		for m := range vals[s] {
			bars = bars || vals[s][m].hasBar()
		}
	}
	switch {
	case instance != "" && n > 1:
		where = fmt.Sprintf("instance %s, mean over %d seeds", instance, n)
		name = "breakdown_" + fileStem(instance)
	case instance != "":
		where = "instance " + instance
		name = "breakdown_" + fileStem(instance)
	case n > 1:
		where = fmt.Sprintf("mean over %d instances", n)
	default:
		where = "1 instance"
	}
	var barNote string
	if bars {
		barNote = fmt.Sprintf("error bars: paired 95%% interval of the ratio\nto %s, drawn on %s's scale", best, best)
	}
	colours := map[string]color.Color{}
	for _, s := range scheds {
		colours[s] = pal.Color(s)
	}
	var plots []*plot.Plot
	var notes []string
	var extra vg.Length // height of turned x labels
	objPanel := -1
	var tips []figure.Tip // Row = index into plots until the layout is known
	for m, metric := range metrics {
		ys := make([]float64, len(scheds))
		same := true
		for s := range scheds {
			ys[s] = vals[s][m].Mean
			same = same && ys[s] == ys[0]
		}
		if same && len(scheds) > 1 && metric.Name != "objective" {
			notes = append(notes, fmt.Sprintf("%s = %.3g", metric.Name, ys[0]))
			continue
		}
		if metric.Name == "objective" {
			objPanel = len(plots)
		}
		p := newPlot(fmt.Sprintf("%s, %s", metric.Name, where), "scheduler", metric.Label)
		p.NominalX(scheds...)
		extra = max(extra, fitNominalLabels(p, scheds, panelW*0.75))
		p.X.Min, p.X.Max = -0.5, float64(len(scheds))-0.5
		pts := make(plotter.XYs, len(scheds))
		var withBars plotter.XYs
		var withErrs plotter.YErrors
		top := 0.0
		logScale := wantsLog(ys)
		for s := range scheds {
			v := vals[s][m]
			pts[s] = plotter.XY{X: float64(s), Y: v.Mean}
			top = math.Max(top, v.Mean)
			if v.hasBar() {
				// The interval is drawn as given: it need not hold the
				// mean when some keys are unpaired.
				e := struct{ Low, High float64 }{math.Max(v.Mean-v.Low, 0), math.Max(v.High-v.Mean, 0)}
				if logScale && !(v.Low > 0) {
					e.Low = v.Mean / 2 // a log axis has no zero: cut the bar at half the mean
				}
				withBars = append(withBars, pts[s])
				withErrs = append(withErrs, e)
				top = math.Max(top, v.High)
			}
			text := fmt.Sprintf("%s: %s %.4g", scheds[s], metric.Name, v.Mean)
			if v.N > 1 {
				text += fmt.Sprintf(" (mean of %d)", v.N)
			}
			switch {
			case scheds[s] == best:
				text += "; the best baseline, the reference of the error bars"
			case v.hasBar():
				text += fmt.Sprintf("; ratio to %s %.4g, paired 95%% interval %.4g–%.4g over %d pairs", best, v.Ratio, v.RatioLo, v.RatioHi, v.Pairs)
			case best != "" && v.Pairs > 0 && v.Pairs < stats.MinTestPairs:
				text += fmt.Sprintf("; %d pairs with %s, too few for a paired interval (needs %d)", v.Pairs, best, stats.MinTestPairs)
			}
			tips = append(tips, figure.Tip{Row: len(plots), X: float64(s), Y0: v.Mean, Y1: v.Mean, HalfWidth: vg.Points(4), Point: true, Text: text})
		}
		if logScale {
			p.Y.Scale = plot.LogScale{}
			p.Y.Tick.Marker = logTicks125{}
			p.Y.Label.Text += ", log scale"
			sc, err := plotter.NewScatter(pts)
			if err != nil {
				return nil, fmt.Errorf("breakdown plot: %w", err)
			}
			sc.GlyphStyle.Radius = vg.Points(3)
			sc.GlyphStyleFunc = func(i int) draw.GlyphStyle {
				g := sc.GlyphStyle
				g.Color = pal.Color(scheds[i])
				g.Shape = pal.Glyph(scheds[i])
				return g
			}
			p.Add(sc)
		} else {
			p.Y.Min = 0
			w := panelW * 0.6 / vg.Length(len(scheds))
			for k := len(tips) - len(scheds); k < len(tips); k++ {
				tips[k].Y0, tips[k].HalfWidth, tips[k].Point = 0, w/2, false // the whole bar
			}
			for s := range scheds {
				b, err := plotter.NewBarChart(plotter.Values{pts[s].Y}, w)
				if err != nil {
					return nil, fmt.Errorf("breakdown plot: %w", err)
				}
				b.XMin = float64(s)
				b.Color = pal.Color(scheds[s])
				b.LineStyle.Width = 0
				p.Add(b)
			}
			if top > 0 {
				p.Y.Max = top * 1.1
			} else {
				p.Y.Max = 1
			}
		}
		if len(withBars) > 0 {
			eb, err := plotter.NewYErrorBars(struct {
				plotter.XYs
				plotter.YErrors
			}{withBars, withErrs})
			if err != nil {
				return nil, fmt.Errorf("breakdown plot: %w", err)
			}
			p.Add(eb)
		}
		plots = append(plots, p)
	}
	if len(notes) > 0 && objPanel >= 0 {
		slices.Sort(notes)
		plots[objPanel].Title.Text += "\n(equal for every scheduler: " + strings.Join(notes, ", ") + ")"
	}
	if barNote != "" && objPanel >= 0 {
		plots[objPanel].Title.Text += "\n(" + barNote + ")"
	}
	cols := breakdownColumns(len(plots))
	panels := make([][]*plot.Plot, (len(plots)+cols-1)/cols)
	for i, p := range plots {
		panels[i/cols] = append(panels[i/cols], p)
	}
	for k := range tips {
		tips[k].Row, tips[k].Col = tips[k].Row/cols, tips[k].Row%cols
	}
	f := &Figure{Tips: tips, Name: name, Width: vg.Length(cols) * panelW * 1.1, Height: vg.Length(len(panels)) * (panelH + extra), Panels: panels, LabelColors: colours}
	return f, nil
}

// breakdownColumns is the number of panel columns for n panels such that
// every row is full (no blank slot): one row up to three and for five,
// two columns for an even count, three for six.
func breakdownColumns(n int) int {
	switch {
	case n <= 3 || n == 5:
		return max(n, 1)
	case n%3 == 0 && n%2 != 0 || n == 6:
		return 3
	case n%2 == 0:
		return 2
	}
	return n
}

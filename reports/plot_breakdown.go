package reports

import (
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// breakdownMetric is one panel of the objective breakdown.
type breakdownMetric struct {
	Name, Unit string
	Value      func(ResultRow) float64
}

// breakdownMetrics returns the panels of the objective breakdown: cq_avg,
// cq_max, 1 − util and the objective, and when deadlines are in play (some
// row has total tardiness or deadline misses > 0) total tardiness (hours)
// and deadline misses.
func breakdownMetrics(rows []ResultRow) []breakdownMetric {
	ms := []breakdownMetric{
		{"cq_avg", "hours", func(r ResultRow) float64 { return r.CQAvg }},
		{"cq_max", "hours", func(r ResultRow) float64 { return r.CQMax }},
		{"1 − util", "fraction", func(r ResultRow) float64 { return 1 - r.Util }},
		{"objective", "Eq. 5 or 16", func(r ResultRow) float64 { return r.Objective }},
	}
	for _, r := range rows {
		if r.TotalTardiness > 0 || r.DeadlineMisses > 0 {
			return append(ms,
				breakdownMetric{"total tardiness", "hours", func(r ResultRow) float64 { return r.TotalTardiness }},
				breakdownMetric{"deadline misses", "jobs", func(r ResultRow) float64 { return float64(r.DeadlineMisses) }})
		}
	}
	return ms
}

// breakdownValues returns, per scheduler (first-appearance order) and
// metric of breakdownMetrics(rows), the mean and sd of the metric over the
// rows of instance (all rows when instance is "").
func breakdownValues(rows []ResultRow, instance string) ([]string, []breakdownMetric, [][]Stat, error) {
	var scheds []string
	vals := map[string][][]float64{}
	ms := breakdownMetrics(rows)
	for _, r := range rows {
		if instance != "" && r.Instance != instance {
			continue
		}
		v, ok := vals[r.Scheduler]
		if !ok {
			scheds = append(scheds, r.Scheduler)
			v = make([][]float64, len(ms))
		}
		for m, metric := range ms {
			v[m] = append(v[m], metric.Value(r))
		}
		vals[r.Scheduler] = v
	}
	if len(scheds) == 0 {
		return nil, nil, nil, fmt.Errorf("no results for instance %q", instance)
	}
	out := make([][]Stat, len(scheds))
	for s, name := range scheds {
		out[s] = make([]Stat, len(ms))
		for m, xs := range vals[name] {
			out[s][m] = meanSD(xs)
		}
	}
	return scheds, ms, out, nil
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

// BreakdownPlot draws paper Fig. 6: the objective's terms cq_avg, cq_max,
// 1 − util and the objective itself (the run's objective, Eq. 5 or
// Eq. 16), and with deadlines total tardiness and deadline misses, one
// panel per metric with its own scale (cq_max often dwarfs the others) and
// one bar per scheduler with a ±1 sd error bar over the rows averaged, on
// one instance (its seeds), or over all rows when instance is "". A panel
// whose positive values span more than two decades uses a log axis and
// draws points instead of bars; a metric other than the objective that is
// equal for every scheduler (often 1 − util) gets no panel, and the first
// panel's x label says so.
func BreakdownPlot(rows []ResultRow, instance string) (*Figure, error) {
	scheds, metrics, vals, err := breakdownValues(rows, instance)
	if err != nil {
		return nil, fmt.Errorf("breakdown plot: %w", err)
	}
	var where string
	name := "breakdown_mean"
	if instance != "" {
		where = "instance " + instance
		name = "breakdown_" + fileStem(instance)
	} else {
		where = fmt.Sprintf("mean ± sd over %d instances", vals[0][0].N)
	}
	var plots []*plot.Plot
	var notes []string
	var extra vg.Length // height of turned x labels
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
		p := newPlot(fmt.Sprintf("%s, %s", metric.Name, where), "scheduler", fmt.Sprintf("%s (%s)", metric.Name, metric.Unit))
		p.NominalX(scheds...)
		extra = max(extra, fitNominalLabels(p, scheds, panelW*0.75))
		p.X.Min, p.X.Max = -0.5, float64(len(scheds))-0.5
		pts := make(plotter.XYs, len(scheds))
		errs := make(plotter.YErrors, len(scheds))
		top := 0.0
		logScale := wantsLog(ys)
		for s := range scheds {
			st := vals[s][m]
			sd := st.SD
			if math.IsNaN(sd) {
				sd = 0
			}
			pts[s] = plotter.XY{X: float64(s), Y: st.Mean}
			lo := sd
			if logScale && st.Mean-sd <= 0 {
				lo = st.Mean / 2 // a log axis has no zero: cut the bar at half the mean
			}
			errs[s] = struct{ Low, High float64 }{lo, sd}
			top = math.Max(top, st.Mean+sd)
		}
		if logScale {
			p.Y.Scale = plot.LogScale{}
			p.Y.Tick.Marker = logTicks125{}
			p.Y.Label.Text += ", log scale"
			sc, err := plotter.NewScatter(pts)
			if err != nil {
				return nil, fmt.Errorf("breakdown plot: %w", err)
			}
			sc.GlyphStyle.Shape = draw.CircleGlyph{}
			sc.GlyphStyle.Radius = vg.Points(3)
			sc.GlyphStyleFunc = func(i int) draw.GlyphStyle {
				g := sc.GlyphStyle
				g.Color = seriesColor(i)
				return g
			}
			p.Add(sc)
		} else {
			p.Y.Min = 0
			w := panelW * 0.6 / vg.Length(len(scheds))
			for s := range scheds {
				b, err := plotter.NewBarChart(plotter.Values{pts[s].Y}, w)
				if err != nil {
					return nil, fmt.Errorf("breakdown plot: %w", err)
				}
				b.XMin = float64(s)
				b.Color = seriesColor(s)
				b.LineStyle.Width = 0
				p.Add(b)
			}
			if top > 0 {
				p.Y.Max = top * 1.1
			} else {
				p.Y.Max = 1
			}
		}
		eb, err := plotter.NewYErrorBars(struct {
			plotter.XYs
			plotter.YErrors
		}{pts, errs})
		if err != nil {
			return nil, fmt.Errorf("breakdown plot: %w", err)
		}
		p.Add(eb)
		plots = append(plots, p)
	}
	if len(notes) > 0 {
		plots[0].X.Label.Text += "\nequal for every scheduler, no panel: " + strings.Join(notes, ", ")
	}
	panels := make([][]*plot.Plot, (len(plots)+1)/2)
	for i, p := range plots {
		panels[i/2] = append(panels[i/2], p)
	}
	return &Figure{Name: name, Width: 2 * panelW * 1.1, Height: vg.Length(len(panels)) * (panelH + extra), Panels: panels}, nil
}

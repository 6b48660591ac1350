package reports

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/evogp/evogp/internal/figure"
	"github.com/evogp/evogp/internal/runlog"
)

// Figure sizes.
const (
	figW   = figure.Width
	figH   = figure.Height
	panelW = 8 * vg.Centimeter
	panelH = 6.5 * vg.Centimeter
)

// ordinal returns "1st", "2nd", "3rd", "4th", … .
func ordinal(k int) string {
	suf := "th"
	if k%100 < 11 || k%100 > 13 {
		switch k % 10 {
		case 1:
			suf = "st"
		case 2:
			suf = "nd"
		case 3:
			suf = "rd"
		}
	}
	return strconv.Itoa(k) + suf
}

// groupedBars adds one bar series per entry of values (values[s][g] is the
// bar of series s in group g), offset so that the series of a group sit side
// by side, filling 80% of the group's width. plotWidth approximates the
// width of the data area.
func groupedBars(p *plot.Plot, leg *plot.Legend, names []string, values [][]float64, plotWidth vg.Length) error {
	if len(values) == 0 || len(values[0]) == 0 {
		return errors.New("no bars")
	}
	groups := len(values[0])
	w := plotWidth * 0.8 / vg.Length(groups*len(values))
	for s, vs := range values {
		b, err := plotter.NewBarChart(plotter.Values(vs), w)
		if err != nil {
			return err
		}
		b.Color = seriesColor(s)
		b.LineStyle.Width = 0
		b.Offset = w * (vg.Length(s) - vg.Length(len(values)-1)/2)
		p.Add(b)
		leg.Add(names[s], b)
	}
	return nil
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
	if err := groupedBars(p, leg, names, values, figW*0.7); err != nil {
		return nil, fmt.Errorf("ranking plot: %w", err)
	}
	return &Figure{Name: "ranking", Width: figW, Height: figH + extra, Panels: [][]*plot.Plot{{p}}, Legend: leg}, nil
}

// densityPoints is the number of grid points of a density curve.
const densityPoints = 200

// classDensity is the queuing-time distribution of one user-priority class.
type classDensity struct {
	Priority int64
	N        int // jobs of the class
	Zero     int // jobs that never queued (q = 0)
	// Constant is set when the class has no two different positive queuing
	// times (none at all, or all equal to Value): a kernel estimate cannot
	// show a point mass, so it is drawn as a vertical line at Value instead
	// of Curve (Value = 0 when every job started on arrival).
	Constant bool
	Value    float64
	// Rug holds the positive queuing times (ascending) when there are
	// fewer than rugBelow of them: too few for a density, they are drawn
	// one tick each. Curve is then nil.
	Rug   []float64
	Curve plotter.XYs // density of the positive queuing times
}

// rugBelow is the number of positive queuing times of a class below which
// the plot shows each wait as a rug tick instead of a kernel density: with
// a handful of points a KDE is a row of spikes that suggests a shape the
// data do not have.
const rugBelow = 20

// densityQuantile is the share of positive queuing times the density
// plot's x axis covers; the longest waits lie beyond it.
const densityQuantile = 0.99

// queueDensities returns, per scheduler (in order of first appearance) and
// priority class, the share of jobs that never queued and the Gaussian KDE
// (Silverman bandwidth) of the positive queuing times in hours, evaluated
// on densityPoints points of [0, hi], hi being the densityQuantile
// quantile of all positive queuing times of the table (or 1 h if none).
// The zeros are left out of the estimate because a point mass at 0 (often
// most jobs) would otherwise swamp the shape of the waits; the legend
// reports them. jobs are filtered to instance unless instance is "" (all
// jobs pooled).
func queueDensities(jobs []JobRow, instance string) ([]string, [][]classDensity, error) {
	type key struct {
		sched string
		prio  int64
	}
	positive := map[key][]float64{}
	count := map[key]int{}
	var scheds []string
	var prios []int64
	var pooled []float64
	for _, j := range jobs {
		if instance != "" && j.Instance != instance {
			continue
		}
		if !slices.Contains(scheds, j.Scheduler) {
			scheds = append(scheds, j.Scheduler)
		}
		if !slices.Contains(prios, j.Priority) {
			prios = append(prios, j.Priority)
		}
		k := key{j.Scheduler, j.Priority}
		count[k]++
		if j.Queue > 0 {
			positive[k] = append(positive[k], hours(j.Queue))
			pooled = append(pooled, hours(j.Queue))
		}
	}
	if len(scheds) == 0 {
		return nil, nil, fmt.Errorf("no jobs for instance %q", instance)
	}
	slices.Sort(prios)
	hi := 1.0 // nobody queued: show the first hour
	if len(pooled) > 0 {
		slices.Sort(pooled)
		hi = quantile7(pooled, densityQuantile)
	}
	out := make([][]classDensity, len(scheds))
	for s, name := range scheds {
		for _, pr := range prios {
			k := key{name, pr}
			n, ok := count[k]
			if !ok {
				continue
			}
			xs := positive[k]
			c := classDensity{Priority: pr, N: n, Zero: n - len(xs)}
			switch {
			case len(xs) == 0:
				c.Constant = true
			case len(xs) < rugBelow:
				c.Rug = slices.Sorted(slices.Values(xs))
			case slices.Min(xs) == slices.Max(xs):
				c.Constant, c.Value = true, xs[0]
			default:
				kde, err := NewKDE(xs)
				if err != nil {
					return nil, nil, err
				}
				c.Curve = make(plotter.XYs, densityPoints)
				for i := range c.Curve {
					x := hi * float64(i) / float64(densityPoints-1)
					c.Curve[i] = plotter.XY{X: x, Y: kde.At(x)}
				}
			}
			out[s] = append(out[s], c)
		}
	}
	return scheds, out, nil
}

func hours(s int64) float64 { return float64(s) / 3600 }

// legendHeadroom raises p.Y.Max so that the legend (top right, entries
// of p.Legend) sits above the highest data value top: the data area is
// taken as dataHeight tall, and the top of the data is kept below the
// legend's lower edge.
func legendHeadroom(p *plot.Plot, top float64, dataHeight vg.Length) {
	h := p.Legend.Rectangle(draw.Canvas{}).Size().Y + vg.Points(4)
	if h >= dataHeight/2 {
		h = dataHeight / 2
	}
	p.Y.Max = top * float64(dataHeight/(dataHeight-h))
}

// QueueDensityPlot draws paper Fig. 5: one panel per scheduler with the
// density of the positive job queuing times (hours) per user-priority class
// u, on the range of queueDensities. The legend gives each class's size n
// and share of jobs that never queued, and sits above the data
// (legendHeadroom). A class with fewer than rugBelow positive waits is
// drawn as a rug, one short tick per wait in its own band at the bottom;
// a class where nobody waited is a dashed vertical line at 0. instance
// selects one instance ("" pools all jobs of the table).
func QueueDensityPlot(jobs []JobRow, instance string) (*Figure, error) {
	scheds, dens, err := queueDensities(jobs, instance)
	if err != nil {
		return nil, fmt.Errorf("queue density plot: %w", err)
	}
	where := "all instances"
	name := "queue_density"
	if instance != "" {
		where = "instance " + instance
		name += "_" + fileStem(instance)
	}
	cols := min(len(scheds), 3)
	rows := (len(scheds) + cols - 1) / cols
	panels := make([][]*plot.Plot, rows)
	ymax := 0.0
	hi := 0.0
	anyRug := false
	for _, d := range dens {
		for _, c := range d {
			for _, pt := range c.Curve {
				ymax = math.Max(ymax, pt.Y)
				hi = math.Max(hi, pt.X)
			}
			for _, x := range c.Rug {
				hi = math.Max(hi, x)
			}
			anyRug = anyRug || c.Rug != nil
		}
	}
	if hi == 0 {
		hi = 1 // nobody queued: show the first hour
	}
	rugOnly := ymax == 0 && anyRug // no class has a density: the panels show rugs only
	if ymax == 0 {
		ymax = 1
	}
	for s, sched := range scheds {
		ylabel := "density (1/h)"
		if rugOnly {
			ylabel = "one tick per wait, a band per class"
		}
		p := newPlot(fmt.Sprintf("%s (%s)", sched, where), "queuing time q > 0 (h)", ylabel)
		p.Y.Min = 0
		p.X.Min, p.X.Max = 0, hi
		band := ymax * 0.06 // height of one class's rug band
		if rugOnly {
			band = ymax / float64(len(dens[s]))
			p.Y.Tick.Marker = plot.ConstantTicks(nil)
		}
		for i, c := range dens[s] {
			share := 100 * float64(c.Zero) / float64(c.N)
			label := fmt.Sprintf("u = %d (n = %d, %.0f%% q = 0)", c.Priority, c.N, share)
			var th plot.Thumbnailer
			switch {
			case c.Rug != nil:
				label = fmt.Sprintf("u = %d (n = %d, %.0f%% q = 0, %d waits as ticks)", c.Priority, c.N, share, len(c.Rug))
				lo := band * float64(i)
				for _, x := range c.Rug {
					l, err := plotter.NewLine(plotter.XYs{{X: x, Y: lo}, {X: x, Y: lo + band*0.9}})
					if err != nil {
						return nil, fmt.Errorf("queue density plot: %w", err)
					}
					l.Color = seriesColor(i)
					l.Width = vg.Points(1.5)
					p.Add(l)
					th = l
				}
			default:
				xy := c.Curve
				if c.Constant {
					xy = plotter.XYs{{X: c.Value, Y: 0}, {X: c.Value, Y: ymax}}
					if c.Zero < c.N {
						label = fmt.Sprintf("u = %d (n = %d, %.0f%% q = 0, others q = %.3g h)", c.Priority, c.N, share, c.Value)
					}
				}
				l, err := plotter.NewLine(xy)
				if err != nil {
					return nil, fmt.Errorf("queue density plot: %w", err)
				}
				l.Color = seriesColor(i)
				l.Dashes = seriesDash(i)
				if c.Constant {
					l.Dashes = []vg.Length{vg.Points(4), vg.Points(2)}
				}
				l.Width = vg.Points(1.5)
				p.Add(l)
				th = l
			}
			p.Legend.Add(label, th)
		}
		legendHeadroom(p, ymax*1.02, panelH-2.2*vg.Centimeter)
		panels[s/cols] = append(panels[s/cols], p)
	}
	return &Figure{Name: name, Width: panelW * vg.Length(cols) * 1.15, Height: panelH * vg.Length(rows), Panels: panels}, nil
}

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

// fitNominalLabels turns the x tick labels of p (at 0, 1, …, as NominalX
// places them) 45° when two neighbours, centred on ticks dataWidth/n
// apart, would come closer than 4 pt: turned labels end at their ticks and
// cannot collide however many there are. It returns the extra height the
// turned labels need (0 when they stay level).
func fitNominalLabels(p *plot.Plot, names []string, dataWidth vg.Length) vg.Length {
	if len(names) == 0 {
		return 0
	}
	slot := dataWidth / vg.Length(len(names))
	var longest vg.Length
	crowded := false
	for i, n := range names {
		w := p.X.Tick.Label.Width(n)
		longest = max(longest, w)
		if i > 0 && (w+p.X.Tick.Label.Width(names[i-1]))/2+vg.Points(4) > slot {
			crowded = true
		}
	}
	if !crowded {
		return 0
	}
	p.X.Tick.Label.Rotation = math.Pi / 4
	p.X.Tick.Label.XAlign = draw.XRight
	p.X.Tick.Label.YAlign = draw.YTop
	return longest * math.Sqrt2 / 2
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

// cdfMaxPoints bounds the points of one CDF curve.
const cdfMaxPoints = 1000

// ecdf returns the empirical CDF F(x) = #{x_i ≤ x}/n of xs as a step curve.
// Up to cdfMaxPoints/2 values every step is drawn exactly (two points per
// distinct value); beyond that the curve is the type-7 quantile function
// sampled at cdfMaxPoints evenly spaced probabilities, which keeps files
// small without visible change.
func ecdf(xs []float64) plotter.XYs {
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n == 0 {
		return nil
	}
	if n <= cdfMaxPoints/2 {
		var pts plotter.XYs
		for i := 0; i < n; {
			j := i
			for j < n && s[j] == s[i] {
				j++
			}
			pts = append(pts, plotter.XY{X: s[i], Y: float64(i) / float64(n)}, plotter.XY{X: s[i], Y: float64(j) / float64(n)})
			i = j
		}
		return pts
	}
	pts := make(plotter.XYs, cdfMaxPoints)
	for k := range pts {
		p := float64(k) / float64(cdfMaxPoints-1)
		pts[k] = plotter.XY{X: quantile7(s, p), Y: p}
	}
	return pts
}

// logLimits returns axis limits for positive values in [lo, hi] on a log
// scale: lo rounded down and hi rounded up to the nearest 1, 2 or 5 × 10^k,
// so the curves fill the axis and both ends carry a labelled tick.
func logLimits(lo, hi float64) (float64, float64) {
	down := func(x float64) float64 {
		e := math.Pow(10, math.Floor(math.Log10(x)))
		for _, m := range []float64{5, 2, 1} {
			if m*e <= x*(1+1e-12) {
				return m * e
			}
		}
		return e
	}
	up := func(x float64) float64 {
		e := math.Pow(10, math.Floor(math.Log10(x)))
		for _, m := range []float64{1, 2, 5, 10} {
			if m*e >= x*(1-1e-12) {
				return m * e
			}
		}
		return 10 * e
	}
	return down(lo), up(hi)
}

// coincidingGroups returns the groups (two or more, in first-appearance
// order) of schedulers whose job completion times are the same multiset,
// i.e. whose CDF curves coincide and hide one another.
func coincidingGroups(scheds []string, jct map[string][]float64) [][]string {
	sorted := map[string][]float64{}
	for _, n := range scheds {
		sorted[n] = slices.Sorted(slices.Values(jct[n]))
	}
	var groups [][]string
	done := map[string]bool{}
	for i, a := range scheds {
		if done[a] {
			continue
		}
		g := []string{a}
		for _, b := range scheds[i+1:] {
			if !done[b] && slices.Equal(sorted[a], sorted[b]) {
				g = append(g, b)
				done[b] = true
			}
		}
		if len(g) > 1 {
			groups = append(groups, g)
		}
	}
	return groups
}

// JCTCDFPlot draws the empirical CDF of job completion time F − a (hours,
// log scale) per scheduler, over all jobs of the table. The x axis runs
// from the shortest to the longest completion time, rounded out to 1, 2 or
// 5 × 10^k (logLimits); the legend sits outside the axes; schedulers whose
// curves coincide exactly are named in the x-axis caption, since one line
// hides the other. A completion time ≤ 0 (impossible for a finished job)
// is an error.
func JCTCDFPlot(jobs []JobRow) (*Figure, error) {
	var scheds []string
	jct := map[string][]float64{}
	lo, hi := math.Inf(1), 0.0
	for _, j := range jobs {
		if _, ok := jct[j.Scheduler]; !ok {
			scheds = append(scheds, j.Scheduler)
		}
		x := hours(j.Finish - j.Arrival)
		if !(x > 0) {
			return nil, fmt.Errorf("JCT CDF plot: scheduler %q job %d: completion time %d s is not positive", j.Scheduler, j.Job, j.Finish-j.Arrival)
		}
		lo, hi = math.Min(lo, x), math.Max(hi, x)
		jct[j.Scheduler] = append(jct[j.Scheduler], x)
	}
	if len(scheds) == 0 {
		return nil, errors.New("JCT CDF plot: no jobs")
	}
	xlabel := "job completion time (h, log scale)"
	for _, g := range coincidingGroups(scheds, jct) {
		xlabel += "; curves coincide: " + strings.Join(g, " = ")
	}
	p := newPlot("Job completion time CDF", xlabel, "fraction of jobs ≤ x")
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = logTicks125{}
	p.X.Min, p.X.Max = logLimits(lo, hi)
	p.Y.Min, p.Y.Max = 0, 1
	leg := figure.NewLegend()
	for s, name := range scheds {
		l, err := plotter.NewLine(ecdf(jct[name]))
		if err != nil {
			return nil, fmt.Errorf("JCT CDF plot: %w", err)
		}
		l.Color = seriesColor(s)
		l.Dashes = seriesDash(s)
		l.Width = vg.Points(1.5)
		p.Add(l)
		leg.Add(name, l)
	}
	return &Figure{Name: "jct_cdf", Width: figW, Height: figH, Panels: [][]*plot.Plot{{p}}, Legend: leg}, nil
}

// meanBand is a curve of means with a ±sd band: X ascending.
type meanBand struct {
	Name     string
	X        []float64
	Mean, SD []float64
}

// bandPolygon is the closed outline of the band between lo and hi over xs:
// along the lower edge left to right, then back along the upper edge right
// to left, (x_0, lo_0) … (x_n, lo_n), (x_n, hi_n) … (x_0, hi_0).
func bandPolygon(xs, lo, hi []float64) plotter.XYs {
	n := len(xs)
	pts := make(plotter.XYs, 0, 2*n)
	for i := 0; i < n; i++ {
		pts = append(pts, plotter.XY{X: xs[i], Y: lo[i]})
	}
	for i := n - 1; i >= 0; i-- {
		pts = append(pts, plotter.XY{X: xs[i], Y: hi[i]})
	}
	return pts
}

// pressureSeries groups rows by scheduler (first-appearance order) and
// interval (ascending) and returns mean ± sd of the objective over seeds.
func pressureSeries(rows []PressureRow) ([]meanBand, error) {
	var scheds []string
	vals := map[string]map[float64][]float64{}
	for _, r := range rows {
		if err := r.check(); err != nil {
			return nil, fmt.Errorf("scheduler %q interval %v: %w", r.Scheduler, r.Interval, err)
		}
		m, ok := vals[r.Scheduler]
		if !ok {
			scheds = append(scheds, r.Scheduler)
			m = map[float64][]float64{}
			vals[r.Scheduler] = m
		}
		m[r.Interval] = append(m[r.Interval], r.Objective)
	}
	if len(scheds) == 0 {
		return nil, errors.New("no rows")
	}
	out := make([]meanBand, len(scheds))
	for s, name := range scheds {
		b := meanBand{Name: name}
		for x := range vals[name] {
			b.X = append(b.X, x)
		}
		slices.Sort(b.X)
		for _, x := range b.X {
			st := meanSD(vals[name][x])
			b.Mean = append(b.Mean, st.Mean)
			b.SD = append(b.SD, st.SD)
		}
		out[s] = b
	}
	return out, nil
}

// addMeanBand adds the filled ±sd band (translucent) and the line of means
// of series i to p.
func addMeanBand(p *plot.Plot, leg *plot.Legend, b meanBand, i int) error {
	lo := make([]float64, len(b.X))
	hi := make([]float64, len(b.X))
	for k := range b.X {
		lo[k], hi[k] = b.Mean[k]-b.SD[k], b.Mean[k]+b.SD[k]
	}
	poly, err := plotter.NewPolygon(bandPolygon(b.X, lo, hi))
	if err != nil {
		return err
	}
	poly.Color = withAlpha(seriesColor(i), 0x40)
	poly.LineStyle.Width = 0
	pts := make(plotter.XYs, len(b.X))
	for k := range b.X {
		pts[k] = plotter.XY{X: b.X[k], Y: b.Mean[k]}
	}
	l, s, err := plotter.NewLinePoints(pts)
	if err != nil {
		return err
	}
	l.Color, s.Color = seriesColor(i), seriesColor(i)
	l.Dashes = seriesDash(i)
	l.Width = vg.Points(1.5)
	p.Add(poly, l, s)
	leg.Add(b.Name, l, s)
	return nil
}

// PressurePlot draws paper Fig. 9a: the objective (mean over seeds, with a
// filled ±1 sd band) against the uniform inter-arrival interval Δ, one line
// per scheduler. Smaller Δ means heavier load.
func PressurePlot(rows []PressureRow) (*Figure, error) {
	series, err := pressureSeries(rows)
	if err != nil {
		return nil, fmt.Errorf("pressure plot: %w", err)
	}
	p := newPlot("Objective under load pressure (mean ± sd over seeds)", "inter-arrival interval Δ (s)", "objective (Eq. 5)")
	leg := figure.NewLegend()
	for i, b := range series {
		if err := addMeanBand(p, leg, b, i); err != nil {
			return nil, fmt.Errorf("pressure plot: %w", err)
		}
	}
	return &Figure{Name: "pressure", Width: figW, Height: figH, Panels: [][]*plot.Plot{{p}}, Legend: leg}, nil
}

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

// tradeoffSeries groups sweep rows by point (first-appearance order, each
// point must have one ω) and returns, sorted by ω, mean ± sd over seeds of
// AvgJCT and MaxQT.
func tradeoffSeries(rows []SweepRow) (avg, maxq meanBand, err error) {
	type acc struct {
		omega    float64
		avg, mqt []float64
	}
	var points []string
	m := map[string]*acc{}
	for _, r := range rows {
		if err := r.check(); err != nil {
			return avg, maxq, fmt.Errorf("point %q: %w", r.Point, err)
		}
		a, ok := m[r.Point]
		if !ok {
			a = &acc{omega: r.Omega}
			m[r.Point] = a
			points = append(points, r.Point)
		} else if a.omega != r.Omega {
			return avg, maxq, fmt.Errorf("point %q has two ω values, %v and %v", r.Point, a.omega, r.Omega)
		}
		a.avg = append(a.avg, r.AvgJCT)
		a.mqt = append(a.mqt, r.MaxQT)
	}
	if len(points) == 0 {
		return avg, maxq, errors.New("no sweep rows")
	}
	slices.SortStableFunc(points, func(a, b string) int {
		switch {
		case m[a].omega < m[b].omega:
			return -1
		case m[a].omega > m[b].omega:
			return 1
		}
		return 0
	})
	avg.Name, maxq.Name = "learned (GP)", "learned (GP)"
	for _, pt := range points {
		a := m[pt]
		sa, sm := meanSD(a.avg), meanSD(a.mqt)
		avg.X, maxq.X = append(avg.X, a.omega), append(maxq.X, a.omega)
		avg.Mean, avg.SD = append(avg.Mean, sa.Mean), append(avg.SD, sa.SD)
		maxq.Mean, maxq.SD = append(maxq.Mean, sm.Mean), append(maxq.SD, sm.SD)
	}
	return avg, maxq, nil
}

// baselineLevel is a baseline's mean AvgJCT and MaxQT over its rows.
type baselineLevel struct {
	Name          string
	AvgJCT, MaxQT float64
}

func baselineLevels(rows []ResultRow) []baselineLevel {
	var out []baselineLevel
	idx := map[string]int{}
	n := map[string]int{}
	for _, r := range rows {
		i, ok := idx[r.Scheduler]
		if !ok {
			i = len(out)
			idx[r.Scheduler] = i
			out = append(out, baselineLevel{Name: r.Scheduler})
		}
		out[i].AvgJCT += r.AvgJCT
		out[i].MaxQT += r.MaxQT
		n[r.Scheduler]++
	}
	for i := range out {
		out[i].AvgJCT /= float64(n[out[i].Name])
		out[i].MaxQT /= float64(n[out[i].Name])
	}
	return out
}

// TradeoffPlot draws paper Fig. 8: AvgJCT and MaxQT (hours) of the learned
// policy against ω of the single-cluster objective ω·AvgJCT + (1−ω)·MaxQT
// (Eq. 16), mean with error bars ±sd over seeds, and each scheduler of
// baselines as a dashed horizontal line at its mean over its rows, in the
// Okabe–Ito colours; one legend for both panels sits beside them.
// baselines may be empty.
func TradeoffPlot(sweep []SweepRow, baselines []ResultRow) (*Figure, error) {
	avg, maxq, err := tradeoffSeries(sweep)
	if err != nil {
		return nil, fmt.Errorf("trade-off plot: %w", err)
	}
	levels := baselineLevels(baselines)
	xmin, xmax := avg.X[0], avg.X[len(avg.X)-1]
	if xmin == xmax {
		xmin, xmax = xmin-0.5, xmax+0.5
	}
	var panels []*plot.Plot
	leg := figure.NewLegend()
	for k, sp := range []struct {
		series meanBand
		label  string
		level  func(baselineLevel) float64
	}{
		{avg, "AvgJCT (h)", func(b baselineLevel) float64 { return b.AvgJCT }},
		{maxq, "MaxQT (h)", func(b baselineLevel) float64 { return b.MaxQT }},
	} {
		p := newPlot(sp.label+" against ω", "ω (weight of AvgJCT in Eq. 16)", sp.label)
		pts := make(plotter.XYs, len(sp.series.X))
		errs := make(plotter.YErrors, len(sp.series.X))
		for k := range pts {
			pts[k] = plotter.XY{X: sp.series.X[k], Y: sp.series.Mean[k]}
			errs[k] = struct{ Low, High float64 }{sp.series.SD[k], sp.series.SD[k]}
		}
		l, s, err := plotter.NewLinePoints(pts)
		if err != nil {
			return nil, fmt.Errorf("trade-off plot: %w", err)
		}
		l.Color, s.Color = seriesColor(0), seriesColor(0)
		l.Width = vg.Points(1.5)
		eb, err := plotter.NewYErrorBars(struct {
			plotter.XYs
			plotter.YErrors
		}{pts, errs})
		if err != nil {
			return nil, fmt.Errorf("trade-off plot: %w", err)
		}
		eb.Color = seriesColor(0)
		p.Add(l, s, eb)
		if k == 0 {
			leg.Add(sp.series.Name+" ± sd", l, s)
		}
		for i, b := range levels {
			y := sp.level(b)
			hl, err := plotter.NewLine(plotter.XYs{{X: xmin, Y: y}, {X: xmax, Y: y}})
			if err != nil {
				return nil, fmt.Errorf("trade-off plot: %w", err)
			}
			hl.Color = seriesColor(i + 1)
			hl.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
			hl.Width = vg.Points(1.2)
			p.Add(hl)
			if k == 0 {
				leg.Add(b.Name, hl)
			}
		}
		panels = append(panels, p)
	}
	return &Figure{Name: "tradeoff", Width: 2 * panelW * 1.3, Height: panelH * 1.3, Panels: [][]*plot.Plot{panels}, Legend: leg}, nil
}

// logTicks125 labels a log axis at 1, 2 and 5 × 10^k when the range spans
// at most 3 decades and at powers of ten otherwise (so labels never crowd),
// with unlabelled minor ticks at the other integer multiples; plot.LogTicks
// labels powers of ten only, which leaves short ranges unlabelled.
type logTicks125 struct{}

// Ticks implements plot.Ticker for min > 0.
func (logTicks125) Ticks(min, max float64) []plot.Tick {
	if !(min > 0) || !(max >= min) {
		return nil
	}
	var ticks []plot.Tick
	lo, hi := math.Floor(math.Log10(min)), math.Ceil(math.Log10(max))
	dense := hi-lo <= 3
	for e := lo; e <= hi; e++ {
		base := math.Pow(10, e)
		for m := 1; m <= 9; m++ {
			v := float64(m) * base
			if v < min*(1-1e-12) || v > max*(1+1e-12) {
				continue
			}
			t := plot.Tick{Value: v}
			if m == 1 || dense && (m == 2 || m == 5) {
				t.Label = strconv.FormatFloat(v, 'g', -1, 64)
			}
			ticks = append(ticks, t)
		}
	}
	return ticks
}

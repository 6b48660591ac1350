package reports

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/evogp/evogp/internal/figure"
)

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
	// fewer than rugBelow of them: too few for a density, the figure then
	// draws every class as the empirical CDF of its waits. Curve is then
	// nil.
	Rug   []float64
	Curve plotter.XYs // density of the positive queuing times
	Waits []float64   // every positive queuing time of the class, ascending
}

// rugBelow is the number of positive queuing times of a class below which
// the plot shows the waits' empirical CDF instead of a kernel density:
// with a handful of points a KDE is a row of spikes that suggests a shape
// the data do not have.
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
			c := classDensity{Priority: pr, N: n, Zero: n - len(xs), Waits: slices.Sorted(slices.Values(xs))}
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

// maxWaitTips is about the most tooltips one class of a sparse queue
// density figure gets (one per wait up to it, then every few waits).
const maxWaitTips = rugBelow

// waitSpread is the ratio of the longest to the shortest positive wait
// above which a sparse queue-density figure uses a log x axis.
const waitSpread = 100

// QueueDensityPlot draws paper Fig. 5: one panel per scheduler with the
// distribution of the positive job queuing times (hours) per
// user-priority class u. Each panel's title says which share of its jobs
// never queued; the legend gives each class's size n and share of q = 0.
// When every class with positive waits has at least rugBelow of them, a
// class is its kernel density on the range of queueDensities (the legend
// sits above the data, legendHeadroom), and a class where nobody waited a
// dashed vertical line at 0. When some class has fewer (typically most
// waits are 0), a density would be a row of spikes: every class is then
// the empirical CDF of its positive waits, on a log x axis when they
// span more than waitSpread, and a class where nobody waited is named in
// the legend only. instance selects one instance ("" pools all jobs of
// the table). The SVG has a tooltip per wait (sparse) or per curve peak.
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
	cols := densityColumns(len(scheds))
	rows := (len(scheds) + cols - 1) / cols
	panels := make([][]*plot.Plot, rows)
	ymax, hi := 0.0, 0.0
	wlo, whi := math.Inf(1), 0.0 // positive waits of the sparse classes
	sparse := false
	for _, d := range dens {
		for _, c := range d {
			for _, pt := range c.Curve {
				ymax = math.Max(ymax, pt.Y)
				hi = math.Max(hi, pt.X)
			}
			sparse = sparse || c.Rug != nil
		}
	}
	if sparse {
		for _, d := range dens {
			for _, c := range d {
				for _, x := range c.waits() {
					wlo, whi = math.Min(wlo, x), math.Max(whi, x)
				}
			}
		}
	}
	if hi == 0 {
		hi = 1 // nobody queued: show the first hour
	}
	if ymax == 0 {
		ymax = 1
	}
	logX := sparse && whi/wlo > waitSpread
	tx := func(x float64) float64 { return x }
	if logX {
		tx = math.Log10
	}
	var tips []figure.Tip
	for s, sched := range scheds {
		n, zero := 0, 0
		for _, c := range dens[s] {
			n, zero = n+c.N, zero+c.Zero
		}
		title := fmt.Sprintf("%s: %s of %d jobs waited 0 s", sched, percent(zero, n), n)
		xlabel := "queuing time q > 0 (h), " + where
		ylabel := "density of the waits q > 0 (1/h)"
		if sparse {
			ylabel = "fraction of the waits q > 0 that are ≤ x"
			if logX {
				xlabel = "queuing time q > 0 (h, log scale), " + where
			}
		}
		p := newPlot(title, xlabel, ylabel)
		p.Y.Min = 0
		p.X.Min, p.X.Max = 0, hi
		switch {
		case logX: // log10 values on a linear axis (see figure.Log10Ticks)
			p.X.Tick.Marker = figure.Log10Ticks{Ticker: logTicks125{}}
			l, h := logLimits(wlo, whi)
			p.X.Min, p.X.Max = math.Log10(l), math.Log10(h)
		case sparse:
			p.X.Min, p.X.Max = 0, whi*1.05
			if whi == 0 {
				p.X.Max = 1
			}
		}
		if sparse {
			p.Y.Max = 1
			p.Legend.Top, p.Legend.Left = false, false // bottom right: under a CDF's plateau
		}
		row, col := s/cols, s%cols
		for i, c := range dens[s] {
			share := percent(c.Zero, c.N)
			label := fmt.Sprintf("u = %d (n = %d, %s q = 0)", c.Priority, c.N, share)
			var th plot.Thumbnailer
			switch {
			case sparse:
				ws := c.waits()
				if len(ws) == 0 {
					label = fmt.Sprintf("u = %d (n = %d, nobody waited)", c.Priority, c.N)
					l, err := plotter.NewLine(plotter.XYs{})
					if err != nil {
						return nil, fmt.Errorf("queue density plot: %w", err)
					}
					l.Color = seriesColor(i)
					th = l
					break
				}
				label = fmt.Sprintf("u = %d (n = %d, %s q = 0, %d waits > 0)", c.Priority, c.N, share, len(ws))
				xy := ecdf(ws)
				for k := range xy {
					xy[k].X = tx(xy[k].X)
				}
				if len(xy) > 0 {
					xy = append(plotter.XYs{{X: p.X.Min, Y: 0}}, xy...)
					xy = append(xy, plotter.XY{X: p.X.Max, Y: 1})
				}
				l, err := plotter.NewLine(xy)
				if err != nil {
					return nil, fmt.Errorf("queue density plot: %w", err)
				}
				l.Color = seriesColor(i)
				l.Dashes = seriesDash(i)
				l.Width = vg.Points(1.5)
				p.Add(l)
				th = l
				for k, x := range ws {
					if len(ws) > maxWaitTips && (k+1)%(len(ws)/maxWaitTips+1) != 0 && k != len(ws)-1 {
						continue // a large class: a tooltip every few waits keeps the SVG small
					}
					tips = append(tips, figure.Tip{Row: row, Col: col, X: tx(x), Y0: float64(k+1) / float64(len(ws)), Y1: float64(k+1) / float64(len(ws)),
						Point: true, HalfWidth: vg.Points(3), Text: fmt.Sprintf("%s, u = %d: a wait of %.3g h (%d of %d waits > 0)", sched, c.Priority, x, k+1, len(ws))})
				}
			default:
				xy := c.Curve
				if c.Constant {
					xy = plotter.XYs{{X: c.Value, Y: 0}, {X: c.Value, Y: ymax}}
					if c.Zero < c.N {
						label = fmt.Sprintf("u = %d (n = %d, %s q = 0, others q = %.3g h)", c.Priority, c.N, share, c.Value)
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
				peak := xy[0]
				for _, pt := range xy {
					if pt.Y > peak.Y {
						peak = pt
					}
				}
				tips = append(tips, figure.Tip{Row: row, Col: col, X: peak.X, Y0: peak.Y, Y1: peak.Y, Point: true, HalfWidth: vg.Points(4),
					Text: fmt.Sprintf("%s, u = %d: %d jobs, %s q = 0; peak density %.3g /h at q = %.3g h", sched, c.Priority, c.N, share, peak.Y, peak.X)})
			}
			p.Legend.Add(label, th)
		}
		if !sparse {
			legendHeadroom(p, ymax*1.02, panelH-2.2*vg.Centimeter)
		}
		panels[row] = append(panels[row], p)
	}
	return &Figure{Name: name, Width: panelW * vg.Length(cols) * 1.15, Height: panelH * vg.Length(rows), Panels: panels, Tips: tips}, nil
}

// densityColumns is the number of panel columns of a queue-density
// figure of n schedulers: every row full for up to six (breakdownColumns:
// five in one row), three columns beyond, which leaves blank slots only
// for a prime count of seven or more.
func densityColumns(n int) int {
	if c := breakdownColumns(n); c <= 5 {
		return c
	}
	return 3
}

// percent is k/n as a percentage for a title: "97 %", or "< 1 %" and
// "> 99 %" where rounding would say 0 or 100 of a share that is not.
func percent(k, n int) string {
	if n == 0 {
		return "0 %"
	}
	v := 100 * float64(k) / float64(n)
	switch {
	case k > 0 && v < 0.5:
		return "< 1 %"
	case k < n && v > 99.5:
		return "> 99 %"
	}
	return fmt.Sprintf("%.0f %%", v)
}

// waits is the positive waits of a class, ascending.
func (c classDensity) waits() []float64 { return c.Waits }

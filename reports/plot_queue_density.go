package reports

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
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

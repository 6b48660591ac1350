package reports

import (
	"github.com/evogp/evogp/internal/figure"
	"github.com/evogp/evogp/internal/tablefile"

	"errors"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// OpsRow is one row of an EVO operation log (ops.parquet): one scheduling
// operation of the evo allocator (SPEC §11) in one simulation. T is the
// operation time in seconds, JS the number of schedulable jobs |Js|,
// Generations and Evaluations what the genetic algorithm ran, MCTFitness
// and EVOFitness the fitness at t (Eqs. 2–5 or Eq. 16 at t, hours) of the
// current assignment (previous clusters, arrivals by MCT) and of the
// chosen one. WallMS is the operation's wall time in milliseconds, the one
// column that is not reproducible.
type OpsRow struct {
	Instance    string  `parquet:"instance,dict"`
	Scheduler   string  `parquet:"scheduler,dict"`
	T           int64   `parquet:"t"`
	JS          int64   `parquet:"js"`
	Generations int64   `parquet:"generations"`
	Evaluations int64   `parquet:"evaluations"`
	MCTFitness  float64 `parquet:"mct_fitness"`
	EVOFitness  float64 `parquet:"evo_fitness"`
	WallMS      float64 `parquet:"wall_ms"`
}

func (r OpsRow) check() error {
	switch {
	case r.Instance == "":
		return errors.New("instance is empty")
	case r.Scheduler == "":
		return errors.New("scheduler is empty")
	case r.T < 0:
		return fmt.Errorf("t = %d is negative", r.T)
	case r.JS < 1:
		return fmt.Errorf("js = %d: an operation has at least one schedulable job", r.JS)
	case r.Generations < 0 || r.Evaluations < 0:
		return fmt.Errorf("generations = %d, evaluations = %d: must be ≥ 0", r.Generations, r.Evaluations)
	}
	return tablefile.NonNegative("mct_fitness", r.MCTFitness, "evo_fitness", r.EVOFitness, "wall_ms", r.WallMS)
}

// WriteOps writes an EVO operation log atomically (Parquet or CSV by
// extension); every row is validated first.
func WriteOps(path string, rows []OpsRow) error { return writeTable(path, rows) }

// ReadOps reads and validates an EVO operation log.
func ReadOps(path string) ([]OpsRow, error) { return readTable[OpsRow](path) }

// minWallMS is the resolution of OpsRow.WallMS (1 µs); shorter times are
// drawn at it on the log axis of OpsTimePlot.
const minWallMS = 0.001

// opsBucket is the power-of-two bucket of |Js|: bucket b holds
// 2^b ≤ |Js| < 2^(b+1).
func opsBucket(js int64) int {
	b := 0
	for js > 1 {
		js >>= 1
		b++
	}
	return b
}

// OpsMedians returns, per power-of-two bucket of |Js| (2^b ≤ |Js| <
// 2^(b+1)), in increasing order, the median |Js| and the median wall time
// (ms) of the bucket's operations (the middle value, or the mean of the two
// middle values).
func OpsMedians(rows []OpsRow) plotter.XYs {
	js := map[int][]float64{}
	ms := map[int][]float64{}
	for _, r := range rows {
		b := opsBucket(r.JS)
		js[b] = append(js[b], float64(r.JS))
		ms[b] = append(ms[b], r.WallMS)
	}
	var buckets []int
	for b := range js {
		buckets = append(buckets, b)
	}
	slices.Sort(buckets)
	out := make(plotter.XYs, len(buckets))
	for i, b := range buckets {
		out[i] = plotter.XY{X: median(js[b]), Y: median(ms[b])}
	}
	return out
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// PaperOpLimitMS is the paper's bound on the time of one EVO-GP operation
// (< 7 s, Java on an Apple M4 Pro; paper §IV-G, Fig. 12).
const PaperOpLimitMS = 7000

// OpsTimePlot draws paper Fig. 12: the wall time of every EVO operation
// against |Js| (log–log scatter, one colour per scheduler) with the median
// per power-of-two bucket of |Js| as a line, and the paper's 7 s bound as a
// dashed reference. Times below 1 µs are drawn at 1 µs.
func OpsTimePlot(rows []OpsRow) (*Figure, error) {
	if len(rows) == 0 {
		return nil, errors.New("operation time plot: no operations")
	}
	var scheds []string
	by := map[string][]OpsRow{}
	for _, r := range rows {
		if err := r.check(); err != nil {
			return nil, fmt.Errorf("operation time plot: %w", err)
		}
		if _, ok := by[r.Scheduler]; !ok {
			scheds = append(scheds, r.Scheduler)
		}
		by[r.Scheduler] = append(by[r.Scheduler], r)
	}
	p := newPlot(fmt.Sprintf("Time per EVO operation (%d operations)", len(rows)), "schedulable jobs |Js|", "wall time per operation (ms)")
	leg := figure.NewLegend()
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker, p.Y.Tick.Marker = logTicks125{}, logTicks125{}
	lo, hi := math.Inf(1), math.Inf(-1)
	xmin, xmax := math.Inf(1), math.Inf(-1)
	var tips []figure.Tip
	for i, s := range scheds {
		pts := make(plotter.XYs, len(by[s]))
		for k, r := range by[s] {
			pts[k] = plotter.XY{X: float64(r.JS), Y: math.Max(r.WallMS, minWallMS)}
			lo, hi = math.Min(lo, pts[k].Y), math.Max(hi, pts[k].Y)
			xmin, xmax = math.Min(xmin, pts[k].X), math.Max(xmax, pts[k].X)
		}
		sc, err := plotter.NewScatter(pts)
		if err != nil {
			return nil, fmt.Errorf("operation time plot: %w", err)
		}
		sc.GlyphStyle.Color = withAlpha(seriesColor(i), 0x80)
		sc.GlyphStyle.Radius = vg.Points(1.5)
		p.Add(sc)
		med := OpsMedians(by[s])
		for k := range med {
			med[k].Y = math.Max(med[k].Y, minWallMS)
		}
		l, err := plotter.NewLine(med)
		if err != nil {
			return nil, fmt.Errorf("operation time plot: %w", err)
		}
		l.Color = seriesColor(i)
		l.Width = vg.Points(1.5)
		p.Add(l)
		leg.Add(s+" (median per 2^k bucket)", sc, l)
		for _, m := range med {
			tips = append(tips, figure.Tip{X: m.X, Y0: m.Y, Y1: m.Y, Point: true, HalfWidth: vg.Points(3),
				Text: fmt.Sprintf("%s: median %.3g ms per operation at |Js| ≈ %.3g", s, m.Y, m.X)})
		}
	}
	if xmax == xmin {
		xmin, xmax = xmin/2, xmax*2
	}
	ref, err := plotter.NewLine(plotter.XYs{{X: xmin, Y: PaperOpLimitMS}, {X: xmax, Y: PaperOpLimitMS}})
	if err != nil {
		return nil, fmt.Errorf("operation time plot: %w", err)
	}
	ref.Color = seriesColor(6)
	ref.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	p.Add(ref)
	leg.Add("paper: < 7 s (Java)", ref)
	p.X.Min, p.X.Max = xmin, xmax
	p.Y.Min, p.Y.Max = lo/2, math.Max(hi, PaperOpLimitMS)*2
	return &Figure{Name: "evo_op_time", Width: figW * 1.2, Height: figH, Panels: [][]*plot.Plot{{p}}, Legend: leg, Tips: tips}, nil
}

// EVOPair names a scheduler with the evo allocator and its counterpart
// with MCT allocation (the same ranking and placer), as result labels.
type EVOPair struct {
	EVO string `json:"evo"`
	MCT string `json:"mct"`
}

// EVOPairObjectives returns, per pair, the mean objective of the MCT and
// of the EVO scheduler over the (instance, seed) keys on which both ran,
// and the number of those keys. A pair whose schedulers share no key is an
// error.
func EVOPairObjectives(rows []ResultRow, pairs []EVOPair) (mct, evo []float64, n []int, err error) {
	type key struct {
		inst  string
		seed  int64
		sched string
	}
	obj := map[key]float64{}
	var keys []key
	for _, r := range rows {
		k := key{r.Instance, r.Seed, ""}
		if _, ok := obj[k]; !ok {
			obj[k] = 0
			keys = append(keys, k)
		}
		obj[key{r.Instance, r.Seed, r.Scheduler}] = r.Objective
	}
	for _, pr := range pairs {
		var sm, se float64
		c := 0
		for _, k := range keys {
			m, okM := obj[key{k.inst, k.seed, pr.MCT}]
			e, okE := obj[key{k.inst, k.seed, pr.EVO}]
			if okM && okE {
				sm += m
				se += e
				c++
			}
		}
		if c == 0 {
			return nil, nil, nil, fmt.Errorf("%s and %s share no instance", pr.EVO, pr.MCT)
		}
		mct = append(mct, sm/float64(c))
		evo = append(evo, se/float64(c))
		n = append(n, c)
	}
	return mct, evo, n, nil
}

// EVORankingPlot draws paper Fig. 11b as a grouped bar chart: for every
// pair, the mean objective of the ranking under MCT allocation beside the
// same ranking under EVO allocation, over the instances both ran.
func EVORankingPlot(rows []ResultRow, pairs []EVOPair) (*Figure, error) {
	if len(pairs) == 0 {
		return nil, errors.New("EVO ranking plot: no EVO/MCT pairs")
	}
	mct, evo, n, err := EVOPairObjectives(rows, pairs)
	if err != nil {
		return nil, fmt.Errorf("EVO ranking plot: %w", err)
	}
	groups := make([]string, len(pairs))
	top := 0.0
	for i, pr := range pairs {
		groups[i] = pr.EVO + "\nvs " + pr.MCT
		top = math.Max(top, math.Max(mct[i], evo[i]))
	}
	p := newPlot(fmt.Sprintf("Rankings under EVO and MCT allocation (mean over %d instances)", slices.Min(n)), "scheduler under EVO vs its MCT counterpart", "objective (as configured)")
	p.NominalX(groups...)
	p.Y.Min = 0
	if top > 0 {
		p.Y.Max = top * 1.1
	} else {
		p.Y.Max = 1
	}
	leg := figure.NewLegend()
	tipGroups := make([]string, len(pairs))
	for i, pr := range pairs {
		tipGroups[i] = fmt.Sprintf("%s vs %s (mean over %d instances)", pr.EVO, pr.MCT, n[i])
	}
	tips, err := groupedBarsTips(p, leg, []string{"MCT allocation", "EVO allocation"}, tipGroups, [][]float64{mct, evo}, figW*0.7)
	if err != nil {
		return nil, fmt.Errorf("EVO ranking plot: %w", err)
	}
	return &Figure{Name: "evo_rankings", Width: figW, Height: figH, Panels: [][]*plot.Plot{{p}}, Legend: leg, Tips: tips}, nil
}

package reports

import (
	"bytes"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/plot/plotter"

	"github.com/evogp/evogp/internal/figure"
)

var update = flag.Bool("update", false, "rewrite the golden SVG files under testdata/")

// plotJobs: two schedulers, three priority classes, queueing times in
// whole hours so that the densities are easy to picture.
func plotJobs() []JobRow {
	var rows []JobRow
	for s, sched := range []string{"gp", "tiresias"} {
		for i := range 30 {
			q := int64((i%7)*(s+1)) * 3600 / 2
			a := int64(i) * 600
			rows = append(rows, JobRow{Instance: "inst-1", Scheduler: sched, Job: int64(i), Priority: int64(1 + i%3),
				GPUs: 8, Arrival: a, Duration: 1800 + int64(i)*60, Start: a + q, Finish: a + q + 1800 + int64(i)*60, Queue: q})
		}
	}
	return rows
}

func plotPressure() []PressureRow {
	var rows []PressureRow
	for s, sched := range []string{"gp", "tiresias", "spark"} {
		for _, iv := range []float64{60, 120, 240} {
			for seed := int64(1); seed <= 3; seed++ {
				obj := 10/iv*100*float64(s+1) + float64(seed)
				rows = append(rows, PressureRow{Interval: iv, Scheduler: sched, Seed: seed, Jobs: 100, Objective: obj, Util: 0.5})
			}
		}
	}
	return rows
}

func plotGenerations() []GenerationRow {
	var rows []GenerationRow
	for g := range 10 {
		b := 3 - 0.1*float64(g)
		rows = append(rows, GenerationRow{Generation: int64(g), Best: b, Median: b + 0.5, Worst: b + 2, BestFormula: "g*d", Size: 3, Depth: 2})
	}
	return rows
}

func plotSweep() []SweepRow {
	var rows []SweepRow
	for _, w := range []float64{0.9, 0.1, 0.5} {
		for seed := int64(1); seed <= 2; seed++ {
			rows = append(rows, SweepRow{Point: "w" + string(rune('0'+int(w*10))), Omega: w, Seed: seed,
				AvgJCT: 2 + w + 0.1*float64(seed), MaxQT: 20 - 10*w + float64(seed)})
		}
	}
	return rows
}

// figures builds every figure from the fixed tables.
func figures(t *testing.T) []*Figure {
	t.Helper()
	var figs []*Figure
	add := func(f *Figure, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		figs = append(figs, f)
	}
	add(RankingPlot(statsTable()))
	add(QueueDensityPlot(plotJobs(), "inst-1"))
	add(BreakdownPlot(statsTable(), "a"))
	add(BreakdownPlot(statsTable(), ""))
	add(JCTCDFPlot(plotJobs()))
	add(PressurePlot(plotPressure()))
	add(ConvergencePlot(plotGenerations()))
	if f, err := ConvergencePlot(plotGenerations(), ConvergenceRef{Subset: 3, Baseline: "liquid", Level: 0.5,
		Validation: []ValidationPoint{{Generation: 0, Score: 0.9}, {Generation: 5, Score: 0.7}, {Generation: 9, Score: 0.6}}}); err != nil {
		t.Fatal(err)
	} else {
		f.Name = "convergence_ref"
		figs = append(figs, f)
	}
	add(TradeoffPlot(plotSweep(), statsTable()))
	return figs
}

// Every figure renders to the same SVG as its golden file (run with
// -update after an intended change) and to identical bytes twice.
func TestFiguresGolden(t *testing.T) {
	for _, f := range figures(t) {
		svg, err := f.Render("svg")
		if err != nil {
			t.Fatal(err)
		}
		again, err := f.Render("svg")
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(svg, again) {
			t.Fatalf("%s: SVG differs between two renders", f.Name)
		}
		golden := filepath.Join("testdata", f.Name+".svg")
		if *update {
			if err := os.WriteFile(golden, svg, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (run go test ./reports -run Golden -update)", err)
		}
		if !bytes.Equal(svg, want) {
			t.Fatalf("%s: SVG differs from %s (run with -update if intended)", f.Name, golden)
		}
	}
}

// A rebuilt figure (fresh plot objects) gives the same PNG bytes, and Save
// writes every format with the right signature.
func TestFigureSaveFormats(t *testing.T) {
	a, err := PressurePlot(plotPressure())
	if err != nil {
		t.Fatal(err)
	}
	b, _ := PressurePlot(plotPressure())
	pa, err := a.Render("png")
	if err != nil {
		t.Fatal(err)
	}
	pb, _ := b.Render("png")
	if !bytes.Equal(pa, pb) {
		t.Fatal("PNG bytes differ for the same table")
	}
	dir := t.TempDir()
	paths, err := a.Save(dir, Formats())
	if err != nil {
		t.Fatal(err)
	}
	magic := map[string]string{".png": "\x89PNG", ".svg": "<?xml", ".pdf": "%PDF"}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(string(data), magic[filepath.Ext(p)]) {
			t.Fatalf("%s does not start with %q", p, magic[filepath.Ext(p)])
		}
	}
	if len(paths) != 3 {
		t.Fatalf("wrote %v", paths)
	}
	if _, err := a.Render("gif"); err == nil {
		t.Fatal("unknown format accepted")
	}
}

func TestSVGHasTitlesAndLabels(t *testing.T) {
	for _, f := range figures(t) {
		svg, _ := f.Render("svg")
		s := string(svg)
		for _, p := range f.Panels {
			for _, pl := range p {
				for _, txt := range []string{pl.Title.Text, pl.X.Label.Text, pl.Y.Label.Text} {
					if txt == "" {
						t.Fatalf("%s: empty title or axis label", f.Name)
					}
					for _, line := range strings.Split(txt, "\n") { // one <text> per line
						if !strings.Contains(s, xmlEscape(line)) {
							t.Fatalf("%s: SVG lacks %q", f.Name, line)
						}
					}
				}
			}
		}
	}
}

func xmlEscape(s string) string {
	var b bytes.Buffer
	for _, r := range s {
		switch r {
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '&':
			b.WriteString("&amp;")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func TestBandPolygon(t *testing.T) {
	got := bandPolygon([]float64{1, 2, 3}, []float64{10, 20, 30}, []float64{11, 22, 33})
	want := plotter.XYs{{X: 1, Y: 10}, {X: 2, Y: 20}, {X: 3, Y: 30}, {X: 3, Y: 33}, {X: 2, Y: 22}, {X: 1, Y: 11}}
	if len(got) != len(want) {
		t.Fatalf("got %v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("vertex %d = %v, want %v", i, got[i], want[i])
		}
	}
}

// The plotted pressure series: mean ± sd over seeds, intervals ascending.
func TestPressureSeries(t *testing.T) {
	rows := []PressureRow{
		{Interval: 120, Scheduler: "a", Seed: 1, Objective: 1},
		{Interval: 60, Scheduler: "a", Seed: 1, Objective: 4},
		{Interval: 60, Scheduler: "a", Seed: 2, Objective: 6},
		{Interval: 120, Scheduler: "a", Seed: 2, Objective: 3},
		{Interval: 60, Scheduler: "b", Seed: 1, Objective: 5},
	}
	s, err := pressureSeries(rows)
	if err != nil {
		t.Fatal(err)
	}
	if len(s) != 2 || s[0].Name != "a" || s[1].Name != "b" {
		t.Fatalf("series %+v", s)
	}
	a := s[0]
	if a.X[0] != 60 || a.X[1] != 120 || a.Mean[0] != 5 || a.Mean[1] != 2 || !near(a.SD[0], math.Sqrt2, 1e-15) || !near(a.SD[1], math.Sqrt2, 1e-15) {
		t.Fatalf("a = %+v", a)
	}
	if s[1].SD[0] != 0 {
		t.Fatal("single seed must have sd 0")
	}
	if _, err := PressurePlot(nil); err == nil {
		t.Fatal("empty pressure table accepted")
	}
}

func TestTradeoffSeries(t *testing.T) {
	avg, mq, err := tradeoffSeries(plotSweep())
	if err != nil {
		t.Fatal(err)
	}
	if avg.X[0] != 0.1 || avg.X[1] != 0.5 || avg.X[2] != 0.9 {
		t.Fatalf("ω not sorted: %v", avg.X)
	}
	// ω = 0.1: AvgJCT 2.2, 2.3 → mean 2.25; MaxQT 20, 21 → 20.5.
	if !near(avg.Mean[0], 2.25, 1e-12) || !near(mq.Mean[0], 20.5, 1e-12) || mq.Low[0] != 20 || mq.High[0] != 21 || mq.N[0] != 2 {
		t.Fatalf("avg %+v maxqt %+v", avg, mq)
	}
	// With one seed per ω there is no interval.
	one, _, err := tradeoffSeries(plotSweep()[:1])
	if err != nil || one.seeds() != 1 || one.Low[0] != one.Mean[0] || one.High[0] != one.Mean[0] {
		t.Fatalf("one seed: %+v %v", one, err)
	}
	bad := append(plotSweep(), SweepRow{Point: "w1", Omega: 0.7, AvgJCT: 1, MaxQT: 1})
	if _, _, err := tradeoffSeries(bad); err == nil {
		t.Fatal("point with two ω accepted")
	}
	lv := baselineLevels(statsTable())
	if lv[0].Name != "gp" || lv[0].AvgJCT != 2 || lv[1].Name != "tiresias" || lv[1].MaxQT != 3.5 {
		t.Fatalf("levels %+v", lv)
	}
}

func TestECDF(t *testing.T) {
	got := ecdf([]float64{2, 1, 1})
	want := plotter.XYs{{X: 1, Y: 0}, {X: 1, Y: 2.0 / 3}, {X: 2, Y: 2.0 / 3}, {X: 2, Y: 1}}
	if len(got) != len(want) {
		t.Fatalf("got %v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("point %d = %v, want %v", i, got[i], want[i])
		}
	}
	big := make([]float64, 5000)
	for i := range big {
		big[i] = float64(i)
	}
	pts := ecdf(big)
	if len(pts) != cdfMaxPoints || pts[0].X != 0 || pts[len(pts)-1] != (plotter.XY{X: 4999, Y: 1}) {
		t.Fatalf("large sample: %d points, ends %v %v", len(pts), pts[0], pts[len(pts)-1])
	}
}

// manyJobs repeats plotJobs three times (90 jobs per scheduler, 30 per
// class): enough positive waits per class for a density.
func manyJobs() []JobRow {
	var rows []JobRow
	for k := range 3 {
		for _, j := range plotJobs() {
			j.Job += int64(30 * k)
			rows = append(rows, j)
		}
	}
	return rows
}

// With fewer than rugBelow positive waits a class keeps its waits
// (ascending) instead of a density, and the figure draws every class as
// the empirical CDF of its waits, its title giving the share of q = 0.
func TestQueueDensityRug(t *testing.T) {
	_, dens, err := queueDensities(plotJobs(), "")
	if err != nil {
		t.Fatal(err)
	}
	// gp's class u = 1 holds jobs i = 0, 3, …, 27 with q = (i mod 7)/2 h:
	// 0, 1.5, 3, 1, 2.5, 0.5, 2, 0, 1.5, 3 → 8 positive waits.
	c := dens[0][0]
	want := []float64{0.5, 1, 1.5, 1.5, 2, 2.5, 3, 3}
	if c.Curve != nil || !slices.Equal(c.Rug, want) || c.Zero != 2 {
		t.Fatalf("gp u=1: %+v", c)
	}
	f, err := QueueDensityPlot(plotJobs(), "inst-1")
	if err != nil {
		t.Fatal(err)
	}
	svg, _ := f.Render("svg")
	for _, text := range []string{"u = 1 (n = 10, 20 % q = 0, 8 waits &gt; 0)", "gp: 17 % of 30 jobs waited 0 s", "fraction of the waits q &gt; 0 that are ≤ x"} {
		if !strings.Contains(string(svg), text) {
			t.Errorf("SVG lacks %q", text)
		}
	}
	// One tooltip per wait, at its CDF height k/n.
	var got []float64
	for _, tip := range f.Tips {
		if strings.HasPrefix(tip.Text, "gp, u = 1: a wait of") {
			got = append(got, tip.X)
			if k := len(got); tip.Y0 != float64(k)/8 {
				t.Errorf("tip %q at height %v, want %v", tip.Text, tip.Y0, float64(k)/8)
			}
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("gp u=1 tooltips at %v, want %v", got, want)
	}
}

// When most jobs never waited, the figure says so and draws the non-zero
// waits as a distribution, on a log axis when they span decades.
func TestQueueDensityMostlyZero(t *testing.T) {
	var jobs []JobRow
	for i := range 100 {
		q := int64(0)
		switch i {
		case 10:
			q = 36 // 0.01 h
		case 20:
			q = 3600
		case 30:
			q = 36000 // 10 h: the waits span three decades
		}
		jobs = append(jobs, JobRow{Instance: "i", Scheduler: "a", Job: int64(i), Priority: 1 + int64(i%2), GPUs: 1,
			Arrival: int64(i), Duration: 5, Start: int64(i) + q, Finish: int64(i) + q + 5, Queue: q})
	}
	f, err := QueueDensityPlot(jobs, "i")
	if err != nil {
		t.Fatal(err)
	}
	p := f.Panels[0][0]
	if p.Title.Text != "a: 97 % of 100 jobs waited 0 s" {
		t.Errorf("title %q", p.Title.Text)
	}
	if _, ok := p.X.Tick.Marker.(figure.Log10Ticks); !ok || p.X.Min != -2 || p.X.Max != 1 || !strings.Contains(p.X.Label.Text, "log scale") {
		t.Errorf("x axis %v..%v (%T, %q), want log10 -2..1", p.X.Min, p.X.Max, p.X.Tick.Marker, p.X.Label.Text)
	}
	if tip := f.Tips[0]; tip.X != -2 || !strings.Contains(tip.Text, "a wait of 0.01 h") {
		t.Errorf("first tooltip %+v", tip)
	}
	svg, _ := f.Render("svg")
	// u = 1 (even i) holds the three waits; in u = 2 (odd i) nobody waited.
	for _, text := range []string{"u = 2 (n = 50, nobody waited)", "u = 1 (n = 50, 94 % q = 0, 3 waits &gt; 0)"} {
		if !strings.Contains(string(svg), text) {
			t.Errorf("SVG lacks %q", text)
		}
	}
	if len(f.Tips) != 3 {
		t.Errorf("%d tooltips, want one per non-zero wait (3)", len(f.Tips))
	}
	for _, c := range []struct {
		k, n int
		want string
	}{{0, 10, "0 %"}, {1, 1000, "< 1 %"}, {999, 1000, "> 99 %"}, {97, 100, "97 %"}, {10, 10, "100 %"}} {
		if got := percent(c.k, c.n); got != c.want {
			t.Errorf("percent(%d, %d) = %q, want %q", c.k, c.n, got, c.want)
		}
	}
	for n := 1; n <= 6; n++ {
		if c := densityColumns(n); n%c != 0 {
			t.Errorf("densityColumns(%d) = %d leaves a blank slot", n, c)
		}
	}
}

func TestQueueDensities(t *testing.T) {
	scheds, dens, err := queueDensities(manyJobs(), "")
	if err != nil {
		t.Fatal(err)
	}
	if len(scheds) != 2 || len(dens[0]) != 3 {
		t.Fatalf("scheds %v, classes %d", scheds, len(dens[0]))
	}
	// The x range ends at the 99th percentile of all positive waits.
	var pooled []float64
	for _, j := range manyJobs() {
		if j.Queue > 0 {
			pooled = append(pooled, float64(j.Queue)/3600)
		}
	}
	slices.Sort(pooled)
	hi := quantile7(pooled, 0.99)
	for s := range dens {
		for _, c := range dens[s] {
			if c.N != 30 || len(c.Curve) != densityPoints || c.Curve[0].X != 0 || c.Curve[densityPoints-1].X != hi {
				t.Fatalf("%s u=%d: n=%d points=%d", scheds[s], c.Priority, c.N, len(c.Curve))
			}
			// Each curve is the KDE of its class's positive queueing hours.
			var xs []float64
			for _, j := range manyJobs() {
				if j.Scheduler == scheds[s] && j.Priority == c.Priority && j.Queue > 0 {
					xs = append(xs, float64(j.Queue)/3600)
				}
			}
			if c.Zero != c.N-len(xs) {
				t.Fatalf("zeros %d, want %d", c.Zero, c.N-len(xs))
			}
			k, _ := NewKDE(xs)
			mid := c.Curve[densityPoints/2]
			if !near(mid.Y, k.At(mid.X), 1e-15) {
				t.Fatalf("curve value %v, KDE %v", mid.Y, k.At(mid.X))
			}
		}
	}
	// gp's class u = 1 holds jobs i = 0, 3, …, 27 with q = (i mod 7)/2 h,
	// zero for i = 0 and 21.
	if c := dens[0][0]; c.Priority != 1 || c.Zero != 6 || c.Constant {
		t.Fatalf("gp u=1: %+v", c)
	}
	// A class whose jobs all waited 0, or all waited the same positive
	// time, is a point mass, not a curve.
	jobs := append(manyJobs(),
		JobRow{Instance: "inst-1", Scheduler: "idle", Job: 0, Priority: 1, GPUs: 1, Duration: 5, Finish: 5},
		JobRow{Instance: "inst-1", Scheduler: "idle", Job: 1, Priority: 1, GPUs: 1, Arrival: 3, Duration: 5, Start: 3, Finish: 8},
		JobRow{Instance: "inst-1", Scheduler: "idle", Job: 2, Priority: 2, GPUs: 1, Duration: 5, Start: 1800, Finish: 1805, Queue: 1800},
		JobRow{Instance: "inst-1", Scheduler: "idle", Job: 3, Priority: 2, GPUs: 1, Duration: 5, Finish: 5})
	_, dens, err = queueDensities(jobs, "inst-1")
	if err != nil {
		t.Fatal(err)
	}
	if c := dens[2][0]; !c.Constant || c.Value != 0 || c.Curve != nil || c.Zero != 2 || c.N != 2 {
		t.Fatalf("idle u=1: %+v", c)
	}
	if c := dens[2][1]; c.Constant || !slices.Equal(c.Rug, []float64{0.5}) || c.Zero != 1 || c.N != 2 {
		t.Fatalf("idle u=2: %+v", c)
	}
	if _, err := QueueDensityPlot(jobs, "inst-1"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := queueDensities(plotJobs(), "nope"); err == nil {
		t.Fatal("unknown instance accepted")
	}
}

func TestBreakdownValues(t *testing.T) {
	scheds, ms, v, err := breakdownValues(statsTable(), "", "", "")
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 4 {
		t.Fatalf("no deadlines, yet %d metrics", len(ms))
	}
	// gp objectives 1, 2, 3: cq_avg = obj/2 → mean 1; 1 − util = 0.5; no
	// best baseline, so no error bar.
	if scheds[0] != "gp" || v[0][0].Mean != 1 || v[0][2].Mean != 0.5 || v[0][3].Mean != 2 || v[0][3].hasBar() || v[0][3].N != 3 {
		t.Fatalf("%v %v", scheds, v)
	}
	_, _, v, _ = breakdownValues(statsTable(), "c", "", "")
	if v[2][3].Mean != 1 {
		t.Fatalf("instance c spark objective %v", v[2][3])
	}
	// With deadlines, total tardiness (h) and deadline misses join.
	_, ms, v, _ = breakdownValues(crowdedResults(), "", "", "")
	if len(ms) != 6 || ms[4].Name != "total tardiness" || ms[5].Name != "deadline misses" || v[2][4].Mean != 1 || v[2][5].Mean != 2 {
		t.Fatalf("deadline metrics %d %v", len(ms), v[2])
	}
}

// pairedRows: 8 instances whose scale varies 100-fold, gp 2 ± 0.1 times
// liquid on each, spark on 3 of them only.
func pairedRows() []ResultRow {
	var rows []ResultRow
	for i := range 8 {
		scale := math.Pow(10, float64(i%3)) // 1, 10, 100
		noise := 1 + 0.05*float64(i%2*2-1)  // 0.95 or 1.05
		inst := fmt.Sprintf("i%d", i)
		rows = append(rows,
			ResultRow{Instance: inst, Scheduler: "gp", Objective: 2 * scale * noise},
			ResultRow{Instance: inst, Scheduler: "liquid", Objective: scale})
		if i < 3 {
			rows = append(rows, ResultRow{Instance: inst, Scheduler: "spark", Objective: 3 * scale})
		}
	}
	return rows
}

// The breakdown's error bars are paired intervals of the ratio to the best
// baseline: on instances whose scale varies 100-fold while gp stays within
// 2 ± 0.1 times liquid, the interval of the ratio is narrow (an unpaired CI
// of gp's mean spans most of the range), it is drawn on liquid's scale, the
// best baseline and a scheduler with under 6 pairs get none, and the order
// of the rows does not change it.
func TestBreakdownErrorBarsPaired(t *testing.T) {
	rows := pairedRows()
	scheds, ms, v, err := breakdownValues(rows, "", "", "liquid")
	if err != nil {
		t.Fatal(err)
	}
	obj := slices.IndexFunc(ms, func(m breakdownMetric) bool { return m.Name == "objective" })
	gp, liq, spark := v[slices.Index(scheds, "gp")][obj], v[slices.Index(scheds, "liquid")][obj], v[slices.Index(scheds, "spark")][obj]
	if gp.Pairs != 8 || !(gp.RatioLo >= 1.9 && gp.RatioLo < gp.Ratio && gp.Ratio < gp.RatioHi && gp.RatioHi <= 2.1) {
		t.Fatalf("gp's paired ratio %+v, want within 2 ± 0.1", gp)
	}
	var sy float64
	for _, r := range rows {
		if r.Scheduler == "liquid" {
			sy += r.Objective
		}
	}
	if want := sy / 8 * gp.RatioLo; math.Abs(gp.Low-want) > 1e-9*want || !gp.hasBar() {
		t.Fatalf("gp's bar %v–%v is not liquid's mean × the ratio's bounds", gp.Low, gp.High)
	}
	unpaired := bootstrapMeanCI([]float64{1.9, 21, 210, 2.1, 19, 190, 2.1, 21})
	if gp.High-gp.Low > (unpaired.High-unpaired.Low)/5 {
		t.Fatalf("paired bar %v–%v not narrower than the unpaired CI %v–%v", gp.Low, gp.High, unpaired.Low, unpaired.High)
	}
	if liq.hasBar() || spark.hasBar() || spark.Pairs != 3 {
		t.Fatalf("liquid (the reference) %+v and spark (3 pairs) %+v should have no bar", liq, spark)
	}
	rev := slices.Clone(rows)
	slices.Reverse(rev)
	scheds2, _, v2, _ := breakdownValues(rev, "", "", "liquid")
	if g2 := v2[slices.Index(scheds2, "gp")][obj]; g2.Low != gp.Low || g2.High != gp.High {
		t.Fatalf("row order changed the interval: %+v vs %+v", g2, gp)
	}
	f, err := BreakdownPlotAgainst(rows, "", "", "liquid")
	if err != nil {
		t.Fatal(err)
	}
	svg, _ := f.Render("svg")
	for _, want := range []string{"paired 95% interval of the ratio", "to liquid, drawn on liquid", "gp: objective", "over 8 pairs", "spark: objective", "too few for a paired interval"} {
		if !strings.Contains(string(svg), want) {
			t.Errorf("breakdown SVG lacks %q", want)
		}
	}
	if strings.Contains(string(svg), "95% CI") {
		t.Error("breakdown still labels an unpaired CI")
	}
}

func TestFileStemAndOrdinal(t *testing.T) {
	if got := fileStem("test/inst 01*"); got != "test_inst_01" {
		t.Fatalf("fileStem = %q", got)
	}
	if ordinal(1) != "1st" || ordinal(2) != "2nd" || ordinal(3) != "3rd" || ordinal(4) != "4th" || ordinal(11) != "11th" || ordinal(22) != "22nd" {
		t.Fatal("ordinals")
	}
}

func TestLogTicks125(t *testing.T) {
	var labels []string
	for _, tk := range (logTicks125{}).Ticks(0.3, 25) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	if strings.Join(labels, ",") != "0.5,1,2,5,10,20" {
		t.Fatalf("labels %v", labels)
	}
	labels = nil
	for _, tk := range (logTicks125{}).Ticks(0.0003, 120) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	if strings.Join(labels, ",") != "0.001,0.01,0.1,1,10,100" {
		t.Fatalf("labels over 6 decades %v", labels)
	}
	if (logTicks125{}).Ticks(0, 1) != nil {
		t.Fatal("non-positive range must give no ticks")
	}
}

func TestConvergenceOverlayPlot(t *testing.T) {
	gen := func(best ...float64) []GenerationRow {
		rows := make([]GenerationRow, len(best))
		for i, b := range best {
			rows[i] = GenerationRow{Generation: int64(i), Best: b, Median: b + 1, Worst: b + 2, BestFormula: "g*d", Size: 3, Depth: 2, Unique: 4}
		}
		return rows
	}
	runs := []RunGenerations{{Label: "omega=0", Rows: gen(3, 2.5, 2)}, {Label: "omega=1", Rows: gen(3, 2.9, 2.8)}}
	fig, err := ConvergenceOverlayPlot(runs)
	if err != nil {
		t.Fatal(err)
	}
	svg, err := fig.Render("svg")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"omega=0", "omega=1", "generation"} {
		if !strings.Contains(string(svg), want) {
			t.Errorf("overlay SVG lacks %q", want)
		}
	}
	again, _ := fig.Render("svg")
	if string(again) != string(svg) {
		t.Error("overlay rendering is not deterministic")
	}
	if _, err := ConvergenceOverlayPlot(nil); err == nil {
		t.Error("no runs: want error")
	}
	if _, err := ConvergenceOverlayPlot([]RunGenerations{{Label: "empty"}}); err == nil {
		t.Error("empty run: want error")
	}
	bad := gen(1, 2)
	bad[1].Median = 0 // median below best
	if _, err := ConvergenceOverlayPlot([]RunGenerations{{Label: "bad", Rows: bad}}); err == nil {
		t.Error("invalid rows: want error")
	}
}

// crowdedResults: eight schedulers with long names on two instances, and
// deadlines (total tardiness spanning three decades).
func crowdedResults() []ResultRow {
	var rows []ResultRow
	names := []string{"learned-formula-w0.5", "tiresias-2d", "spark", "liquid", "lyra", "hydra", "sjf-fastest", "chronus"}
	for i, inst := range []string{"a", "b"} {
		for s, name := range names {
			obj := float64(s+1) * float64(i+1)
			rows = append(rows, ResultRow{Instance: inst, Scheduler: name, Jobs: 5, CQAvg: obj / 2, CQMax: obj * math.Pow(10, float64(s)/2),
				Util: 0.5, Objective: obj, AvgJCT: obj, MaxQT: obj, Makespan: 10, TotalTardiness: math.Pow(10, float64(s)/2) / 10, DeadlineMisses: int64(s)})
		}
	}
	return rows
}

// crowdedFigures are the figures of crowdedResults.
func crowdedFigures(t *testing.T) []*Figure {
	t.Helper()
	var figs []*Figure
	for _, mk := range []func() (*Figure, error){
		func() (*Figure, error) { return RankingPlot(crowdedResults()) },
		func() (*Figure, error) { return BreakdownPlot(crowdedResults(), "") },
	} {
		f, err := mk()
		if err != nil {
			t.Fatal(err)
		}
		f.Name = "crowded_" + f.Name
		figs = append(figs, f)
	}
	return figs
}

// With deadlines the breakdown gains total tardiness (hours) and deadline
// misses panels; a metric spanning more than two decades goes on a log
// axis; 1 − util, equal for every scheduler, loses its panel and says so;
// the ranking figure still renders.
func TestBreakdownDeadlinesAndScales(t *testing.T) {
	f, err := BreakdownPlot(crowdedResults(), "")
	if err != nil {
		t.Fatal(err)
	}
	var ylabels []string
	for _, row := range f.Panels {
		for _, p := range row {
			ylabels = append(ylabels, p.Y.Label.Text)
		}
	}
	want := []string{"mean priority-weighted queueing (h)", "max priority-weighted queueing (h), log scale", "weighted objective (lower is better)",
		"total tardiness (h), log scale", "jobs past their deadline"}
	if strings.Join(ylabels, "|") != strings.Join(want, "|") {
		t.Fatalf("panels %q", ylabels)
	}
	svg, err := f.Render("svg")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"total tardiness, mean over 2 instances", "(equal for every scheduler: 1 − util = 0.5)"} {
		if !strings.Contains(string(svg), s) {
			t.Errorf("SVG lacks %q", s)
		}
	}
	// Without deadlines there is no tardiness panel; with differing util
	// the 1 − util panel stays.
	rows := statsTable()
	rows[0].Util = 0.9
	f, err = BreakdownPlot(rows, "")
	if err != nil {
		t.Fatal(err)
	}
	if n := len(f.Panels[0]) + len(f.Panels[1]); n != 4 || f.Panels[1][0].Title.Text != "1 − util, mean over 3 instances" {
		t.Fatalf("%d panels, third %q", n, f.Panels[1][0].Title.Text)
	}
	if _, err := RankingPlot(crowdedResults()); err != nil {
		t.Fatal(err)
	}
}

// The span rule: more than two decades of positive values, no zero.
func TestWantsLog(t *testing.T) {
	for _, c := range []struct {
		ys   []float64
		want bool
	}{{[]float64{1, 100}, false}, {[]float64{1, 100.1}, true}, {[]float64{0, 1000}, false}, {[]float64{5}, false}} {
		if got := wantsLog(c.ys); got != c.want {
			t.Errorf("wantsLog(%v) = %v", c.ys, got)
		}
	}
}

// The JCT CDF axis runs from the shortest to the longest JCT: linear
// within two decades, else log (rounded out to 1-2-5 steps); a curve
// identical to an earlier one is named so in the legend and dashed over
// it; nearly identical curves are said to be so in the title.
func TestJCTCDFLimitsAndCoincidence(t *testing.T) {
	for _, c := range []struct{ lo, hi, wlo, whi float64 }{
		{0.3, 25, 0.2, 50}, {0.5, 7, 0.5, 10}, {1, 1, 1, 1}, {0.0123, 0.9, 0.01, 1},
	} {
		if lo, hi := logLimits(c.lo, c.hi); !near(lo, c.wlo, 1e-12) || !near(hi, c.whi, 1e-12) {
			t.Errorf("logLimits(%v, %v) = %v, %v", c.lo, c.hi, lo, hi)
		}
	}
	jobs := plotJobs()
	for _, j := range plotJobs() {
		if j.Scheduler == "gp" {
			j.Scheduler = "gp-copy"
			jobs = append(jobs, j)
		}
	}
	f, err := JCTCDFPlot(jobs)
	if err != nil {
		t.Fatal(err)
	}
	// plotJobs' completion times run from 0.5 h (gp job 0) to 0.5 + 27/60
	// + 6 = 6.95 h (tiresias job 27, q = 27 mod 7 = 6 h): one decade, a
	// linear axis.
	p := f.Panels[0][0]
	if p.X.Min != 0.5 || !near(p.X.Max, 0.5+27.0/60+6, 1e-12) || p.X.Label.Text != "job completion time (h)" {
		t.Fatalf("x %v..%v %q", p.X.Min, p.X.Max, p.X.Label.Text)
	}
	svg, _ := f.Render("svg")
	if !strings.Contains(string(svg), "gp-copy (identical to gp)") || strings.Contains(string(svg), "tiresias (identical") {
		t.Fatal("legend does not name exactly the identical curve")
	}
	if strings.Contains(p.Title.Text, "differ by at most") {
		t.Fatalf("title %q: gp and tiresias differ", p.Title.Text)
	}
	if len(f.Tips) != 9 {
		t.Fatalf("%d tooltips, want 3 per curve", len(f.Tips))
	}
	f, _ = JCTCDFPlot(plotJobs())
	if svg, _ := f.Render("svg"); strings.Contains(string(svg), "identical") {
		t.Fatal("distinct curves reported as identical")
	}
	// Completion times over three decades: log axis, limits rounded out.
	wide := []JobRow{
		{Instance: "i", Scheduler: "a", Job: 0, GPUs: 1, Duration: 36, Finish: 36},
		{Instance: "i", Scheduler: "a", Job: 1, GPUs: 1, Duration: 36000, Finish: 36000},
		{Instance: "i", Scheduler: "b", Job: 0, GPUs: 1, Duration: 36, Finish: 36},
		{Instance: "i", Scheduler: "b", Job: 1, GPUs: 1, Duration: 36000, Start: 360, Finish: 36360, Queue: 360},
	}
	f, err = JCTCDFPlot(wide)
	if err != nil {
		t.Fatal(err)
	}
	p = f.Panels[0][0]
	if !near(p.X.Min, -2, 1e-12) || !near(p.X.Max, math.Log10(20), 1e-12) || !strings.Contains(p.X.Label.Text, "log scale") {
		t.Fatalf("log x %v..%v %q", p.X.Min, p.X.Max, p.X.Label.Text)
	}
	// a and b differ only above the median (10 h vs 10.1 h): F differs by
	// 1/2 just below 10.1 h, so the title does not call them close.
	if strings.Contains(p.Title.Text, "differ by at most") {
		t.Fatalf("title %q", p.Title.Text)
	}
	if d := ksDistance([]float64{1, 2, 3, 4}, []float64{1, 2, 3, 5}); d != 0.25 {
		t.Fatalf("ksDistance = %v, want 0.25", d)
	}
	many := plotJobs()
	for _, j := range plotJobs() {
		if j.Scheduler == "gp" {
			j.Scheduler = "gp-near"
			if j.Job == 29 {
				j.Finish++ // one of 30 jobs one second later: F differs by 1/30
			}
			many = append(many, j)
		}
	}
	var gpOnly []JobRow
	for _, j := range many {
		if j.Scheduler != "tiresias" {
			gpOnly = append(gpOnly, j)
		}
	}
	f, _ = JCTCDFPlot(gpOnly)
	if want := "Job completion time CDF: the curves differ by at most"; strings.HasPrefix(f.Panels[0][0].Title.Text, want) {
		t.Fatalf("title %q: 1/30 > 2 %% is not nearly identical", f.Panels[0][0].Title.Text)
	}
	bad := plotJobs()
	bad[0].Finish = bad[0].Arrival
	if _, err := JCTCDFPlot(bad); err == nil {
		t.Fatal("zero completion time accepted")
	}
}

// Curves within 2 % of jobs of each other everywhere are said to be so.
func TestJCTCDFNearlyIdentical(t *testing.T) {
	var jobs []JobRow
	for s, name := range []string{"a", "b"} {
		for i := range 100 {
			d := int64(3600 + 60*i)
			if s == 1 && i == 99 {
				d += 30 // one job of 100 half a minute later
			}
			jobs = append(jobs, JobRow{Instance: "i", Scheduler: name, Job: int64(i), GPUs: 1, Duration: d, Finish: d})
		}
	}
	f, err := JCTCDFPlot(jobs)
	if err != nil {
		t.Fatal(err)
	}
	if got := f.Panels[0][0].Title.Text; got != "Job completion time CDF: the curves differ by at most 1 % of jobs" {
		t.Fatalf("title %q", got)
	}
}

// When nobody queued, the axes still show the first hour and a positive
// density range.
func TestQueueDensityNobodyQueued(t *testing.T) {
	jobs := []JobRow{
		{Instance: "i", Scheduler: "a", Job: 0, Priority: 1, GPUs: 1, Duration: 5, Finish: 5},
		{Instance: "i", Scheduler: "a", Job: 1, Priority: 2, GPUs: 1, Arrival: 3, Duration: 5, Start: 3, Finish: 8},
	}
	f, err := QueueDensityPlot(jobs, "i")
	if err != nil {
		t.Fatal(err)
	}
	p := f.Panels[0][0]
	if p.X.Min != 0 || p.X.Max != 1 || !(p.Y.Max > 0) || p.Y.Label.Text != "density of the waits q > 0 (1/h)" {
		t.Fatalf("x %v..%v, y max %v, y label %q", p.X.Min, p.X.Max, p.Y.Max, p.Y.Label.Text)
	}
}

// Under the single-cluster objective (Eq. 16) the breakdown draws AvgJCT
// and MaxQT, not cq_avg and cq_max, with labels a reader understands.
func TestBreakdownFollowsObjective(t *testing.T) {
	rows := statsTable()
	for i := range rows {
		rows[i].AvgJCT, rows[i].MaxQT = float64(i+1), float64(2*i+3)
	}
	f, err := BreakdownPlotFor(rows, "", "single")
	if err != nil {
		t.Fatal(err)
	}
	var titles []string
	for _, row := range f.Panels {
		for _, p := range row {
			titles = append(titles, strings.SplitN(p.Title.Text, ",", 2)[0]+"|"+p.Y.Label.Text)
		}
	}
	want := "AvgJCT|mean job completion time (h) MaxQT|longest queueing time (h) objective|ω·AvgJCT + (1−ω)·MaxQT (h)"
	if strings.Join(titles, " ") != want {
		t.Fatalf("panels %q", titles)
	}
	if len(f.Panels) != 1 {
		t.Fatalf("three panels in %d rows, want one row", len(f.Panels))
	}
}

// No figure has an empty panel slot: every row of the grid is full, and
// every panel draws something.
func TestNoEmptyPanel(t *testing.T) {
	for _, f := range pinnedFigures(t) {
		cols := 0
		for _, row := range f.Panels {
			cols = max(cols, len(row))
		}
		for i, row := range f.Panels {
			if len(row) != cols {
				t.Errorf("%s: row %d has %d of %d panels (a blank slot)", f.Name, i, len(row), cols)
			}
			for j, p := range row {
				if p == nil || !(p.X.Min <= p.X.Max && p.Y.Min <= p.Y.Max) {
					t.Errorf("%s: panel %d,%d is empty", f.Name, i, j)
				}
			}
		}
	}
	for n := 1; n <= 8; n++ {
		c := breakdownColumns(n)
		if n%c != 0 {
			t.Errorf("breakdownColumns(%d) = %d leaves a blank slot", n, c)
		}
	}
}

// One scheduler label has one colour across the figures of a directory,
// whatever order or subset of schedulers a figure draws: the per-instance
// breakdown (where "srsf" appears first), the mean breakdown and the JCT
// CDF of jobs listed in another order.
func TestOneColourPerLabelAcrossFigures(t *testing.T) {
	rows := statsTable()
	slices.Reverse(rows)
	// The jobs table of a directory has the results' schedulers.
	same := plotJobs()
	spark := same[0]
	spark.Scheduler = "spark"
	same = append(same, spark)
	jobs := slices.Clone(same)
	slices.Reverse(jobs)
	var figs []*Figure
	for _, mk := range []func() (*Figure, error){
		func() (*Figure, error) { return BreakdownPlot(statsTable(), "") },
		func() (*Figure, error) { return BreakdownPlot(rows, "c") },
		func() (*Figure, error) { return JCTCDFPlot(same) },
		func() (*Figure, error) { return JCTCDFPlot(jobs) },
	} {
		f, err := mk()
		if err != nil {
			t.Fatal(err)
		}
		figs = append(figs, f)
	}
	seen := map[string]string{}
	for _, f := range figs {
		if len(f.LabelColors) == 0 {
			t.Fatalf("%s records no label colours", f.Name)
		}
		for label, c := range f.LabelColors {
			got := fmt.Sprint(c)
			if was, ok := seen[label]; ok && was != got {
				t.Errorf("%s: %s is %s here, %s elsewhere", f.Name, label, got, was)
			}
			seen[label] = got
		}
	}
	// Different labels differ within a figure.
	for _, f := range figs {
		byColour := map[string]string{}
		for label, c := range f.LabelColors {
			if o, ok := byColour[fmt.Sprint(c)]; ok {
				t.Errorf("%s: %s and %s share a colour", f.Name, label, o)
			}
			byColour[fmt.Sprint(c)] = label
		}
	}
}

// A large class in a sparse queue-density figure gets a bounded number of
// tooltips (the SVG stays small), the last wait among them.
func TestQueueDensityTipsBounded(t *testing.T) {
	jobs := []JobRow{{Instance: "i", Scheduler: "a", Job: 0, Priority: 1, GPUs: 1, Arrival: 0, Duration: 5, Start: 60, Finish: 65, Queue: 60}}
	for i := 1; i <= 500; i++ {
		q := int64(60 * i)
		jobs = append(jobs, JobRow{Instance: "i", Scheduler: "a", Job: int64(i), Priority: 2, GPUs: 1, Arrival: 0, Duration: 5, Start: q, Finish: q + 5, Queue: q})
	}
	f, err := QueueDensityPlot(jobs, "i")
	if err != nil {
		t.Fatal(err)
	}
	if f.Panels[0][0].Y.Label.Text != "fraction of the waits q > 0 that are ≤ x" {
		t.Fatalf("not the sparse figure: %q", f.Panels[0][0].Y.Label.Text)
	}
	n, last := 0, false
	for _, tip := range f.Tips {
		if strings.HasPrefix(tip.Text, "a, u = 2:") {
			n++
			last = last || strings.Contains(tip.Text, "(500 of 500 waits")
		}
	}
	if n > 2*maxWaitTips || n < maxWaitTips/2 || !last {
		t.Fatalf("%d tooltips for 500 waits (last shown: %v)", n, last)
	}
}

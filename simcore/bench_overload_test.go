package simcore_test

import (
	"context"
	"fmt"
	"os"
	"syscall"
	"testing"

	"github.com/evogp/evogp/datasets"
	"github.com/evogp/evogp/simcore"
)

// overloadInstance is a generated instance with every cluster at offered
// load 1.5 (λ_p = 1.5·λ_max): 10 clusters × 50 nodes × 8 GPUs and
// jobsPerNode jobs per node (10 → 5,000 jobs, 40 → 20,000), Table II mix.
func overloadInstance(b testing.TB, jobsPerNode float64) *simcore.Instance {
	s := datasets.PaperSettings()
	s.Clusters = [2]int{10, 10}
	s.Nodes = [2]int{50, 50}
	s.JobsPerNode = jobsPerNode
	s.LoadMin, s.LoadMax = 1.5, 1.5
	inst, err := datasets.GenerateInstance(s, 42, 0)
	if err != nil {
		b.Fatal(err)
	}
	return &inst
}

// dMinusQQ is the learned-formula stand-in of the overload benchmarks,
// f = d − q·q: its order changes with the queueing time q.
func dMinusQQ() simcore.Ranking {
	return simcore.RankingFunc(func(j simcore.JobView) float64 {
		q := float64(j.Queued)
		return float64(j.Duration) - q*q
	})
}

// overloadSchedulers are the three rankings of the overload benchmarks,
// each under MCT allocation and best-fit placement.
func overloadSchedulers(tb testing.TB) []simcore.Scheduler {
	tiresias, err := simcore.ParseScheduler("tiresias", nil)
	if err != nil {
		tb.Fatal(err)
	}
	liquid, err := simcore.ParseScheduler("liquid", nil)
	if err != nil {
		tb.Fatal(err)
	}
	formula := simcore.NewListScheduler("d-q*q", simcore.MCT{}, dMinusQQ(), simcore.BestFit{})
	return []simcore.Scheduler{tiresias, liquid, formula}
}

// BenchmarkOverload: go test ./simcore -run '^$' -bench Overload -benchtime 1x -count 5
//
// EVOGP_OVERLOAD_80K=1 adds 80,000 jobs (160 per node) for tiresias and
// liquid, to measure the growth exponent over a wider range (d − q·q is
// left out there: its per-operation cost grows with the queue).
func BenchmarkOverload(b *testing.B) {
	sizes := []float64{10, 40}
	if os.Getenv("EVOGP_OVERLOAD_80K") != "" {
		sizes = append(sizes, 160)
	}
	for _, jpn := range sizes {
		inst := overloadInstance(b, jpn)
		for _, sched := range overloadSchedulers(b) {
			if jpn > 40 && sched.Name() == "d-q*q" {
				continue
			}
			b.Run(fmt.Sprintf("%s/jobs=%d", sched.Name(), len(inst.Jobs)), func(b *testing.B) {
				benchCPU(b, func() {
					if _, err := simcore.Simulate(context.Background(), inst, sched, simcore.Options{}); err != nil {
						b.Fatal(err)
					}
				})
			})
		}
	}
}

// BenchmarkOverloadPlanChanges reports, per operation, how the splice
// path rebuilt the plans of the 5,000-job overload benchmarks (TestHooks
// Stats): jobs kept, placed afresh, and placed afresh with a decision that
// differs from the old plan's (running and queued jobs), and the splice
// runs whose first change was a running job's (a migration). Its time
// includes the counting; use BenchmarkOverload for cost.
//
//	go test ./simcore -run '^$' -bench OverloadPlanChanges -benchtime 1x
func BenchmarkOverloadPlanChanges(b *testing.B) {
	inst := overloadInstance(b, 10)
	for _, sched := range overloadSchedulers(b) {
		b.Run(sched.Name(), func(b *testing.B) {
			var st simcore.PlanStats
			res := simcore.Result{}
			for b.Loop() {
				st = simcore.PlanStats{}
				var err error
				if res, err = simcore.SimulateHooked(context.Background(), inst, sched, simcore.Options{}, simcore.TestHooks{Stats: &st}); err != nil {
					b.Fatal(err)
				}
			}
			ops := float64(res.Operations)
			b.ReportMetric(float64(st.Kept)/ops, "kept/op")
			b.ReportMetric(float64(st.Placed)/ops, "placed/op")
			b.ReportMetric(float64(st.ChangedRunning)/ops, "changed-running/op")
			b.ReportMetric(float64(st.ChangedQueued)/ops, "changed-queued/op")
			b.ReportMetric(float64(st.FirstRunning)/ops, "first-by-running/op")
			b.ReportMetric(float64(st.FirstQueued)/ops, "first-by-queued/op")
		})
	}
}

// BenchmarkConservative compares conservative backfilling on per-node
// timelines with the reference rescan (which is today's path: under
// conservative backfilling plans are rebuilt at every operation anyway),
// on the 5,000-job paper-style instance.
//
//	go test ./simcore -run '^$' -bench Conservative -benchtime 1x -count 5
func BenchmarkConservative(b *testing.B) {
	inst := benchInstance(b)
	sched, err := simcore.ParseScheduler("tiresias", nil)
	if err != nil {
		b.Fatal(err)
	}
	opts := simcore.Options{Backfill: simcore.BackfillConservative}
	for _, c := range []struct {
		name  string
		hooks simcore.TestHooks
	}{{"timeline", simcore.TestHooks{}}, {"rescan", simcore.TestHooks{AlwaysReplan: true}}} {
		b.Run(c.name, func(b *testing.B) {
			benchCPU(b, func() {
				if _, err := simcore.SimulateHooked(context.Background(), inst, sched, opts, c.hooks); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}

// BenchmarkPhillyWindow simulates the Philly window dataset named by
// $EVOGP_PHILLY_WINDOW (made by `evogp data import philly --instance-span
// 1464h`; skipped when unset) under tiresias in the reservation modes,
// under d − q·q, and under the Helios-style strict FIFO and preemptive
// SRTF (user allocator).
func BenchmarkPhillyWindow(b *testing.B) {
	dir := os.Getenv("EVOGP_PHILLY_WINDOW")
	if dir == "" {
		b.Skip("EVOGP_PHILLY_WINDOW not set")
	}
	ds, err := datasets.Read(dir)
	if err != nil {
		b.Fatal(err)
	}
	inst := &ds.Instances[0]
	tiresias, err := simcore.ParseScheduler("tiresias", nil)
	if err != nil {
		b.Fatal(err)
	}
	formula := simcore.NewListScheduler("d-q*q", simcore.MCT{}, dMinusQQ(), simcore.BestFit{})
	fifo, err := simcore.ParseScheduler("user+fifo+bestfit", nil)
	if err != nil {
		b.Fatal(err)
	}
	srtf, err := simcore.ParseScheduler("user+srtf+bestfit", nil)
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		sched simcore.Scheduler
		bf    simcore.Backfill
	}{
		{"tiresias/none", tiresias, simcore.BackfillNone},
		{"tiresias/conservative", tiresias, simcore.BackfillConservative},
		{"tiresias/greedy", tiresias, simcore.BackfillGreedy},
		{"d-q*q/none", formula, simcore.BackfillNone},
		{"fifo/strict", fifo, simcore.BackfillStrict},
		{"srtf/preemptive", srtf, simcore.BackfillPreemptive},
	} {
		b.Run(c.name, func(b *testing.B) {
			benchCPU(b, func() {
				if _, err := simcore.Simulate(context.Background(), inst, c.sched, simcore.Options{Backfill: c.bf}); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}

// benchCPU runs f per iteration and reports, besides wall time, the
// process CPU seconds per iteration (cpu-s/op): on a shared machine the
// CPU time is the steadier figure.
func benchCPU(b *testing.B, f func()) {
	b.ReportAllocs()
	cpu := func() float64 {
		var ru syscall.Rusage
		if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
			b.Fatal(err)
		}
		return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
	}
	start := cpu()
	n := 0
	for b.Loop() {
		f()
		n++
	}
	b.ReportMetric((cpu()-start)/float64(n), "cpu-s/op")
}

package rule_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"syscall"
	"testing"

	"github.com/evogp/evogp/datasets"
	"github.com/evogp/evogp/simcore"
	"github.com/evogp/evogp/simcore/rule"
)

// benchInstance is simcore/evo's BenchmarkEVOOperation instance: n jobs
// arriving together at t = 0 on 10 clusters × 20 nodes × 8 GPUs, so the one
// operation has |Js| = n (and every job is an arrival).
func benchInstance(n int) *simcore.Instance {
	rng := rand.New(rand.NewPCG(uint64(n), 1))
	inst := &simcore.Instance{Name: fmt.Sprint(n)}
	for range 10 {
		inst.Clusters = append(inst.Clusters, simcore.Cluster{Nodes: 20, GPUsPerNode: 8})
	}
	for id := range n {
		w := []int{1, 2, 4, 8}[rng.IntN(4)]
		r := []int{1, 1, 1, 2, 4}[rng.IntN(5)]
		inst.Jobs = append(inst.Jobs, simcore.Job{ID: int64(id), Cluster: rng.IntN(10), Duration: 60 + int64(rng.ExpFloat64()*7200),
			Workers: r, GPUs: r * w, Priority: 1 + rng.IntN(3)})
	}
	return inst
}

// BenchmarkRuleOperation is one operation of rule+srsf+bestfit at |Js| = n,
// the whole simulation of benchInstance (allocation and the clusters'
// plans), beside BenchmarkEVOOperation: scope all with a tree without m,
// scope arrivals (every job arrives at t) with m, MCT's what-if, and scope
// all with m (the what-if of the jobs assigned so far, incremental).
func BenchmarkRuleOperation(b *testing.B) {
	for _, c := range []struct{ name, routing, scope string }{
		{"all/W-o+x", "W - o + x", "all"},
		{"arrivals/m", "m", "arrivals"},
		{"all/m", "m", "all"},
	} {
		for _, n := range []int{50, 200, 1000, 5000} {
			b.Run(fmt.Sprintf("%s/Js=%d", c.name, n), func(b *testing.B) {
				inst := benchInstance(n)
				p, err := rule.ParseParams(c.routing, c.scope, false)
				if err != nil {
					b.Fatal(err)
				}
				sched, err := rule.NewScheduler("rule", p, simcore.SRSF{}, simcore.BestFit{})
				if err != nil {
					b.Fatal(err)
				}
				start := processCPU(b)
				k := 0
				for b.Loop() {
					if _, err := simcore.Simulate(context.Background(), inst, sched, simcore.Options{}); err != nil {
						b.Fatal(err)
					}
					k++
				}
				b.ReportMetric((processCPU(b)-start)/float64(k), "cpu-s/op")
			})
		}
	}
}

// processCPU is the process's user + system CPU time in seconds.
func processCPU(b *testing.B) float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

// BenchmarkQuickOps simulates quick-config-sized instances (2–8 clusters
// of 10–40 nodes, 10 jobs per node, the paper's job mix) at the default
// load and at load 0.5–1 — the held-out splits of issue 39 — under
// wait-first (R = m), a learned tree non-decreasing in m (3m + 2h) and
// one that is not (m + n % (g + 2m)), and n + n + g·m (a loaded split's learned
// tree, whose box bound is loose), all with wait ranking in scope all. The
// reported metric is CPU nanoseconds per scheduling operation
// (op-ns/op), the "time per operation".
func BenchmarkQuickOps(b *testing.B) {
	for _, load := range []struct {
		name     string
		min, max float64
	}{{"quick", 0, 0}, {"loaded", 0.5, 1}} {
		s := datasets.PaperSettings()
		s.Clusters, s.Nodes, s.JobsPerNode = [2]int{2, 8}, [2]int{10, 40}, 10
		if load.max > 0 {
			s.LoadMin, s.LoadMax = load.min, load.max
		}
		var insts []simcore.Instance
		for i := range 3 {
			inst, err := datasets.GenerateInstance(s, 7, i)
			if err != nil {
				b.Fatal(err)
			}
			insts = append(insts, inst)
		}
		for _, routing := range []string{"m", "m + (m + (h + (h + m)))", "m + n % (g + 2 * m)", "n + (n + g * m)"} {
			b.Run(fmt.Sprintf("%s/R=%s", load.name, routing), func(b *testing.B) {
				p, err := rule.ParseParams(routing, "all", false)
				if err != nil {
					b.Fatal(err)
				}
				sched, err := rule.NewScheduler("rule", p, simcore.WeightedWait{}, simcore.BestFit{})
				if err != nil {
					b.Fatal(err)
				}
				ops := 0
				opts := simcore.Options{OnOperation: func(int64, int, int) { ops++ }}
				start := processCPU(b)
				for b.Loop() {
					for i := range insts {
						if _, err := simcore.Simulate(context.Background(), &insts[i], sched, opts); err != nil {
							b.Fatal(err)
						}
					}
				}
				b.ReportMetric((processCPU(b)-start)*1e9/float64(max(1, ops)), "op-ns/op")
			})
		}
	}
}

package evo

import (
	"context"
	"fmt"
	"math/rand/v2"
	"syscall"
	"testing"

	"github.com/evogp/evogp/simcore"
)

// evoBenchInstance: n jobs (Table II-like demands) arriving together at
// t = 0 on 10 clusters × 20 nodes × 8 GPUs, so the one operation has
// |Js| = n.
func evoBenchInstance(n int) *simcore.Instance {
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

// BenchmarkEVOOperation is one EVO operation at |Js| = n with the paper's
// parameters (population 100, 200 generations), one worker; cpu-s/op is
// the process CPU time per operation (steadier on a shared machine).
func BenchmarkEVOOperation(b *testing.B) {
	for _, n := range []int{50, 200, 1000, 5000} {
		b.Run(fmt.Sprintf("Js=%d", n), func(b *testing.B) {
			inst := evoBenchInstance(n)
			p := DefaultParams()
			p.Init = "random" // the seeded shortcut would skip the search on an empty system
			sched := evoWith(p, simcore.SRSF{})
			var evals int
			evoBenchCPU(b, func() {
				res, err := simcore.Simulate(context.Background(), inst, sched, simcore.Options{RecordOps: true})
				if err != nil {
					b.Fatal(err)
				}
				evals = res.Ops[0].Evaluations
			})
			b.ReportMetric(float64(evals), "evals/op")
		})
	}
}

// evoBenchCPU runs f per iteration and reports the process CPU seconds per
// iteration (cpu-s/op, user + system time from getrusage).
func evoBenchCPU(b *testing.B, f func()) {
	start := processCPU(b)
	n := 0
	for b.Loop() {
		f()
		n++
	}
	b.ReportMetric((processCPU(b)-start)/float64(n), "cpu-s/op")
}

// processCPU is the process's user + system CPU time in seconds.
func processCPU(b *testing.B) float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

package hydra

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/evogp/evogp/simcore"
)

// batchInstance is a Hydra-like heavy batch: n single-GPU jobs at time 0 on
// 10/15/20 GPUs of three types (1-GPU nodes), durations of mean 1.5 h on
// the fastest type and 1–3× on the others, 30% of the jobs with a
// deadline at 2–8× their fastest duration.
func batchInstance(n int) simcore.Instance {
	r := rand.New(rand.NewPCG(uint64(n), 7))
	types := []string{"V100", "P100", "K80"}
	in := simcore.Instance{Name: fmt.Sprintf("batch-%d", n)}
	for p, nodes := range []int{10, 15, 20} {
		in.Clusters = append(in.Clusters, simcore.Cluster{Nodes: nodes, GPUsPerNode: 1, GPUType: types[p]})
	}
	for i := range n {
		base := 1 + int64(r.ExpFloat64()*5400)
		j := simcore.Job{ID: int64(i), Cluster: r.IntN(3), Duration: base, Workers: 1, GPUs: 1, Priority: 1,
			TypeDurations: map[string]int64{}}
		for k, t := range types {
			j.TypeDurations[t] = base + int64(float64(base)*float64(k)*r.Float64())
		}
		if r.Float64() < 0.3 {
			j.Deadline = int64(float64(base) * (2 + 6*r.Float64()))
		}
		in.Jobs = append(in.Jobs, j)
	}
	return in
}

// BenchmarkSimulateBatch is a whole simulation of one batch (operations at
// every completion) per scheduler.
func BenchmarkSimulateBatch(b *testing.B) {
	for _, n := range []int{100, 400} {
		in := batchInstance(n)
		for _, rule := range []string{"hydra", "hydra-swap", "edf", "sjf-fastest", "allox", "chronus"} {
			b.Run(fmt.Sprintf("jobs=%d/%s", n, rule), func(b *testing.B) {
				s := parse(b, rule, nil)
				for b.Loop() {
					if _, err := simcore.Simulate(context.Background(), &in, s, simcore.Options{}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

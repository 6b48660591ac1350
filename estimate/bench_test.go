package estimate

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/evogp/evogp/simcore"
)

// benchSeries is a 1000-iteration series with a 3-iteration cold start and
// 3% jitter.
func benchSeries(name string) *Series {
	rng := rand.New(rand.NewPCG(1, 1))
	ts := make([]float64, 1000)
	for i := range ts {
		ts[i] = 0.3 * (1 + 0.03*rng.NormFloat64())
		if i < 3 {
			ts[i] = 2 + float64(i)
		}
	}
	return &Series{Name: name, Times: ts, Unit: UnitSeconds}
}

func BenchmarkMethods(b *testing.B) {
	s := benchSeries("bench.csv")
	o := DefaultOptions()
	for _, m := range Methods() {
		b.Run(m, func(b *testing.B) {
			for b.Loop() {
				if _, err := Estimate(s, m, o); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkEvaluate58(b *testing.B) {
	series := make([]*Series, 58)
	files := make([]string, 58)
	for i := range series {
		files[i] = string(rune('a'+i%26)) + "/" + string(rune('a'+i/26)) + ".csv"
		series[i] = benchSeries(files[i])
	}
	for b.Loop() {
		if _, err := Evaluate(context.Background(), series, files, EvaluateOptions{Options: DefaultOptions()}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFillEstimates(b *testing.B) {
	in := &simcore.Instance{Name: "bench", Clusters: []simcore.Cluster{{Nodes: 4, GPUsPerNode: 8}}}
	for i := range 10000 {
		in.Jobs = append(in.Jobs, simcore.Job{ID: int64(i), Duration: int64(100 + i), Workers: 1, GPUs: 1, Priority: 1})
	}
	for b.Loop() {
		if _, err := FillEstimates(in, Lognormal{Sigma: 0.5}, 1, false); err != nil {
			b.Fatal(err)
		}
	}
}

package hydra

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
)

// benchProblem is one operation of a Hydra-like batch: 45 idle GPUs
// (15 per type) and n waiting jobs with durations of mean 1.5 h on the
// fastest type and 1–3× that on the others; 30% of the jobs have a
// deadline at U[1, 4] × their fastest duration.
func benchProblem(n int) *Problem {
	r := rand.New(rand.NewPCG(uint64(n), 99))
	p := &Problem{Types: 3}
	for k := range 45 {
		p.GPUs = append(p.GPUs, GPU{Type: k / 15})
	}
	for i := range n {
		base := 1 + int64(r.ExpFloat64()*5400)
		j := Job{ID: int64(i), Dur: make([]int64, 3), Due: NoDue}
		for t := range j.Dur {
			j.Dur[t] = base + int64(float64(base)*2*r.Float64())
		}
		j.Dur[r.IntN(3)] = base
		if r.Float64() < 0.3 {
			j.Due = int64(float64(base) * (1 + 3*r.Float64()))
		}
		p.Jobs = append(p.Jobs, j)
	}
	return p
}

// BenchmarkSearch is one Hydra scheduling operation (the multi-round
// search) against the number of waiting jobs and the budget.
func BenchmarkSearch(b *testing.B) {
	for _, n := range []int{10, 50, 200, 400} {
		p := benchProblem(n)
		for _, budget := range []int{0, 100, DefaultBudget, 10000} {
			b.Run(fmt.Sprintf("jobs=%d/budget=%d", n, budget), func(b *testing.B) {
				var st SearchStats
				for b.Loop() {
					var err error
					_, st, err = Search(context.Background(), p, SearchOptions{Options: Options{Budget: budget}})
					if err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(st.Orders), "orders/op")
				b.ReportMetric(float64(st.BB), "bb/op")
				b.ReportMetric(float64(st.Exhausted), "exhausted/op")
				b.ReportMetric(float64(st.Expanded), "nodes/op")
			})
		}
	}
}

// BenchmarkMinCost is one order search of 12 jobs, most with deadlines.
func BenchmarkMinCost(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	items := randomItems(r, 12, 0.7)
	var s Solver
	for _, budget := range []int{100, DefaultBudget, 10000} {
		b.Run(fmt.Sprintf("budget=%d", budget), func(b *testing.B) {
			for b.Loop() {
				s.MinCost(items, 0, Options{Budget: budget})
			}
		})
	}
}

func BenchmarkAlloX(b *testing.B) {
	for _, n := range []int{50, 400} {
		p := benchProblem(n)
		b.Run(fmt.Sprintf("jobs=%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := AlloX(context.Background(), p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

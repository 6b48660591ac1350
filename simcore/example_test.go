package simcore_test

import (
	"context"
	"fmt"

	"github.com/evogp/evogp/simcore"
	"github.com/evogp/evogp/simcore/evo"
)

// Two 4-GPU jobs on one 4-GPU node: FIFO runs job 1 first, job 2 waits
// 100 s, so C_q,avg = (0 + 100 s)/2 and C_q,max = 100 s (in hours).
func ExampleSimulate() {
	inst := &simcore.Instance{
		Name:     "hand",
		Clusters: []simcore.Cluster{{Nodes: 1, GPUsPerNode: 4}},
		Jobs: []simcore.Job{
			{ID: 1, Arrival: 0, Duration: 100, Workers: 1, GPUs: 4, Priority: 1},
			{ID: 2, Arrival: 0, Duration: 50, Workers: 1, GPUs: 4, Priority: 1},
		},
	}
	sched, err := simcore.ParseScheduler("user+fifo+bestfit", nil)
	if err != nil {
		panic(err)
	}
	res, err := simcore.Simulate(context.Background(), inst, sched, simcore.Options{})
	if err != nil {
		panic(err)
	}
	for _, j := range res.Jobs {
		fmt.Printf("job %d: start %d, finish %d, queued %d s\n", j.ID, j.Start, j.Finish, j.Queue)
	}
	fmt.Printf("cq_max %.4f h\n", res.Metrics.CQMax)
	// Output:
	// job 1: start 0, finish 100, queued 0 s
	// job 2: start 100, finish 150, queued 100 s
	// cq_max 0.0278 h
}

// A registry builds schedulers by name: the named baselines, any
// ALLOCATOR+RANKING+PLACER, rankings given by the caller (a learned
// formula is registered as "formula"), and policies with typed parameter
// sections such as EVO's.
func ExampleRegistry() {
	reg := simcore.NewRegistry()
	evo.Register(reg) // policies outside simcore register themselves
	fmt.Println(reg.Baselines())

	// A ranking of one's own: the largest GPU demand first.
	reg.Ranking("widest", func(simcore.Params) (simcore.Ranking, error) {
		return simcore.RankingFunc(func(j simcore.JobView) float64 { return -float64(j.GPUs) }), nil
	})
	s, err := reg.Parse("mct+widest+bestfit", simcore.Params{})
	fmt.Println(s.Name(), err)

	ep := evo.DefaultParams()
	ep.Population, ep.Generations = 20, 10
	s, err = reg.Parse("evo-srsf", simcore.Params{Sections: map[string]any{"evo": ep}})
	fmt.Println(s.Name(), err)

	ep.Population = 1
	_, err = reg.Parse("evo-srsf", simcore.Params{Sections: map[string]any{"evo": ep}})
	fmt.Println(err)
	// Output:
	// [spark liquid tiresias lyra]
	// mct+widest+bestfit <nil>
	// evo-srsf <nil>
	// scheduler "evo-srsf": allocator "evo": evo.population = 1: must be ≥ 2
}

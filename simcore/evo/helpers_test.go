package evo

import (
	"math/rand/v2"

	"github.com/evogp/evogp/simcore"
)

// randomInstance draws a small, contended multi-cluster instance: few
// nodes, multi-worker jobs, bursts of simultaneous arrivals, mixed node
// sizes (the generator of simcore's invariant suites, which lives in
// simcore's internal tests).
func randomInstance(rng *rand.Rand, name string) *simcore.Instance {
	inst := &simcore.Instance{Name: name}
	for range 1 + rng.IntN(3) {
		inst.Clusters = append(inst.Clusters, simcore.Cluster{Nodes: 1 + rng.IntN(4), GPUsPerNode: []int{2, 4, 8}[rng.IntN(3)]})
	}
	t := int64(0)
	for id := range 5 + rng.IntN(30) {
		if rng.IntN(3) > 0 {
			t += int64(rng.IntN(50))
		}
		for {
			w := []int{1, 1, 2, 4, 8}[rng.IntN(5)]
			r := 1 + rng.IntN(4)
			j := simcore.Job{ID: int64(100 + id), Arrival: t, Cluster: rng.IntN(len(inst.Clusters)), Duration: 1 + int64(rng.IntN(200)),
				Workers: r, GPUs: r * w, Priority: 1 + rng.IntN(3)}
			if j.FitsOn(inst.Clusters[j.Cluster]) {
				inst.Jobs = append(inst.Jobs, j)
				break
			}
		}
	}
	rng.Shuffle(len(inst.Jobs), func(a, b int) { inst.Jobs[a], inst.Jobs[b] = inst.Jobs[b], inst.Jobs[a] })
	return inst
}

// goldenModes are the trigger × backfill modes EVO supports.
func goldenModes() []simcore.Options {
	var out []simcore.Options
	for _, b := range []simcore.Backfill{simcore.BackfillNone, simcore.BackfillConservative, simcore.BackfillGreedy} {
		for _, tr := range []simcore.Trigger{simcore.TriggerArrival, simcore.TriggerArrivalCompletion} {
			out = append(out, simcore.Options{Trigger: tr, Backfill: b})
		}
	}
	return out
}

type allocFunc func(a *simcore.Allocation) error

func (f allocFunc) Allocate(a *simcore.Allocation) error { return f(a) }

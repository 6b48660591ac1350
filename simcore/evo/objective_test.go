package evo

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/evogp/evogp/simcore"
)

// EVO's per-cluster aggregate (clusterEval.add, merge and addTerms) is ObjectiveTerms to the bit, so EVO's fitness is
// Objective.AtT of the terms ObjectiveTerms.Add would give.
func TestClusterEvalIsObjectiveTerms(t *testing.T) {
	rng := rand.New(rand.NewPCG(163, 167))
	for range 200 {
		now := int64(rng.IntN(1000))
		var parts [2]clusterEval
		var want [2]simcore.ObjectiveTerms
		var level [2]clusterEval
		for p := range parts {
			parts[p].maxF, want[p].MaxF, level[p].maxF = now, now, now
			for range rng.IntN(20) {
				job := simcore.Job{Arrival: now - int64(rng.IntN(500)), GPUs: 1 + rng.IntN(16), Priority: 1 + rng.IntN(3)}
				if rng.IntN(2) == 0 {
					job.Deadline = job.Arrival + int64(rng.IntN(2000))
				}
				q, at, rem := int64(rng.IntN(3000)), now+int64(rng.IntN(2000)), 1+int64(rng.IntN(5000))
				parts[p].add(&job, q, at, rem)
				want[p].Add(&job, q, at, rem)
				lj := jobTerms{rem: rem, prio: float64(job.Priority), arrival: job.Arrival, deadline: job.Deadline, work: float64(job.GPUs) * float64(rem)}
				level[p].addTerms(&lj, q, at)
			}
			if parts[p].terms() != want[p] || level[p].terms() != want[p] {
				t.Fatalf("add: %+v / level %+v, want %+v", parts[p].terms(), level[p].terms(), want[p])
			}
		}
		parts[0].merge(parts[1])
		want[0].Merge(want[1])
		if parts[0].terms() != want[0] {
			t.Fatalf("merge: %+v, want %+v", parts[0].terms(), want[0])
		}
	}
}

// On a batch instance (every job arrives at t = 0, one operation) EVO's
// fitness at t of the assignment it chose is the final objective, under
// every kind; and on random
// instances no operation ends worse than MCT's assignment at t.
func TestEVOFitnessIsTheObjectiveAtT(t *testing.T) {
	rng := rand.New(rand.NewPCG(173, 179))
	p := DefaultParams()
	p.Population, p.Generations = 12, 8
	for _, kind := range simcore.ObjectiveKinds() {
		for i := range 12 {
			obj := randomObjective(rng, kind)
			inst := batchInstance(rng, fmt.Sprintf("%s-batch-%d", kind.Name(), i))
			withDeadlines(rng, inst)
			res, err := simcore.Simulate(context.Background(), inst, evoWith(p, simcore.SRSF{}), simcore.Options{Objective: obj, RecordOps: true})
			if err != nil {
				t.Fatal(err)
			}
			final := res.Metrics.Objective
			if len(res.Ops) != 1 || math.Abs(res.Ops[0].EVOFitness-final) > 1e-9*math.Max(1, math.Abs(final)) {
				t.Fatalf("%s: fitness at t %+v, final objective %v", inst.Name, res.Ops, final)
			}
			inst = randomInstance(rng, fmt.Sprintf("%s-random-%d", kind.Name(), i))
			withDeadlines(rng, inst)
			res, err = simcore.Simulate(context.Background(), inst, evoWith(p, simcore.FIFO{}), simcore.Options{Objective: obj, RecordOps: true})
			if err != nil {
				t.Fatal(err)
			}
			for _, o := range res.Ops {
				if o.EVOFitness > o.MCTFitness+1e-12 || math.IsNaN(o.EVOFitness) {
					t.Fatalf("%s t=%d: evo %v worse than mct %v", inst.Name, o.Time, o.EVOFitness, o.MCTFitness)
				}
			}
		}
	}
}

func randomObjective(rng *rand.Rand, k simcore.ObjectiveKind) simcore.Objective {
	return simcore.Objective{Kind: k, Weights: [3]float64{rng.Float64() * 2, rng.Float64() * 2, rng.Float64() * 2}, Omega: rng.Float64()}
}

// withDeadlines gives about half the jobs a deadline shortly after their
// earliest possible finish.
func withDeadlines(rng *rand.Rand, inst *simcore.Instance) {
	for k := range inst.Jobs {
		if rng.IntN(2) == 0 {
			inst.Jobs[k].Deadline = inst.Jobs[k].Arrival + inst.Jobs[k].Duration + int64(rng.IntN(300))
		}
	}
}

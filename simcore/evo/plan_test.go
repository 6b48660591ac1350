package evo

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/evogp/evogp/simcore"
)

// levelDiff is an allocator that, at every operation, plans random member
// sets of every cluster with EVO on the level planner and with EVO on the
// list scheduler's what-if planner (the reference) and fails on any
// difference in the fitness contribution (compared bit for bit) or a
// start, then allocates as MCT. Pure MCT and the all-start-now test of the
// seeded initialisation are compared too.
type levelDiff struct {
	t      *testing.T
	rng    *rand.Rand
	sets   int // member sets tried per cluster and operation
	checks *int
}

func (d levelDiff) Allocate(a *simcore.Allocation) error {
	if err := (simcore.MCT{}).Allocate(a); err != nil {
		return err
	}
	js := a.Schedulable()
	if len(js) == 0 {
		return nil
	}
	name := a.Instance().Name
	op := newEVOOp(a, DefaultParams(), js)
	ref := newOp(a, DefaultParams(), js, a.ReferenceWhatIfs)
	if !op.workers[0][0].Level() || ref.workers[0][0].Level() {
		d.t.Fatalf("%s: level planner not used (backfill %v)", name, a.Options().Backfill)
	}
	for p, order := range op.rankOrder {
		var sets [][]int32
		for range d.sets {
			var ranks []int32
			keep := d.rng.Float64()
			for r := range order {
				if d.rng.Float64() < keep {
					ranks = append(ranks, int32(r))
				}
			}
			sets = append(sets, ranks)
			// A neighbour sharing a prefix, to exercise the undo.
			if len(ranks) > 1 {
				cut := d.rng.IntN(len(ranks))
				nb := slices.Clone(ranks[:cut])
				for r := int(ranks[cut]) + 1; r < len(order); r++ {
					if d.rng.IntN(2) == 0 {
						nb = append(nb, int32(r))
					}
				}
				sets = append(sets, nb)
			}
		}
		if d.rng.IntN(2) == 0 {
			slices.SortFunc(sets, slices.Compare)
		}
		for _, ranks := range sets {
			got, err := op.plan(0, p, ranks)
			if err != nil {
				return err
			}
			// The reference: every member's terms summed afresh with
			// clusterEval.add, as the list what-if path always did.
			if _, err := ref.plan(0, p, ranks); err != nil {
				return err
			}
			st := a.State()
			want := clusterEval{maxF: a.Now()}
			for k, r := range ranks {
				j := op.js[order[r]]
				start := ref.workers[0][p].Starts()[k]
				want.add(&a.Instance().Jobs[j], st.Queued(j)+start-a.Now(), start, st.RemainingOn(j, p))
			}
			if got != want {
				d.t.Fatalf("%s t=%d cluster %d ranks %v: level planner %+v, what-if planner %+v", name, a.Now(), p, ranks, got, want)
			}
			if g, w := op.workers[0][p].Starts(), ref.workers[0][p].Starts(); !slices.Equal(g, w) {
				d.t.Fatalf("%s t=%d cluster %d: starts %v, what-if planner %v", name, a.Now(), p, g, w)
			}
			*d.checks++
		}
	}
	want, err := ref.pureMCT()
	if err != nil {
		return err
	}
	got, err := op.pureMCT()
	if err != nil {
		return err
	}
	if !slices.Equal(got, want) {
		d.t.Fatalf("%s t=%d: pure MCT on level planners %v, on what-if planners %v", name, a.Now(), got, want)
	}
	for _, genes := range [][]int32{got, d.randomGenes(op)} {
		if x, y := op.startsAllNow(genes), ref.startsAllNow(genes); x != y {
			d.t.Fatalf("%s t=%d: starts all now on level planners %v, on what-if planners %v", name, a.Now(), x, y)
		}
	}
	return nil
}

func (d levelDiff) randomGenes(op *evoOp) []int32 {
	g := make([]int32, len(op.js))
	for k, f := range op.feas {
		g[k] = int32(f[d.rng.IntN(len(f))])
	}
	return g
}

// EVO's fitness contributions on the level planner are the what-if
// planner's, bit for bit, for random member sets at every operation of
// random instances (fixed jobs, running jobs off their user cluster, typed
// GPUs, deadlines), with both placers and every ranking, in both modes the
// level planner serves.
func TestLevelPlannerMatchesWhatIf(t *testing.T) {
	rng := rand.New(rand.NewPCG(211, 223))
	checks := 0
	ranks := []simcore.Ranking{simcore.FIFO{}, simcore.SRSF{}, simcore.Lyra{}, simcore.SJF{}, simcore.SRTF{}}
	for i := range 150 {
		inst := randomInstance(rng, fmt.Sprintf("level-%d", i))
		if i%3 == 0 { // typed GPUs and deadlines
			for c := range inst.Clusters {
				inst.Clusters[c].GPUType = []string{"a", "b"}[c%2]
			}
			for k := range inst.Jobs {
				j := &inst.Jobs[k]
				j.TypeDurations = map[string]int64{"a": j.Duration, "b": 1 + j.Duration*int64(1+rng.IntN(3))/2}
				if rng.IntN(2) == 0 {
					j.Deadline = j.Arrival + j.Duration*int64(1+rng.IntN(4))
				}
			}
		}
		placers := []simcore.Placer{simcore.BestFit{}, simcore.RoundRobin{}}
		for _, b := range []simcore.Backfill{simcore.BackfillNone, simcore.BackfillGreedy} {
			for _, tr := range []simcore.Trigger{simcore.TriggerArrival, simcore.TriggerArrivalCompletion} {
				d := levelDiff{t: t, rng: rng, sets: 4, checks: &checks}
				sched := simcore.NewListScheduler("level-diff", d, ranks[i%len(ranks)], placers[i%2])
				if _, err := simcore.Simulate(context.Background(), inst, sched, simcore.Options{Backfill: b, Trigger: tr}); err != nil {
					t.Fatalf("%s: %v", inst.Name, err)
				}
			}
		}
	}
	if checks < 10000 {
		t.Fatalf("only %d member sets compared", checks)
	}
}

package simcore_test

import (
	"context"
	"math/rand/v2"
	"reflect"
	"sync/atomic"
	"testing"

	"github.com/evogp/evogp/simcore"
	"github.com/evogp/evogp/simcore/evo"
	"github.com/evogp/evogp/simcore/rule"
)

// countingWait is WeightedWait that counts its evaluations; it declares
// ClusterBlind as WeightedWait does.
type countingWait struct{ n *atomic.Int64 }

func (c countingWait) Priority(j simcore.JobView) float64 {
	c.n.Add(1)
	return simcore.WeightedWait{}.Priority(j)
}

func (countingWait) ClusterBlind() bool { return true }

// batchWait is WeightedWait evaluated in batches (simcore.KeyBatcher), as
// a compiled formula is; core says it reads only the core fields
// (simcore.CoreViews), so the engine fills only those. The list step's
// batch keys then seed the allocation seam's memo (seedKeyMemo).
type batchWait struct{ core bool }

func (batchWait) Priority(j simcore.JobView) float64 { return simcore.WeightedWait{}.Priority(j) }

func (batchWait) ClusterBlind() bool { return true }

func (b batchWait) CoreViews() bool { return b.core }

func (batchWait) KeyBatch() func(views []simcore.JobView, keys []float64) {
	return func(views []simcore.JobView, keys []float64) {
		for i := range views {
			keys[i] = simcore.WeightedWait{}.Priority(views[i])
		}
	}
}

// TestSharedRankKeysExact: evaluating the allocation seam's keys once per
// job and operation when they are the same on every cluster
// (clusterblind.go: keyMemo) gives exactly the results of evaluating them
// on every call, on random and overloaded instances, for the rule
// allocator in scope all (m and W; its decision order and m's what-if
// orders read the keys) and EVO (whose what-ifs read them), under both
// triggers. The memo is also seeded with the keys the list step computed
// (seedKeyMemo), one by one and in batches with core or full views. It also
// requires the memo to have saved evaluations and to have been seeded, so it
// cannot pass by never running.
func TestSharedRankKeysExact(t *testing.T) {
	insts := randomAndOverloaded(t, rand.New(rand.NewPCG(43, 9)), 30, [2]int{2, 6}, 25, 2.5, 5)
	var withMemo, without atomic.Int64
	var st simcore.PlanStats
	mk := func(n *atomic.Int64, routing string, ranking simcore.Ranking) simcore.Scheduler {
		p, err := rule.ParseParams(routing, "all", false)
		if err != nil {
			t.Fatal(err)
		}
		s, err := rule.NewScheduler("rule", p, ranking, simcore.BestFit{})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	ep := evo.DefaultParams()
	ep.Population, ep.Generations = 6, 3
	e, err := evo.New(ep)
	if err != nil {
		t.Fatal(err)
	}
	type pair struct{ memo, ref simcore.Scheduler }
	pairs := []pair{
		{mk(&withMemo, "m", countingWait{&withMemo}), mk(&without, "m", countingWait{&without})},
		{mk(nil, "m", simcore.SRSF{}), nil},
		{mk(nil, "W + x", simcore.FIFO{}), nil},
		{mk(nil, "m + h * m", batchWait{core: true}), nil},
		{mk(nil, "m", batchWait{}), nil},
		{simcore.NewListScheduler("evo", e, simcore.WeightedWait{}, simcore.BestFit{}), nil},
	}
	for _, inst := range insts {
		for _, pr := range pairs {
			ref := pr.ref
			if ref == nil {
				ref = pr.memo
			}
			if pr.memo.Name() == "evo" && len(inst.Jobs) > 40 {
				continue // EVO's what-ifs are slow; the small instances suffice
			}
			for _, tr := range []simcore.Trigger{simcore.TriggerArrival, simcore.TriggerArrivalCompletion} {
				opts := simcore.Options{Trigger: tr, RecordSegments: true}
				a, err := simcore.SimulateHooked(context.Background(), inst, pr.memo, opts, simcore.TestHooks{Stats: &st})
				if err != nil {
					t.Fatal(err)
				}
				b, err := simcore.SimulateHooked(context.Background(), inst, ref, opts, simcore.TestHooks{NoKeyMemo: true})
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(a, b) {
					t.Fatalf("%s %s %v: the memoised keys change the results", inst.Name, pr.memo.Name(), tr)
				}
			}
		}
	}
	if withMemo.Load() == 0 || withMemo.Load() >= without.Load() {
		t.Fatalf("keys evaluated %d times with the memo, %d without: the memo saved nothing", withMemo.Load(), without.Load())
	}
	if st.SeededKeys == 0 {
		t.Fatal("no list-step key seeded the memo (seedKeyMemo): the test does not exercise it")
	}
	t.Logf("keys evaluated %d times with the memo, %d without; keys seeded by the list step: %d", withMemo.Load(), without.Load(), st.SeededKeys)
}

package simcore_test

import (
	"context"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/evogp/evogp/simcore"
)

// Declaring a ranking time-invariant (keys computed once per job and
// cluster) must change nothing: the same ranking without the declaration
// gives identical results in every mode, on random and overloaded
// instances.
func TestTimeInvariantKeysExact(t *testing.T) {
	rankings := map[string]simcore.Ranking{"fifo": simcore.FIFO{}, "sjf": simcore.SJF{}, "lyra": simcore.Lyra{}, "srsf": simcore.SRSF{}, "srtf": simcore.SRTF{}}
	var modes []simcore.Options
	for _, b := range []simcore.Backfill{simcore.BackfillNone, simcore.BackfillConservative, simcore.BackfillGreedy, simcore.BackfillStrict, simcore.BackfillPreemptive} {
		for _, tr := range []simcore.Trigger{simcore.TriggerArrival, simcore.TriggerArrivalCompletion} {
			modes = append(modes, simcore.Options{Trigger: tr, Backfill: b, RecordSegments: true})
		}
	}
	modes = append(modes, simcore.Options{Backfill: simcore.BackfillPreemptive, PreemptOverhead: 9, RecordSegments: true})
	insts := randomAndOverloaded(t, rand.New(rand.NewPCG(5, 8)), 25, [2]int{2, 4}, 15, 2, 2)
	for name, r := range rankings {
		if _, ok := r.(simcore.TimeInvariant); !ok {
			t.Fatalf("%s does not declare TimeInvariant", name)
		}
		plain := simcore.RankingFunc(r.Priority)
		for _, alloc := range []simcore.Allocator{simcore.MCT{}, simcore.UserAllocator{}} {
			a := simcore.NewListScheduler(name, alloc, r, simcore.BestFit{})
			b := simcore.NewListScheduler(name, alloc, plain, simcore.BestFit{})
			for _, inst := range insts {
				for _, opts := range modes {
					ra, rb := simulateBoth(t, inst, a, b, opts)
					if !reflect.DeepEqual(ra, rb) {
						t.Fatalf("%s %s %+v: time-invariant keys changed the result", inst.Name, name, opts)
					}
				}
			}
		}
	}
}

// batchRanking is a q-dependent ranking (NaN for some jobs, cluster state
// when aware) that logs every view it evaluates, one by one or, when
// batched, through KeyBatch.
type batchRanking struct {
	aware   bool
	log     *[]simcore.JobView
	batched *int // views evaluated through KeyBatch
}

func (r batchRanking) Priority(j simcore.JobView) float64 {
	*r.log = append(*r.log, j)
	if j.ID%7 == 0 {
		var z float64
		return z / z
	}
	k := float64(j.Remaining) - float64(j.Queued*j.Queued)/40
	if r.aware {
		k += float64(j.FreeGPUs) - float64(j.QueueLen)
	}
	return k
}

func (r batchRanking) NeedsClusterState() bool { return r.aware }

// batched adds KeyBatch to a batchRanking.
type batched struct{ batchRanking }

func (r batched) KeyBatch() func([]simcore.JobView, []float64) {
	return func(views []simcore.JobView, keys []float64) {
		*r.batched += len(views)
		for i, v := range views {
			keys[i] = r.Priority(v)
		}
	}
}

// A KeyBatcher ranking must change nothing: the engine evaluates the same
// views in the same order and gets identical results, in every mode, for
// MCT and user allocation, with and without cluster state.
func TestKeyBatchExact(t *testing.T) {
	for _, aware := range []bool{false, true} {
		compareWithOneByOne(t, 6, 9, func(logA, logB *[]simcore.JobView, count *int) (simcore.Ranking, simcore.Ranking) {
			return batched{batchRanking{aware, logA, count}}, batchRanking{aware, logB, nil}
		})
	}
}

// compareWithOneByOne simulates random and overloaded instances in every
// mode under MCT and user allocation with the two rankings rankings gives
// (a batch one and a one-by-one one, each logging its views into the
// slice it is given) and requires identical results and logged views, and
// some views evaluated through a batch.
func compareWithOneByOne(t *testing.T, seed1, seed2 uint64, rankings func(logA, logB *[]simcore.JobView, count *int) (simcore.Ranking, simcore.Ranking)) {
	t.Helper()
	var modes []simcore.Options
	for _, b := range []simcore.Backfill{simcore.BackfillNone, simcore.BackfillConservative, simcore.BackfillGreedy, simcore.BackfillStrict, simcore.BackfillPreemptive} {
		for _, tr := range []simcore.Trigger{simcore.TriggerArrival, simcore.TriggerArrivalCompletion} {
			o := simcore.Options{Trigger: tr, Backfill: b, RecordSegments: true}
			if b == simcore.BackfillPreemptive {
				o.PreemptOverhead = 3
			}
			modes = append(modes, o)
		}
	}
	insts := randomAndOverloaded(t, rand.New(rand.NewPCG(seed1, seed2)), 25, [2]int{2, 4}, 15, 2, 2)
	batchedViews := 0
	for _, alloc := range []simcore.Allocator{simcore.MCT{}, simcore.UserAllocator{}} {
		for _, inst := range insts {
			for _, opts := range modes {
				var logA, logB []simcore.JobView
				ra1, rb1 := rankings(&logA, &logB, &batchedViews)
				a := simcore.NewListScheduler("batched", alloc, ra1, simcore.BestFit{})
				b := simcore.NewListScheduler("one by one", alloc, rb1, simcore.BestFit{})
				ra, rb := simulateBoth(t, inst, a, b, opts)
				ra.Scheduler, rb.Scheduler = "", ""
				if !reflect.DeepEqual(ra, rb) {
					t.Fatalf("%s %+v: batch keys changed the result", inst.Name, opts)
				}
				if !reflect.DeepEqual(logA, logB) {
					t.Fatalf("%s %+v: batch keys evaluated other views (%d against %d)", inst.Name, opts, len(logA), len(logB))
				}
			}
		}
	}
	if batchedViews == 0 {
		t.Fatal("no view was evaluated through KeyBatch")
	}
}

// coreRanking reads only the core fields of a view (simcore.CoreViews) and
// logs them.
type coreRanking struct {
	log     *[]simcore.JobView
	batched *int
}

func coreOf(j simcore.JobView) simcore.JobView {
	return simcore.JobView{Now: j.Now, Cluster: j.Cluster, Remaining: j.Remaining, Queued: j.Queued, Priority: j.Priority, GPUs: j.GPUs}
}

func (r coreRanking) Priority(j simcore.JobView) float64 {
	*r.log = append(*r.log, coreOf(j))
	if j.Remaining%7 == 0 {
		var z float64
		return z / z
	}
	return float64(j.Remaining)*float64(j.Priority) - float64(j.Queued*j.Queued)/40 + float64(j.GPUs)
}

type coreBatched struct{ coreRanking }

func (r coreBatched) CoreViews() bool { return true }

func (r coreBatched) KeyBatch() func([]simcore.JobView, []float64) {
	return func(views []simcore.JobView, keys []float64) {
		*r.batched += len(views)
		for i, v := range views {
			keys[i] = r.Priority(v)
		}
	}
}

// A ranking that declares CoreViews gets, in its batches, the core fields
// of exactly the views it would get one by one, and the same results.
func TestCoreViewsExact(t *testing.T) {
	compareWithOneByOne(t, 16, 19, func(logA, logB *[]simcore.JobView, count *int) (simcore.Ranking, simcore.Ranking) {
		return coreBatched{coreRanking{logA, count}}, coreRanking{logB, nil}
	})
}

// simulateBoth simulates inst under a and under b with opts.
func simulateBoth(t *testing.T, inst *simcore.Instance, a, b simcore.Scheduler, opts simcore.Options) (simcore.Result, simcore.Result) {
	t.Helper()
	ra, err := simcore.Simulate(context.Background(), inst, a, opts)
	if err != nil {
		t.Fatal(err)
	}
	rb, err := simcore.Simulate(context.Background(), inst, b, opts)
	if err != nil {
		t.Fatal(err)
	}
	return ra, rb
}

package simcore

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// TestNumpyQuicksortArgsortHandTraced: 17 equal keys are one partition
// step (hi − lo = 16 > 15) around the middle element, traced by hand:
// after the median-of-3 (no swaps among equals) the pivot (index 8) is
// parked at position 15; the scans stop at every element, swapping
// positions (1,14) (2,13) … (7,8); the pivot returns to position 8; the
// two sides (0..7 and 9..16) are then insertion-sorted, which moves
// nothing. Up to 16 keys are insertion-sorted only (stable).
func TestNumpyQuicksortArgsortHandTraced(t *testing.T) {
	keys := make([]int64, 17)
	want := []int{0, 14, 13, 12, 11, 10, 9, 15, 8, 6, 5, 4, 3, 2, 1, 7, 16}
	if got := NumpyQuicksortArgsort(keys); !reflect.DeepEqual(got, want) {
		t.Fatalf("17 equal keys: got %v, want %v", got, want)
	}
	small := []int64{3, 1, 3, 1, 2, 2, 3, 1, 0, 0, 5, 5, 5, 4, 4, 4}
	got := NumpyQuicksortArgsort(small)
	stable := make([]int, len(small))
	for i := range stable {
		stable[i] = i
	}
	slices.SortStableFunc(stable, func(a, b int) int { return int(small[a] - small[b]) })
	if !reflect.DeepEqual(got, stable) {
		t.Fatalf("16 keys: got %v, want the stable order %v", got, stable)
	}
}

// TestNumpyQuicksortArgsortSorts: on random keys (few distinct values,
// sorted, reversed, random) the result is a permutation that sorts the
// keys; the heapsort fallback alone sorts too.
func TestNumpyQuicksortArgsortSorts(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for trial := range 300 {
		n := rng.IntN(400)
		keys := make([]int64, n)
		for i := range keys {
			keys[i] = int64(rng.IntN(1 + trial%20))
		}
		switch trial % 3 {
		case 1:
			slices.Sort(keys)
		case 2:
			slices.Sort(keys)
			slices.Reverse(keys)
		}
		check := func(what string, perm []int) {
			seen := make([]bool, n)
			for i, k := range perm {
				if seen[k] {
					t.Fatalf("trial %d %s: index %d twice", trial, what, k)
				}
				seen[k] = true
				if i > 0 && keys[perm[i-1]] > keys[k] {
					t.Fatalf("trial %d %s: not sorted at %d", trial, what, i)
				}
			}
			if len(perm) != n {
				t.Fatalf("trial %d %s: %d of %d", trial, what, len(perm), n)
			}
		}
		check("introsort", NumpyQuicksortArgsort(keys))
		heap := make([]int, n)
		for i := range heap {
			heap[i] = i
		}
		numpyHeapsort(heap, func(a, b int) bool { return keys[a] < keys[b] })
		check("heapsort", heap)
	}
}

// tiedInstance is a random instance of 20–120 jobs, most of them sharing
// their arrival second with others, so that the introsort partitions.
func tiedInstance(rng *rand.Rand, name string) *Instance {
	inst := &Instance{Name: name}
	for range 1 + rng.IntN(3) {
		inst.Clusters = append(inst.Clusters, Cluster{Nodes: 1 + rng.IntN(3), GPUsPerNode: []int{4, 8}[rng.IntN(2)]})
	}
	t := int64(0)
	for id := range 20 + rng.IntN(100) {
		if rng.IntN(8) == 0 {
			t += int64(rng.IntN(300))
		}
		for {
			w := []int{1, 1, 2, 4, 8}[rng.IntN(5)]
			r := 1 + rng.IntN(2)
			j := Job{ID: int64(1000 + 7*id), Arrival: t, Cluster: rng.IntN(len(inst.Clusters)), Duration: 1 + int64(rng.IntN(400)),
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

// TestArrivalTiesNumpyMatchesRenumbering: the numpy-quicksort tie order
// gives exactly the schedule of the default (id) order on a copy of the
// instance whose ids are renumbered in the numpy order — the simple
// reference path — for the user-allocator list schedulers in every mode;
// the invariants hold for those and for MCT-based ones.
func TestArrivalTiesNumpyMatchesRenumbering(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 1))
	modes := []Options{{}, {Trigger: TriggerArrivalCompletion}, {Backfill: BackfillStrict}, {Backfill: BackfillGreedy},
		{Backfill: BackfillConservative}, {Backfill: BackfillPreemptive}}
	n := 40
	if testing.Short() {
		n = 10
	}
	permuted := 0
	// Under the user allocator the arrival position is the only tie
	// breaker, so renumbering is an exact reference; MCT's allocation
	// also meets ties by id elsewhere, so for it only the invariants are
	// checked.
	sameAsRenumbered := map[string]bool{"user+fifo+bestfit": true, "user+sjf+bestfit": true, "user+srtf+bestfit": true}
	for i := range n {
		inst := tiedInstance(rng, fmt.Sprintf("tied-%d", i))
		order := make([]int, len(inst.Jobs))
		for k := range order {
			order[k] = k
		}
		slices.SortFunc(order, func(a, b int) int {
			ja, jb := inst.Jobs[a], inst.Jobs[b]
			if ja.Arrival != jb.Arrival {
				return cmpInt64(ja.Arrival, jb.Arrival)
			}
			return cmpInt64(ja.ID, jb.ID)
		})
		keys := make([]int64, len(order))
		for k, j := range order {
			keys[k] = inst.Jobs[j].Arrival
		}
		ref := &Instance{Name: inst.Name, Clusters: inst.Clusters, Jobs: slices.Clone(inst.Jobs)}
		for rank, k := range NumpyQuicksortArgsort(keys) {
			ref.Jobs[order[k]].ID = int64(rank)
			if order[k] != order[rank] {
				permuted++
			}
		}
		for _, spec := range []string{"user+fifo+bestfit", "user+sjf+bestfit", "user+srtf+bestfit", "tiresias", "mct+sjf+roundrobin"} {
			for m, opts := range modes {
				if opts.Backfill == BackfillPreemptive && spec != "user+srtf+bestfit" {
					continue
				}
				opts.RecordSegments = true
				want, err := Simulate(context.Background(), ref, schedulerFor(t, spec), opts)
				if err != nil {
					t.Fatalf("%s %s mode %d reference: %v", inst.Name, spec, m, err)
				}
				opts.ArrivalTies = TiesNumpyQuicksort
				got, err := Simulate(context.Background(), inst, schedulerFor(t, spec), opts)
				if err != nil {
					t.Fatalf("%s %s mode %d: %v", inst.Name, spec, m, err)
				}
				if err := CheckInvariants(inst, got); err != nil {
					t.Fatalf("%s %s mode %d: %v", inst.Name, spec, m, err)
				}
				if !sameAsRenumbered[spec] {
					continue
				}
				for k := range got.Jobs {
					g, w := got.Jobs[k], want.Jobs[k]
					if g.Start != w.Start || g.Finish != w.Finish || g.Cluster != w.Cluster || g.Preemptions != w.Preemptions {
						t.Fatalf("%s %s mode %d job %d: got start %d finish %d cluster %d, renumbered reference %d %d %d",
							inst.Name, spec, m, g.ID, g.Start, g.Finish, g.Cluster, w.Start, w.Finish, w.Cluster)
					}
				}
			}
		}
	}
	if permuted == 0 {
		t.Fatal("no instance had its same-second jobs permuted: the test does not exercise the option")
	}
}

// TestArrivalTiesWithoutTiesChangeNothing: with distinct arrival times
// every order is the same, so the option leaves the result unchanged.
func TestArrivalTiesWithoutTiesChangeNothing(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 2))
	for i := range 20 {
		inst := tiedInstance(rng, fmt.Sprintf("distinct-%d", i))
		for k := range inst.Jobs {
			inst.Jobs[k].Arrival = int64(k) * 37 % 1009 * 3
		}
		for _, spec := range []string{"user+fifo+bestfit", "tiresias"} {
			a, err := Simulate(context.Background(), inst, schedulerFor(t, spec), Options{Backfill: BackfillStrict})
			if err != nil {
				t.Fatal(err)
			}
			b, err := Simulate(context.Background(), inst, schedulerFor(t, spec), Options{Backfill: BackfillStrict, ArrivalTies: TiesNumpyQuicksort})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(a, b) {
				t.Fatalf("%s %s: the tie order changed a result without ties", inst.Name, spec)
			}
		}
	}
}

func TestParseArrivalTies(t *testing.T) {
	for in, want := range map[string]ArrivalTies{"": TiesByID, "id": TiesByID, "numpy-quicksort": TiesNumpyQuicksort} {
		if got, err := ParseArrivalTies(in); err != nil || got != want {
			t.Fatalf("%q: got %q, %v", in, got, err)
		}
	}
	if _, err := ParseArrivalTies("quicksort"); err == nil {
		t.Fatal("an unknown tie order was accepted")
	}
}

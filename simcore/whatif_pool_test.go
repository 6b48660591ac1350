package simcore

import (
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// poolProbe is an allocator that re-decides every job of Js as a pure
// scope-all MCT on the seam's level planners (each job, in (arrival, id)
// order, to the cluster whose plan of the jobs assigned there so far in
// the operation finishes it earliest), and hashes every start the planners
// give into sum, with the first position each Plan re-planned. At every third operation it also takes a second set of
// planners in the same operation (k = 2, then one more call) and plans on
// those, so sets handed out earlier in an operation must stay intact.
type poolProbe struct {
	sum *uint64
}

func (pp poolProbe) Allocate(a *Allocation) error {
	js := slices.Clone(a.Schedulable())
	if len(js) == 0 {
		return nil
	}
	P := a.Clusters()
	order := make([][]int, P)
	rankOf := make([]map[int]int32, P)
	for p := range P {
		var jobs []int
		for _, j := range js {
			if a.Feasible(j, p) {
				jobs = append(jobs, j)
			}
		}
		rankOf[p] = map[int]int32{}
		for r, i := range a.RankOrder(p, jobs) {
			order[p] = append(order[p], jobs[i])
			rankOf[p][jobs[i]] = int32(r)
		}
	}
	sets := [][]*WhatIfPlanner{a.WhatIfs(1, order)[0]}
	if a.Op()%3 == 0 {
		sets = append(sets, a.WhatIfs(2, order)...)
		sets = append(sets, a.WhatIfs(1, order)[0])
	}
	h := fnv.New64a()
	var buf [8]byte
	put := func(x int64) {
		for i := range buf {
			buf[i] = byte(x >> (8 * i))
		}
		h.Write(buf[:])
	}
	members := make([][]int32, P)
	for g, j := range js {
		best, bestF := -1, int64(0)
		for p := range P {
			if !a.Feasible(j, p) {
				continue
			}
			rk := rankOf[p][j]
			k, _ := slices.BinarySearch(members[p], rk)
			ranks := slices.Insert(slices.Clone(members[p]), k, rk)
			var f int64
			for si, set := range sets {
				// The sets plan in turns, so each keeps its own path.
				if si > 0 && (g+si)%2 == 0 {
					continue
				}
				from, err := set[p].Plan(ranks)
				if err != nil {
					return err
				}
				put(int64(from)) // what each set re-planned: its own last path
				for _, st := range set[p].Starts() {
					put(st)
				}
				f = set[p].Starts()[k] + a.RemainingOn(j, p)
			}
			if best < 0 || f < bestF {
				best, bestF = p, f
			}
		}
		put(int64(best))
		a.Assign(j, best)
		k, _ := slices.BinarySearch(members[best], rankOf[best][j])
		members[best] = slices.Insert(members[best], k, rankOf[best][j])
	}
	*pp.sum ^= h.Sum64() * uint64(a.Op())
	return nil
}

// The pooled level planners (levelSets) give exactly what freshly made ones
// give: whole simulations of an allocator planning through them, the
// results and a hash of every start it read, at every operation of random
// instances, against the same with testHooks.freshWhatIfs.
func TestWhatIfPoolIsFresh(t *testing.T) {
	rng := rand.New(rand.NewPCG(307, 311))
	ranks := []Ranking{FIFO{}, SRSF{}, Lyra{}, SJF{}}
	placers := []Placer{BestFit{}, RoundRobin{}}
	var st planStats
	for i := range 120 {
		inst := randomInstance(rng, fmt.Sprintf("pool-%d", i))
		if i%4 == 3 {
			inst = wideJobsInstance(rng, fmt.Sprintf("pool-wide-%d", i))
		}
		if i%3 == 1 { // typed GPUs: Assign rescales remaining times (loadPending)
			for c := range inst.Clusters {
				inst.Clusters[c].GPUType = []string{"a", "b"}[c%2]
			}
			for k := range inst.Jobs {
				j := &inst.Jobs[k]
				j.TypeDurations = map[string]int64{"a": j.Duration, "b": 1 + j.Duration*int64(1+rng.IntN(3))/2}
			}
		}
		for _, b := range []Backfill{BackfillNone, BackfillGreedy} {
			var sums [2]uint64
			var res [2]Result
			for v, fresh := range []bool{false, true} {
				sched := NewListScheduler("pool", poolProbe{sum: &sums[v]}, ranks[i%len(ranks)], placers[i%2])
				h := testHooks{freshWhatIfs: fresh}
				if !fresh {
					h.stats = &st
				}
				r, err := simulate(context.Background(), inst, sched, Options{Backfill: b}, h)
				if err != nil {
					t.Fatalf("%s: %v", inst.Name, err)
				}
				res[v] = r
			}
			if sums[0] != sums[1] {
				t.Fatalf("%s backfill %v: pooled planners' starts differ from fresh ones'", inst.Name, b)
			}
			if !reflect.DeepEqual(res[0], res[1]) {
				t.Fatalf("%s backfill %v: pooled and fresh planners' results differ", inst.Name, b)
			}
		}
	}
	if st.KeptLevels == 0 {
		t.Fatal("no pooled planner kept its levels across operations: the test does not exercise loadLevels' reuse")
	}
	if st.FlushedLoads == 0 {
		t.Fatal("no deferred candidate load was flushed by a rescaling Assign: the test does not exercise loadPending")
	}
	if st.CopiedLoads == 0 {
		t.Fatal("no candidate load was copied from another planner of its set: the test does not exercise loadJobs' from")
	}
	t.Logf("loads that kept the levels: %d; deferred loads flushed by Assign: %d; copied: %d", st.KeptLevels, st.FlushedLoads, st.CopiedLoads)
}

// referenceRankOrder is RankOrder as it was: the positions sorted by a
// comparator of the float keys (lessKey, NaNs equal), then (a_j, id).
func referenceRankOrder(keys []float64, arr, id []int64) []int {
	perm := make([]int, len(keys))
	for i := range perm {
		perm[i] = i
	}
	slices.SortFunc(perm, func(x, y int) int {
		kx, ky := keys[x], keys[y]
		if kx != ky && !(math.IsNaN(kx) && math.IsNaN(ky)) {
			if lessKey(kx, ky) {
				return -1
			}
			return 1
		}
		if arr[x] != arr[y] {
			return cmpInt64(arr[x], arr[y])
		}
		return cmpInt64(id[x], id[y])
	})
	return perm
}

// sortRankItems (KeyBits, arrival, id) gives the reference comparator's
// order on keys with many ties, NaNs, ±0 and ±Inf.
func TestRankOrderIsReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 9))
	special := []float64{math.NaN(), math.Copysign(0, -1), 0, math.Inf(1), math.Inf(-1), -1.5, 2}
	for range 500 {
		n := rng.IntN(60)
		keys, arr, id := make([]float64, n), make([]int64, n), make([]int64, n)
		items := make([]rankItem, n)
		for i := range n {
			if rng.IntN(2) == 0 {
				keys[i] = special[rng.IntN(len(special))]
			} else {
				keys[i] = float64(rng.IntN(5)) - 2
			}
			arr[i], id[i] = int64(rng.IntN(4)), int64(rng.Perm(1000)[0])*1000+int64(i)
			items[i] = rankItem{k: KeyBits(keys[i]), arr: arr[i], id: id[i], pos: i}
		}
		got, want := sortRankItems(items, make([]int, n)), referenceRankOrder(keys, arr, id)
		if !slices.Equal(got, want) {
			t.Fatalf("keys %v: order %v, reference %v", keys, got, want)
		}
	}
}

// RankOrders equals RankOrder cluster by cluster (shared orders where the
// keys agree), at every operation of random instances, some with typed
// GPUs (keys differing by cluster) and jobs infeasible on some clusters.
func TestRankOrdersIsRankOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 43))
	checks, shared := 0, 0
	probe := allocFunc(func(a *Allocation) error {
		js := a.Schedulable()
		jobs := make([][]int, a.Clusters())
		for p := range jobs {
			for _, j := range js {
				if a.Feasible(j, p) {
					jobs[p] = append(jobs[p], j)
				}
			}
		}
		if a.Op()%2 == 0 { // a first call whose buffers the second reuses
			a.RankOrders(jobs[:len(jobs)/2+1])
		}
		all := a.RankOrders(jobs)
		for p := range jobs {
			if want := a.RankOrder(p, jobs[p]); !slices.Equal(all[p], want) {
				t.Fatalf("t=%d cluster %d: RankOrders %v, RankOrder %v", a.Now(), p, all[p], want)
			}
			checks++
			if p > 0 && len(all[p]) > 1 && len(all[p-1]) > 1 && &all[p][0] == &all[p-1][0] {
				shared++
			}
		}
		return (MCT{}).Allocate(a)
	})
	for i := range 150 {
		inst := randomInstance(rng, fmt.Sprintf("orders-%d", i))
		if i%2 == 0 {
			for c := range inst.Clusters {
				inst.Clusters[c].GPUType = []string{"a", "b"}[c%2]
			}
			for k := range inst.Jobs {
				j := &inst.Jobs[k]
				j.TypeDurations = map[string]int64{"a": j.Duration, "b": 1 + j.Duration*int64(1+rng.IntN(3))/2}
			}
		}
		ranking := []Ranking{FIFO{}, SRSF{}, Lyra{}, SJF{}}[i%4]
		if _, err := Simulate(context.Background(), inst, NewListScheduler("orders", probe, ranking, BestFit{}), Options{}); err != nil {
			t.Fatalf("%s: %v", inst.Name, err)
		}
	}
	if checks < 1000 || shared == 0 {
		t.Fatalf("%d orders compared, %d shared", checks, shared)
	}
}

package simcore

import (
	"context"
	"fmt"
	"hash/fnv"
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
	for i := range 120 {
		inst := randomInstance(rng, fmt.Sprintf("pool-%d", i))
		if i%4 == 3 {
			inst = wideJobsInstance(rng, fmt.Sprintf("pool-wide-%d", i))
		}
		for _, b := range []Backfill{BackfillNone, BackfillGreedy} {
			var sums [2]uint64
			var res [2]Result
			for v, fresh := range []bool{false, true} {
				sched := NewListScheduler("pool", poolProbe{sum: &sums[v]}, ranks[i%len(ranks)], placers[i%2])
				r, err := simulate(context.Background(), inst, sched, Options{Backfill: b}, testHooks{freshWhatIfs: fresh})
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
}

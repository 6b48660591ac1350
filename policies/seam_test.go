package policies_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/evogp/evogp/policies"
	"github.com/evogp/evogp/simcore"
)

// leastWork is a toy allocator written against the public allocation seam
// only: at every operation it re-decides every job of Js, in (arrival, id)
// order, putting each on the feasible cluster with the least queued work
// (Σ g_j·rem_{j,p} of the Jn jobs there and of the Js jobs put there so
// far at this operation; ties → lowest index), and logs one operation row.
type leastWork struct{}

func (leastWork) Allocate(a *simcore.Allocation) error {
	st := a.State()
	work := make([]float64, a.Clusters())
	for p := range work {
		for _, j := range a.FixedOn(p) {
			work[p] += float64(a.Job(j).GPUs) * float64(st.RemainingOn(j, p))
		}
	}
	js := slices.Clone(a.Schedulable())
	for _, j := range js {
		best := -1
		for p := range work {
			if a.Feasible(j, p) && (best < 0 || work[p] < work[best]) {
				best = p
			}
		}
		if best < 0 {
			return fmt.Errorf("job %d feasible nowhere", a.Job(j).ID)
		}
		a.Assign(j, best)
		work[best] += float64(a.Job(j).GPUs) * float64(a.RemainingOn(j, best))
	}
	a.RecordOp(simcore.OpRecord{Time: a.Now(), Js: len(js)})
	return nil
}

// seamMCTAll is mct-all written again against the public seam: every Js
// job, in (arrival, id) order, goes to the feasible cluster where the
// what-if plan of the jobs put there so far and itself finishes it
// earliest (user cluster first, then index order; strict improvement
// wins). It must give simcore/evo's mct-all results exactly.
type seamMCTAll struct{}

func (seamMCTAll) Allocate(a *simcore.Allocation) error {
	if err := (simcore.MCT{}).Allocate(a); err != nil {
		return err
	}
	js := slices.Clone(a.Schedulable())
	if len(js) == 0 || a.Clusters() == 1 {
		return nil
	}
	st := a.State()
	order := make([][]int, a.Clusters())
	rankOf := make([]map[int]int32, a.Clusters())
	for p := range order {
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
	planners := a.WhatIfs(1, order)[0]
	members := make([][]int32, a.Clusters())
	choice := make([]int, len(js))
	for g, j := range js {
		user := a.Job(j).Cluster
		best, bestF := -1, int64(0)
		try := func(p int) error {
			if !a.Feasible(j, p) {
				return nil
			}
			ranks := append(slices.Clone(members[p]), rankOf[p][j])
			slices.Sort(ranks)
			if _, err := planners[p].Plan(ranks); err != nil {
				return err
			}
			k := slices.Index(ranks, rankOf[p][j])
			if f := planners[p].Starts()[k] + st.RemainingOn(j, p); best < 0 || f < bestF {
				best, bestF = p, f
			}
			return nil
		}
		if err := try(user); err != nil {
			return err
		}
		for p := range a.Clusters() {
			if p != user {
				if err := try(p); err != nil {
					return err
				}
			}
		}
		choice[g] = best
		members[best] = append(members[best], rankOf[best][j])
		slices.Sort(members[best])
	}
	for g, j := range js {
		a.Assign(j, choice[g])
	}
	return nil
}

// toyInstance is a small contended multi-cluster instance with typed GPUs
// on every other one.
func toyInstance(rng *rand.Rand, name string) *simcore.Instance {
	inst := &simcore.Instance{Name: name}
	for range 2 + rng.IntN(2) {
		inst.Clusters = append(inst.Clusters, simcore.Cluster{Nodes: 1 + rng.IntN(3), GPUsPerNode: []int{2, 4, 8}[rng.IntN(3)]})
	}
	t := int64(0)
	for id := range 5 + rng.IntN(25) {
		if rng.IntN(3) > 0 {
			t += int64(rng.IntN(50))
		}
		for {
			w := []int{1, 1, 2, 4}[rng.IntN(4)]
			r := 1 + rng.IntN(3)
			j := simcore.Job{ID: int64(id), Arrival: t, Cluster: rng.IntN(len(inst.Clusters)), Duration: 1 + int64(rng.IntN(200)),
				Workers: r, GPUs: r * w, Priority: 1 + rng.IntN(3)}
			if j.FitsOn(inst.Clusters[j.Cluster]) {
				inst.Jobs = append(inst.Jobs, j)
				break
			}
		}
	}
	return inst
}

// An allocator from outside simcore registers once and runs from a spec,
// re-deciding every Js job through the seam, under the engine's plan
// validation and the invariant checks, in every mode; it moves jobs, and
// its operation log reaches the result.
func TestToyAllocatorThroughTheSeam(t *testing.T) {
	r := policies.NewRegistry()
	r.Allocator("leastwork", simcore.Fixed[simcore.Allocator](leastWork{}))
	rng := rand.New(rand.NewPCG(30, 2))
	moved, ops := 0, 0
	for i := range 40 {
		inst := toyInstance(rng, fmt.Sprintf("toy-%d", i))
		for _, spec := range []string{"leastwork+srsf+bestfit", "leastwork+fifo+roundrobin"} {
			sched, err := r.Parse(spec, simcore.Params{})
			if err != nil {
				t.Fatal(err)
			}
			for _, b := range []simcore.Backfill{simcore.BackfillNone, simcore.BackfillConservative, simcore.BackfillGreedy, simcore.BackfillStrict, simcore.BackfillPreemptive} {
				opts := simcore.Options{Backfill: b, CheckPlans: true, RecordSegments: true, RecordOps: true}
				res, err := simcore.Simulate(context.Background(), inst, sched, opts)
				if err != nil {
					t.Fatalf("%s %s %v: %v", inst.Name, spec, b, err)
				}
				if err := simcore.CheckInvariants(inst, res); err != nil {
					t.Fatalf("%s %s %v: %v", inst.Name, spec, b, err)
				}
				ops += len(res.Ops)
				for _, sg := range res.Segments {
					if sg.Cluster != res.Jobs[sg.Job].Cluster {
						moved++
						break
					}
				}
			}
		}
	}
	if moved == 0 || ops == 0 {
		t.Fatalf("the toy allocator never moved a job (%d) or logged an operation (%d)", moved, ops)
	}
}

// The seam's what-if planners suffice to write mct-all again outside
// simcore and get simcore/evo's results exactly, in every mode mct-all
// supports.
func TestSeamMCTAllMatchesEvo(t *testing.T) {
	r := policies.NewRegistry()
	r.Allocator("seam-mct-all", simcore.Fixed[simcore.Allocator](seamMCTAll{}))
	rng := rand.New(rand.NewPCG(30, 3))
	for i := range 40 {
		inst := toyInstance(rng, fmt.Sprintf("mctall-%d", i))
		for _, rank := range []string{"srsf", "fifo", "lyra"} {
			for _, place := range []string{"bestfit", "roundrobin"} {
				mine, err := r.Parse("seam-mct-all+"+rank+"+"+place, simcore.Params{})
				if err != nil {
					t.Fatal(err)
				}
				theirs, err := r.Parse("mct-all+"+rank+"+"+place, simcore.Params{})
				if err != nil {
					t.Fatal(err)
				}
				for _, b := range []simcore.Backfill{simcore.BackfillNone, simcore.BackfillConservative, simcore.BackfillGreedy} {
					opts := simcore.Options{Backfill: b, CheckPlans: true, RecordSegments: true}
					got, err := simcore.Simulate(context.Background(), inst, mine, opts)
					if err != nil {
						t.Fatal(err)
					}
					want, err := simcore.Simulate(context.Background(), inst, theirs, opts)
					if err != nil {
						t.Fatal(err)
					}
					if err := simcore.CheckInvariants(inst, got); err != nil {
						t.Fatal(err)
					}
					if !reflect.DeepEqual(got.Jobs, want.Jobs) || !reflect.DeepEqual(got.Segments, want.Segments) {
						t.Fatalf("%s %s+%s %v: the seam's mct-all differs from simcore/evo's", inst.Name, rank, place, b)
					}
				}
			}
		}
	}
}

package rule_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/evogp/evogp/simcore"
	"github.com/evogp/evogp/simcore/evo"
)

// Routing tree m (MCT's finish, seconds) in scope all, FIFO, best fit;
// cluster 0 is 1 node × 4 GPUs, cluster 1 is 1 × 2:
//
//	J0 a=0  s=0 4 GPUs d=100   only cluster 0 fits it
//	J1 a=0  s=0 2 GPUs d=50
//	J2 a=0  s=1 2 GPUs d=200
//	J3 a=10 s=1 2 GPUs d=20
//
// t=0, FIFO order J0, J1, J2, nothing assigned yet:
//   - J0 → 0 (the only fit), m = 100.
//   - J1: on 0 behind J0 (ranked first) 100+50 = 150; on 1 alone 50 → 1.
//   - J2: on 0 behind J0 100+200 = 300; on 1 behind J1 50+200 = 250 → 1.
//
// t=10: Jn = {J0} (on its user cluster, until 100); Js = {J1 (running off
// its user cluster), J2 (queued on 1), J3}, decided in FIFO order with
// nothing in this operation assigned yet:
//   - J1 (rem 40): on 0 after J0 100+40 = 140; on 1 alone 10+40 = 50 → 1.
//   - J2: on 0 after J0 300; on 1 behind J1 (now assigned there) 250 → 1.
//   - J3: on 0 after J0 120; on 1 behind J1 and J2 250+20 = 270 → 0,
//     [100,120]: m counts the jobs assigned to 1 so far in the operation.
func TestHandComputedMScopeAll(t *testing.T) {
	inst := &simcore.Instance{Name: "hand-m",
		Clusters: []simcore.Cluster{{Nodes: 1, GPUsPerNode: 4}, {Nodes: 1, GPUsPerNode: 2}},
		Jobs: []simcore.Job{
			{ID: 0, Arrival: 0, Cluster: 0, Duration: 100, Workers: 1, GPUs: 4, Priority: 1},
			{ID: 1, Arrival: 0, Cluster: 0, Duration: 50, Workers: 1, GPUs: 2, Priority: 1},
			{ID: 2, Arrival: 0, Cluster: 1, Duration: 200, Workers: 1, GPUs: 2, Priority: 1},
			{ID: 3, Arrival: 10, Cluster: 1, Duration: 20, Workers: 1, GPUs: 2, Priority: 1},
		}}
	want := [][3]int64{{0, 0, 100}, {1, 0, 50}, {1, 50, 250}, {0, 100, 120}}
	for _, b := range []simcore.Backfill{simcore.BackfillNone, simcore.BackfillConservative, simcore.BackfillGreedy} {
		res := simulate(t, inst, ruleScheduler(t, "m", "all", true, "fifo", "bestfit"), simcore.Options{Backfill: b})
		for i, w := range want {
			j := res.Jobs[i]
			if int64(j.Cluster) != w[0] || j.Start != w[1] || j.Finish != w[2] {
				t.Errorf("%v: job %d on %d [%d,%d], want %v", b, j.ID, j.Cluster, j.Start, j.Finish, w)
			}
		}
	}
}

// referenceMCT is the plainest reading of "assign each Js job to the
// feasible cluster where the plan of the Jn jobs and the jobs assigned
// there so far finishes it earliest": every query plans the whole member
// set from scratch on the list scheduler's reference what-if planner (never
// the level planner, never an incremental re-plan).
//
// specOrder selects the order and the ties: SPEC §16's rule (jobs by the
// ranking on their current cluster, else their user cluster, ties by
// (arrival, id); cluster ties to the current cluster, then the user
// cluster, then the lowest index), or, when false, mct-all's pure MCT
// (jobs in (arrival, id) order; ties to the user cluster, then the lowest
// index).
type referenceMCT struct{ specOrder bool }

func (r referenceMCT) Allocate(a *simcore.Allocation) error {
	js := slices.Clone(a.Schedulable())
	if r.specOrder {
		keys := map[int]float64{}
		for _, j := range js {
			c := a.Assigned(j)
			if c < 0 {
				c = a.Job(j).Cluster
			}
			keys[j] = a.RankKey(j, c)
		}
		slices.SortStableFunc(js, func(x, y int) int { return nanLast(keys[x], keys[y]) })
	}
	P := a.Clusters()
	on := make([][]int, P)
	for _, j := range js {
		job := a.Job(j)
		cur := a.Assigned(j)
		best, bestF := -1, int64(math.MaxInt64)
		for p := range P {
			if !a.Feasible(j, p) {
				continue
			}
			members := append(slices.Clone(on[p]), j)
			perm := a.RankOrder(p, members)
			order := make([][]int, P)
			ranks := make([]int32, len(members))
			at := -1
			for k, i := range perm {
				order[p] = append(order[p], members[i])
				ranks[k] = int32(k)
				if members[i] == j {
					at = k
				}
			}
			wp := a.ReferenceWhatIfs(1, order)[0][p]
			if _, err := wp.Plan(ranks); err != nil {
				return err
			}
			f := wp.Starts()[at] + a.RemainingOn(j, p)
			if best < 0 || f < bestF || f == bestF && r.prefer(p, best, cur, job.Cluster) {
				best, bestF = p, f
			}
		}
		if best < 0 {
			return fmt.Errorf("job %d feasible nowhere", job.ID)
		}
		a.Assign(j, best)
		on[best] = append(on[best], j)
	}
	return nil
}

// prefer breaks a tie in the finish between cluster p and the best so far.
func (r referenceMCT) prefer(p, best, cur, user int) bool {
	rank := func(c int) int {
		switch {
		case r.specOrder && c == cur:
			return 0
		case c == user:
			return 1
		}
		return 2
	}
	if rank(p) != rank(best) {
		return rank(p) < rank(best)
	}
	return p < best
}

func (referenceMCT) CheckBackfill(b simcore.Backfill) error {
	if b == simcore.BackfillStrict || b == simcore.BackfillPreemptive {
		return fmt.Errorf("reference: no what-if under %v", b)
	}
	return nil
}

func nanLast(x, y float64) int {
	switch xn, yn := math.IsNaN(x), math.IsNaN(y); {
	case xn && yn:
		return 0
	case xn:
		return 1
	case yn:
		return -1
	}
	if x < y {
		return -1
	}
	if x > y {
		return 1
	}
	return 0
}

func referenceScheduler(t *testing.T, specOrder bool, rank, place string) simcore.Scheduler {
	t.Helper()
	r := registry()
	r.Allocator("reference", simcore.Fixed[simcore.Allocator](referenceMCT{specOrder: specOrder}))
	s, err := r.Parse("reference+"+rank+"+"+place, simcore.Params{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

var whatIfModes = []simcore.Backfill{simcore.BackfillNone, simcore.BackfillConservative, simcore.BackfillGreedy}

// The reference read as pure MCT (arrival order, user-cluster ties) is
// mct-all, job for job and segment for segment: so the reference is the
// pure MCT that seeds EVO.
func TestReferenceIsMCTAll(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 5))
	r := registry()
	evo.Register(r)
	for i := range 200 {
		inst := randomInstance(rng, fmt.Sprintf("mctall-%d", i))
		for _, rank := range []string{"fifo", "srsf", "lyra"} {
			for _, place := range []string{"bestfit", "roundrobin"} {
				theirs, err := r.Parse("mct-all+"+rank+"+"+place, simcore.Params{})
				if err != nil {
					t.Fatal(err)
				}
				mine := referenceScheduler(t, false, rank, place)
				for _, b := range whatIfModes {
					opts := simcore.Options{Backfill: b, RecordSegments: true}
					got, want := simulate(t, inst, mine, opts), simulate(t, inst, theirs, opts)
					if !reflect.DeepEqual(got.Jobs, want.Jobs) || !reflect.DeepEqual(got.Segments, want.Segments) {
						t.Fatalf("%s %s+%s %v: the pure-MCT reference differs from mct-all", inst.Name, rank, place, b)
					}
				}
			}
		}
	}
}

// rule with routing tree m in scope all is the reference in SPEC §16's
// order, job for job and segment for segment, on 200 random instances ×
// rankings × placers × the backfill modes with a what-if. Against mct-all
// it differs by definition: the decision order (the ranking on the current
// cluster, not (arrival, id); the same under FIFO) and the ties (the
// current cluster first, then the user cluster; mct-all takes the user
// cluster, then the lowest index). The test counts how often that shows.
func TestRoutingMScopeAllIsReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 6))
	r := registry()
	evo.Register(r)
	differsFromMCTAll := 0
	for i := range 200 {
		inst := randomInstance(rng, fmt.Sprintf("mall-%d", i))
		for _, rank := range []string{"fifo", "srsf", "lyra"} {
			for _, place := range []string{"bestfit", "roundrobin"} {
				mine := ruleScheduler(t, "m", "all", false, rank, place)
				ref := referenceScheduler(t, true, rank, place)
				for _, b := range whatIfModes {
					opts := simcore.Options{Backfill: b, RecordSegments: true}
					got, want := simulate(t, inst, mine, opts), simulate(t, inst, ref, opts)
					if !reflect.DeepEqual(got.Jobs, want.Jobs) || !reflect.DeepEqual(got.Segments, want.Segments) {
						t.Fatalf("%s %s+%s %v: rule(m, all) differs from the reference", inst.Name, rank, place, b)
					}
					if rank == "fifo" && place == "bestfit" && b == simcore.BackfillNone {
						all, err := r.Parse("mct-all+fifo+bestfit", simcore.Params{})
						if err != nil {
							t.Fatal(err)
						}
						if !reflect.DeepEqual(got.Jobs, simulate(t, inst, all, opts).Jobs) {
							differsFromMCTAll++
						}
					}
				}
			}
		}
	}
	t.Logf("rule(m, all)+fifo+bestfit differs from mct-all+fifo+bestfit (ties only) on %d of 200 instances", differsFromMCTAll)
}

// Invariants hold with m in scope all on 200 instances × rankings ×
// placers × backfill modes, and jobs are moved and preempted.
func TestInvariantsMScopeAll(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 7))
	moved, preempted := 0, 0
	trees := []string{"m", "m + W * n", "m - 100 * o", "m * (1 + h) + x"}
	for i := range 200 {
		inst := randomInstance(rng, fmt.Sprintf("minv-%d", i))
		for _, rank := range []string{"fifo", "srsf", "lyra"} {
			for _, place := range []string{"bestfit", "roundrobin"} {
				s := ruleScheduler(t, trees[i%len(trees)], "all", true, rank, place)
				for _, b := range whatIfModes {
					res := simulate(t, inst, s, simcore.Options{Backfill: b, RecordSegments: true})
					for _, j := range res.Jobs {
						moved += j.Migrations
						preempted += j.Preemptions
					}
				}
			}
		}
	}
	if moved == 0 || preempted == 0 {
		t.Fatalf("m in scope all never moved (%d) or preempted (%d) a running job", moved, preempted)
	}
}

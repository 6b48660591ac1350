package rule

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/evogp/evogp/simcore"
)

// sharedProbe checks every m query of allFinish (incremental, PlanShared's
// promise, the members kept in spare capacity) against a full plan of the
// same member set on the reference what-if planner, with the jobs decided
// in a random order and sent to random feasible clusters, so that queries
// fall before, inside and after the members and the last plan on a cluster
// is sometimes assigned there and sometimes not. The allFinish is kept
// across operations, as Allocate keeps it, so its reused buffers are
// checked too.
type sharedProbe struct {
	t      *testing.T
	rng    *rand.Rand
	checks *int
	keep   **allFinish
}

func (sp sharedProbe) Allocate(a *simcore.Allocation) error {
	js := slices.Clone(a.Schedulable())
	if len(js) == 0 {
		return nil
	}
	af := newAllFinish(*sp.keep, a, js)
	*sp.keep = af
	ref := a.ReferenceWhatIfs(1, af.order)[0]
	members := make([][]int32, a.Clusters())
	for _, i := range sp.rng.Perm(len(js)) {
		j := js[i]
		var feas []int
		for p := range a.Clusters() {
			if !a.Feasible(j, p) {
				continue
			}
			feas = append(feas, p)
			rem := a.RemainingOn(j, p)
			got, err := af.finish(i, p, rem)
			if err != nil {
				return err
			}
			rk := af.rankOf[p][i]
			k, _ := slices.BinarySearch(members[p], rk)
			ranks := slices.Insert(slices.Clone(members[p]), k, rk)
			if _, err := ref[p].Plan(ranks); err != nil {
				return err
			}
			if want := ref[p].Starts()[k] + rem; got != want {
				sp.t.Fatalf("t=%d job %d on %d, ranks %v: m's finish %d, full plan %d", a.Now(), j, p, ranks, got, want)
			}
			*sp.checks++
		}
		best := feas[sp.rng.IntN(len(feas))]
		a.Assign(j, best)
		af.assign(i, best)
		rk := af.rankOf[best][i]
		k, _ := slices.BinarySearch(members[best], rk)
		members[best] = slices.Insert(members[best], k, rk)
	}
	return nil
}

func TestAllFinishSharedIsFullPlan(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 19))
	checks := 0
	for i := range 60 {
		inst := &simcore.Instance{Name: fmt.Sprint("shared-", i)}
		for range 2 + rng.IntN(3) {
			inst.Clusters = append(inst.Clusters, simcore.Cluster{Nodes: 1 + rng.IntN(4), GPUsPerNode: []int{2, 4, 8}[rng.IntN(3)]})
		}
		at := int64(0)
		for id := range 10 + rng.IntN(40) {
			if rng.IntN(3) == 0 {
				at += int64(rng.IntN(200))
			}
			w := []int{1, 2}[rng.IntN(2)]
			r := 1 + rng.IntN(2)
			inst.Jobs = append(inst.Jobs, simcore.Job{ID: int64(id), Arrival: at, Cluster: rng.IntN(len(inst.Clusters)),
				Duration: 10 + int64(rng.IntN(500)), Workers: r, GPUs: r * w, Priority: 1 + rng.IntN(3)})
		}
		ranking := []simcore.Ranking{simcore.FIFO{}, simcore.SRSF{}, simcore.Lyra{}}[i%3]
		placer := []simcore.Placer{simcore.BestFit{}, simcore.RoundRobin{}}[i%2]
		sched := simcore.NewListScheduler("shared", sharedProbe{t: t, rng: rng, checks: &checks, keep: new(*allFinish)}, ranking, placer)
		if _, err := simcore.Simulate(context.Background(), inst, sched, simcore.Options{}); err != nil {
			t.Fatalf("%s: %v", inst.Name, err)
		}
	}
	if checks < 3000 {
		t.Fatalf("only %d queries", checks)
	}
}

package rule_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/simcore"
	"github.com/evogp/evogp/simcore/rule"
)

// registry is simcore's policies plus the rule allocator.
func registry() *simcore.Registry {
	r := simcore.NewRegistry()
	rule.Register(r)
	return r
}

func ruleScheduler(t *testing.T, routing, scope string, seconds bool, rank, place string) simcore.Scheduler {
	t.Helper()
	p, err := rule.ParseParams(routing, scope, seconds)
	if err != nil {
		t.Fatal(err)
	}
	s, err := registry().Parse("rule+"+rank+"+"+place, simcore.Params{Sections: map[string]any{rule.SectionName: p}})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func simulate(t *testing.T, inst *simcore.Instance, s simcore.Scheduler, opts simcore.Options) simcore.Result {
	t.Helper()
	opts.CheckPlans, opts.RecordSegments = true, true
	res, err := simcore.Simulate(context.Background(), inst, s, opts)
	if err != nil {
		t.Fatalf("%s %s: %v", inst.Name, s.Name(), err)
	}
	if err := simcore.CheckInvariants(inst, res); err != nil {
		t.Fatalf("%s %s: %v", inst.Name, s.Name(), err)
	}
	return res
}

// Routing tree x (earliest fit beside the Jn jobs, seconds), FIFO, best
// fit, two clusters of 1 node × 4 GPUs:
//
//	J0 a=0  s=0 1×4 GPUs d=100
//	J1 a=0  s=0 1×4 GPUs d=50
//	J2 a=10 s=1 1×1 GPU  d=10
//
// t=0: no Jn job, so x = 0 everywhere; ties go to the user cluster: J0
// and J1 on cluster 0, J0 [0,100], J1 queued behind it [100,150].
// t=10: Jn = {J0} (running on its user cluster), frees cluster 0 at 100.
//   - scope arrivals: only J2 is decided: x = 90 on 0, 0 on 1 → cluster 1,
//     [10,20]; J1 stays on 0, [100,150].
//   - scope all: FIFO order J1, J2. J1 (on 0): x = 90 on 0, 0 on 1 → moves
//     to 1, starts at 10, [10,60]. J2: x = 90 on 0, 0 on 1 (J1 is not Jn)
//     → 1; FIFO puts it after J1 on cluster 1's 4 GPUs: [60,70].
func TestHandComputedBothScopes(t *testing.T) {
	inst := &simcore.Instance{Name: "hand",
		Clusters: []simcore.Cluster{{Nodes: 1, GPUsPerNode: 4}, {Nodes: 1, GPUsPerNode: 4}},
		Jobs: []simcore.Job{
			{ID: 0, Arrival: 0, Cluster: 0, Duration: 100, Workers: 1, GPUs: 4, Priority: 1},
			{ID: 1, Arrival: 0, Cluster: 0, Duration: 50, Workers: 1, GPUs: 4, Priority: 1},
			{ID: 2, Arrival: 10, Cluster: 1, Duration: 10, Workers: 1, GPUs: 1, Priority: 1},
		}}
	type want struct {
		cluster       int
		start, finish int64
	}
	for _, c := range []struct {
		scope string
		want  []want
	}{
		{"arrivals", []want{{0, 0, 100}, {0, 100, 150}, {1, 10, 20}}},
		{"all", []want{{0, 0, 100}, {1, 10, 60}, {1, 60, 70}}},
	} {
		res := simulate(t, inst, ruleScheduler(t, "x", c.scope, true, "fifo", "bestfit"), simcore.Options{})
		for i, w := range c.want {
			j := res.Jobs[i]
			if j.Cluster != w.cluster || j.Start != w.start || j.Finish != w.finish {
				t.Errorf("scope %s: job %d on %d [%d,%d], want %d [%d,%d]", c.scope, j.ID, j.Cluster, j.Start, j.Finish, w.cluster, w.start, w.finish)
			}
		}
	}
}

// Routing tree W (work ahead per GPU, seconds), FIFO, best fit; cluster 0
// is 1 × 4 GPUs, cluster 1 is 1 × 2:
//
//	J0 a=0  s=0 1×4 d=100   only cluster 0 fits it
//	J1 a=0  s=0 1×2 d=50
//	J2 a=10 s=1 1×2 d=30
//
// t=0: J0 → 0 (W: 400/4 = 100 after it). J1: W 100 on 0, 0 on 1 → 1,
// [0,50]. t=10: W on 0 = 4·90/4 = 90 (J0, Jn); on 1 = 2·40/2 = 40 (J1:
// kept in scope arrivals; in scope all re-decided first: 90 vs 0 → stays on
// 1, then adds 40). J2: 90 vs 40 → 1, after J1: [50,80]. Both scopes.
func TestHandComputedWorkAhead(t *testing.T) {
	inst := &simcore.Instance{Name: "hand-w",
		Clusters: []simcore.Cluster{{Nodes: 1, GPUsPerNode: 4}, {Nodes: 1, GPUsPerNode: 2}},
		Jobs: []simcore.Job{
			{ID: 0, Arrival: 0, Cluster: 0, Duration: 100, Workers: 1, GPUs: 4, Priority: 1},
			{ID: 1, Arrival: 0, Cluster: 0, Duration: 50, Workers: 1, GPUs: 2, Priority: 1},
			{ID: 2, Arrival: 10, Cluster: 1, Duration: 30, Workers: 1, GPUs: 2, Priority: 1},
		}}
	want := [][3]int64{{0, 0, 100}, {1, 0, 50}, {1, 50, 80}}
	for _, scope := range []string{"arrivals", "all"} {
		res := simulate(t, inst, ruleScheduler(t, "W", scope, true, "fifo", "bestfit"), simcore.Options{})
		for i, w := range want {
			j := res.Jobs[i]
			if int64(j.Cluster) != w[0] || j.Start != w[1] || j.Finish != w[2] {
				t.Errorf("scope %s: job %d on %d [%d,%d], want %v", scope, j.ID, j.Cluster, j.Start, j.Finish, w)
			}
		}
	}
}

// randomInstance draws a small contended multi-cluster instance: bursts of
// arrivals, multi-worker jobs, mixed node sizes.
func randomInstance(rng *rand.Rand, name string) *simcore.Instance {
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

// The routing tree m in scope arrivals is MCT, job for job and segment for
// segment, on 200 random instances × rankings × placers × the backfill
// modes where m is allowed.
func TestRoutingMIsMCT(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 1))
	r := registry()
	for i := range 200 {
		inst := randomInstance(rng, fmt.Sprintf("mct-%d", i))
		for _, rank := range []string{"fifo", "srsf", "lyra"} {
			for _, place := range []string{"bestfit", "roundrobin"} {
				mine := ruleScheduler(t, "m", "arrivals", false, rank, place)
				theirs, err := r.Parse("mct+"+rank+"+"+place, simcore.Params{})
				if err != nil {
					t.Fatal(err)
				}
				for _, b := range []simcore.Backfill{simcore.BackfillNone, simcore.BackfillConservative, simcore.BackfillGreedy} {
					opts := simcore.Options{Backfill: b, RecordSegments: true}
					got, want := simulate(t, inst, mine, opts), simulate(t, inst, theirs, opts)
					if !reflect.DeepEqual(got.Jobs, want.Jobs) || !reflect.DeepEqual(got.Segments, want.Segments) {
						t.Fatalf("%s %s+%s %v: rule(m) differs from mct", inst.Name, rank, place, b)
					}
				}
			}
		}
	}
}

// Invariants (plan validation and SPEC §4.4's) hold on 200 instances ×
// scopes × rankings × backfill modes, and scope all does move and preempt
// running jobs.
func TestInvariantsEveryScopeAndMode(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 2))
	moved, preempted := 0, 0
	trees := []string{"W", "x + W * n", "W - 2 * o + h % f", "d * g + x - C % N", "q - a * u + r * w"}
	for i := range 200 {
		inst := randomInstance(rng, fmt.Sprintf("inv-%d", i))
		tree := trees[i%len(trees)]
		for _, rank := range []string{"fifo", "srsf", "lyra"} {
			for _, scope := range []string{"arrivals", "all"} {
				modes := []simcore.Backfill{simcore.BackfillNone, simcore.BackfillConservative, simcore.BackfillGreedy}
				if scope == "arrivals" {
					modes = append(modes, simcore.BackfillStrict, simcore.BackfillPreemptive)
				}
				s := ruleScheduler(t, tree, scope, false, rank, "bestfit")
				for _, b := range modes {
					res := simulate(t, inst, s, simcore.Options{Backfill: b, RecordSegments: true})
					if scope != "all" {
						continue
					}
					for _, j := range res.Jobs {
						moved += j.Migrations
						preempted += j.Preemptions
					}
					for _, sg := range res.Segments {
						if sg.Cluster != res.Jobs[sg.Job].Cluster {
							moved++
						}
					}
				}
			}
		}
	}
	if moved == 0 || preempted == 0 {
		t.Fatalf("scope all never moved (%d) or preempted (%d) a running job", moved, preempted)
	}
}

// The same inputs give identical results, run after run and with
// simulations in parallel.
func TestDeterministicAcrossRunsAndGoroutines(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 3))
	var insts []*simcore.Instance
	for i := range 40 {
		insts = append(insts, randomInstance(rng, fmt.Sprintf("det-%d", i)))
	}
	for _, tree := range []string{"x + W * n - o", "m + W * n - o"} {
		deterministic(t, insts, ruleScheduler(t, tree, "all", false, "srsf", "bestfit"))
	}
}

func deterministic(t *testing.T, insts []*simcore.Instance, s simcore.Scheduler) {
	t.Helper()
	opts := simcore.Options{RecordSegments: true}
	serial := make([]simcore.Result, len(insts))
	for i, inst := range insts {
		serial[i] = simulate(t, inst, s, opts)
	}
	parallel := make([]simcore.Result, len(insts))
	var wg sync.WaitGroup
	errs := make([]error, len(insts))
	for i, inst := range insts {
		wg.Go(func() {
			parallel[i], errs[i] = simcore.Simulate(context.Background(), inst, s, opts)
		})
	}
	wg.Wait()
	for i := range insts {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if !reflect.DeepEqual(serial[i].Jobs, parallel[i].Jobs) || !reflect.DeepEqual(serial[i].Segments, parallel[i].Segments) {
			t.Fatalf("%s: parallel run differs", insts[i].Name)
		}
	}
}

func TestBadInput(t *testing.T) {
	for _, c := range []struct{ routing, scope, want string }{
		{"W + e", "arrivals", `unknown variable "e" in a routing tree: it is a ranking terminal`},
		{"s", "all", `unknown variable "s" in a routing tree`},
		{"W", "everything", `unknown scope "everything"`},
	} {
		_, err := rule.ParseParams(c.routing, c.scope, false)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q %q: %v, want %q", c.routing, c.scope, err, c.want)
		}
	}
	if _, err := rule.New(rule.Params{Routing: expr.MustParse("d + f")}); err == nil || !strings.Contains(err.Error(), "ranking tree") {
		t.Errorf("a ranking tree as routing: %v", err)
	}
	inst := randomInstance(rand.New(rand.NewPCG(1, 1)), "bad")
	for _, c := range []struct {
		routing, scope string
		b              simcore.Backfill
		want           string
	}{
		{"m", "arrivals", simcore.BackfillStrict, "uses m"},
		{"m", "arrivals", simcore.BackfillPreemptive, "uses m"},
		{"W", "all", simcore.BackfillStrict, "scope all does not support backfill"},
		{"W", "all", simcore.BackfillPreemptive, "scope all does not support backfill"},
		{"m", "all", simcore.BackfillStrict, "uses m"},
		{"m + W", "all", simcore.BackfillPreemptive, "uses m"},
	} {
		s := ruleScheduler(t, c.routing, c.scope, false, "fifo", "bestfit")
		_, err := simcore.Simulate(context.Background(), inst, s, simcore.Options{Backfill: c.b})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %s %v: %v, want %q", c.routing, c.scope, c.b, err, c.want)
		}
	}
}

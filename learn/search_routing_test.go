package learn

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/simcore"
)

// twoIdleClusters is the hand instance of the routing search: two
// clusters of 1 node × 1 GPU, and two 1-GPU jobs of one hour arriving at
// t = 0 on cluster 0. Under FIFO:
//   - R = W (least work per GPU): J0 sees W = 0 on both and ties go to its
//     user cluster 0; J1 then sees W = 1 h on 0 and 0 on 1 → cluster 1.
//     Both run [0, 1 h]: what MCT does, so with FIFO ≡ SRSF here it scores
//     exactly 1 (the SRSF normaliser is mct + srsf + bestfit).
//   - R = h (1 on the user cluster): smaller is preferred, so both jobs
//     leave their user cluster for cluster 1 and run one after the other,
//     J1 waiting an hour: worse than 1.
func twoIdleClusters() simcore.Instance {
	return simcore.Instance{Name: "two-idle",
		Clusters: []simcore.Cluster{{Nodes: 1, GPUsPerNode: 1}, {Nodes: 1, GPUsPerNode: 1}},
		Jobs: []simcore.Job{
			{ID: 0, Arrival: 0, Cluster: 0, Duration: 3600, Workers: 1, GPUs: 1, Priority: 1},
			{ID: 1, Arrival: 0, Cluster: 0, Duration: 3600, Workers: 1, GPUs: 1, Priority: 1},
		}}
}

func TestSearchRoutingHandCase(t *testing.T) {
	cfg := testConfig(t)
	val := []simcore.Instance{twoIdleClusters()}
	rep, err := Search(context.Background(), cfg, val, SearchSettings{Depth: 1, Screen: 1, Keep: 10,
		Routing: &RoutingSearch{Terminals: []string{"h", "W"}, Ranking: "fifo", Scope: "arrivals"}})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Routing || rep.Enumerated != 2 || rep.Canonical != 2 || len(rep.Kept) != 2 {
		t.Fatalf("counts: %+v", rep)
	}
	best, worst := rep.Kept[0], rep.Kept[1]
	if best.Formula.String() != "W" || best.Validation != 1 || best.Formula.Catalogue() != expr.Routing {
		t.Errorf("best routing of size 1: %s scoring %v, want W scoring exactly 1", best.Formula, best.Validation)
	}
	if worst.Formula.String() != "h" || !(worst.Validation > 1) {
		t.Errorf("second: %s scoring %v, want h scoring above 1", worst.Formula, worst.Validation)
	}
	// Differential: each kept objective is the rule scheduler's, run by
	// hand: rule(R, arrivals) + fifo + bestfit.
	opts, err := SimOptions(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range rep.Kept {
		sched, err := ruleSchedulerSpec(cfg.GP.Placer, k.Formula, "arrivals", false, simcore.FIFO{})
		if err != nil {
			t.Fatal(err)
		}
		res, err := simcore.Simulate(context.Background(), &val[0], sched, opts)
		if err != nil {
			t.Fatal(err)
		}
		if want := res.Metrics.Objective; k.Objectives[0] != want {
			t.Errorf("R = %s: search objective %v, simulated %v", k.Formula, k.Objectives[0], want)
		}
	}
	var buf bytes.Buffer
	if err := rep.WriteText(&buf, 5); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"search over routing trees R on terminals [W,h], depth ≤ 1, scheduler rule(R, scope arrivals) + ranking fifo: 2 trees, 2 canonical forms",
		"R = W\n", "R = h\n"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, buf.String())
		}
	}
}

// Routing trees that simplify alike are one class (W - W and h - h are
// 0); the representative is the smallest.
func TestSearchRoutingCanonicalClasses(t *testing.T) {
	cfg := testConfig(t)
	rep, err := Search(context.Background(), cfg, []simcore.Instance{twoIdleClusters()}, SearchSettings{Depth: 2, Screen: 1, Keep: 1000,
		Routing: &RoutingSearch{Terminals: []string{"W", "h"}, Ranking: "g * d"}})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Enumerated != 2+4*2*2 || rep.Canonical >= rep.Enumerated || rep.Ranking != "g * d" || rep.Scope != "arrivals" {
		t.Fatalf("counts: %+v", rep)
	}
	members, seen := 0, map[uint64]bool{}
	for _, k := range rep.Kept {
		members += k.Members
		if seen[k.Formula.Hash()] {
			t.Errorf("%s: two classes with one canonical form", k.Formula)
		}
		seen[k.Formula.Hash()] = true
	}
	// By hand: the smallest size of each canonical form.
	terms, _ := expr.Routing.ParseTerminals([]string{"W", "h"})
	trees, err := enumerate(terms, 2, 1000)
	if err != nil {
		t.Fatal(err)
	}
	smallest := map[uint64]int{}
	for _, tr := range trees {
		if n, ok := smallest[tr.Hash()]; !ok || tr.Size() < n {
			smallest[tr.Hash()] = tr.Size()
		}
	}
	if len(smallest) != rep.Canonical {
		t.Errorf("%d canonical forms, counted %d by hand", rep.Canonical, len(smallest))
	}
	for _, k := range rep.Kept {
		if k.Formula.Size() != smallest[k.Formula.Hash()] {
			t.Errorf("a non-minimal representative: %s", k.Formula)
		}
	}
	if members != rep.Enumerated {
		t.Errorf("classes hold %d trees, enumerated %d", members, rep.Enumerated)
	}
}

// Bad input: a ranking-only terminal in the routing set, a bad scope, an
// unknown ranking, no routing terminals at all; and m (a what-if) under
// strict backfilling, where no what-if is possible.
func TestSearchRoutingBadInput(t *testing.T) {
	cfg := testConfig(t)
	val := []simcore.Instance{twoIdleClusters()}
	for _, c := range []struct {
		rs   RoutingSearch
		want string
	}{
		{RoutingSearch{Terminals: []string{"W", "e"}}, `"e"`},
		{RoutingSearch{Terminals: []string{"W"}, Scope: "some"}, `scope "some"`},
		{RoutingSearch{Terminals: []string{"W"}, Ranking: "tiresias"}, "neither fifo, srsf"},
		{RoutingSearch{}, "no routing terminals"},
	} {
		rs := c.rs
		_, err := Search(context.Background(), cfg, val, SearchSettings{Depth: 1, Routing: &rs})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want an error with %q", c.rs, err, c.want)
		}
	}
	strict := cfg
	strict.Sim.Backfill = "strict"
	for _, scope := range []string{"arrivals", "all"} {
		rs := RoutingSearch{Terminals: []string{"W", "m"}, Scope: scope}
		if _, err := Search(context.Background(), strict, val, SearchSettings{Depth: 1, Routing: &rs}); err == nil || !strings.Contains(err.Error(), "strict") {
			t.Errorf("m in scope %s under strict backfilling: %v, want an error naming strict", scope, err)
		}
	}
}

// Differential: with m (MCT's finish estimate) in scope arrivals the rule
// scheduler is MCT, so R = m with the fixed ranking fifo scores exactly
// what the baseline liquid (mct + fifo + bestfit) scores.
func TestSearchRoutingMIsLiquid(t *testing.T) {
	cfg := testConfig(t)
	_, val, err := LoadData(cfg)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Search(context.Background(), cfg, val, SearchSettings{Depth: 1, Screen: len(val), Keep: 10,
		Routing: &RoutingSearch{Terminals: []string{"m", "W"}, Ranking: "fifo"}})
	if err != nil {
		t.Fatal(err)
	}
	liquid := -1.0
	for _, b := range rep.Baselines {
		if b.Name == "liquid" {
			liquid = b.Score
		}
	}
	found := false
	for _, k := range rep.Kept {
		if k.Formula.String() == "m" {
			found = true
			if k.Validation != liquid {
				t.Errorf("R = m scores %v, liquid %v", k.Validation, liquid)
			}
			for i, o := range k.Objectives {
				if o != rep.BaselineObj["liquid"][i] {
					t.Errorf("instance %d: R = m %v, liquid %v", i, o, rep.BaselineObj["liquid"][i])
				}
			}
		}
	}
	if !found {
		t.Error("R = m was not scored")
	}
}

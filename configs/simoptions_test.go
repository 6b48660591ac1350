package configs

import (
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/evogp/evogp/simcore"
)

// objective.kind is checked against simcore's table of kinds, and every
// kind of the table resolves with the section's parameters.
func TestObjectiveKindFromTheTable(t *testing.T) {
	c := Default()
	c.Objective.Kind = "both"
	if err := c.Validate(); err == nil || err.Error() != `objective.kind = "both": must be multi, single or deadline` {
		t.Fatalf("unknown kind: %v", err)
	}
	for _, k := range simcore.ObjectiveKinds() {
		c := Default()
		c.Objective = Objective{Kind: k.Name(), Weights: [3]float64{1, 0, 2}, Omega: 0.25}
		if err := c.Validate(); err != nil {
			t.Fatalf("%s: %v", k.Name(), err)
		}
		opts, err := SimOptions(c)
		if err != nil {
			t.Fatal(err)
		}
		if want := (simcore.Objective{Kind: k, Weights: [3]float64{1, 0, 2}, Omega: 0.25}); opts.Objective != want {
			t.Fatalf("%s: %+v, want %+v", k.Name(), opts.Objective, want)
		}
	}
	c = Default()
	c.Objective = Objective{Kind: "single", Omega: 2}
	if _, err := SimOptions(c); err == nil || !strings.Contains(err.Error(), "omega") {
		t.Fatalf("ω = 2 accepted: %v", err)
	}
	c = Default()
	c.Sim.Trigger, c.Sim.Backfill = "arrival+completion", "greedy"
	opts, err := SimOptions(c)
	if err != nil || opts.Trigger != simcore.TriggerArrivalCompletion || opts.Backfill != simcore.BackfillGreedy || opts.Objective != simcore.DefaultObjective() {
		t.Fatalf("%+v %v", opts, err)
	}
	p := EVOParams(c)
	if p.Population != c.EVO.Population || p.Seed != c.Seed || p.Workers != c.EVO.Workers || p.Init != c.EVO.Init {
		t.Fatalf("EVOParams %+v from %+v", p, c.EVO)
	}
}

// sim.arrival_ties: empty and id are the default order, numpy-quicksort
// reaches the simulator, anything else is refused by Validate and
// SimOptions alike; the key is left out of a default config's YAML (so
// configuration hashes of existing configs do not change).
func TestArrivalTiesKey(t *testing.T) {
	for in, want := range map[string]simcore.ArrivalTies{"": simcore.TiesByID, "id": simcore.TiesByID, "numpy-quicksort": simcore.TiesNumpyQuicksort} {
		c := Default()
		c.Sim.ArrivalTies = in
		if err := c.Validate(); err != nil {
			t.Fatalf("%q: %v", in, err)
		}
		opts, err := SimOptions(c)
		if err != nil || opts.ArrivalTies != want {
			t.Fatalf("%q: %q, %v", in, opts.ArrivalTies, err)
		}
	}
	c := Default()
	c.Sim.ArrivalTies = "stable"
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "sim.arrival_ties") {
		t.Fatalf("unknown tie order: %v", err)
	}
	if _, err := SimOptions(c); err == nil {
		t.Fatal("SimOptions accepted an unknown tie order")
	}
	b, err := yaml.Marshal(Default())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "arrival_ties") {
		t.Fatal("a default config's YAML names arrival_ties")
	}
}

// TestObjectiveRecord: the record keeps exactly the parameters the kind
// reads, so two configs with the same objective give equal records.
func TestObjectiveRecord(t *testing.T) {
	multi, err := Objective{Kind: "multi", Weights: [3]float64{1, 2, 3}, Omega: 0.3}.Record()
	if err != nil || multi.String() != "multi weights=1,2,3" {
		t.Errorf("multi: %v %v", multi, err)
	}
	a, _ := Objective{Kind: "single", Weights: [3]float64{1, 1, 1}, Omega: 0.3}.Record()
	b, _ := Objective{Kind: "single", Weights: [3]float64{5, 0, 1}, Omega: 0.3}.Record()
	if !a.Equal(b) || a.String() != "single omega=0.3" {
		t.Errorf("single ignores the weights: %v vs %v", a, b)
	}
	def, err := Objective{Weights: [3]float64{1, 1, 1}}.Record()
	if err != nil || def.Kind != "multi" {
		t.Errorf("the empty kind is multi: %v %v", def, err)
	}
	if _, err := (Objective{Kind: "single", Omega: 2}).Record(); err == nil {
		t.Error("ω = 2 accepted")
	}
	if _, err := (Objective{Kind: "nope"}).Record(); err == nil {
		t.Error("unknown kind accepted")
	}
}

package configs

import (
	"strings"
	"testing"

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

package reports

import (
	"math"
	"testing"
)

// Hand-computed: point a ran under seeds 1 and 2 (objectives 1 and 3:
// mean 2, sd √2), point b once.
func TestSeedAggregates(t *testing.T) {
	rows := []SweepRow{
		{Point: "a", Omega: 0.5, Seed: 1, Objective: 1, AvgJCT: 2, MaxQT: 4},
		{Point: "b", Omega: 1, Seed: 1, Objective: 5, AvgJCT: 5, MaxQT: 6},
		{Point: "a", Omega: 0.5, Seed: 2, Objective: 3, AvgJCT: 4, MaxQT: 4},
	}
	agg := SeedAggregates(rows)
	if len(agg) != 2 || agg[0].Point != "a" || agg[0].N != 2 || agg[1].N != 1 {
		t.Fatalf("%+v", agg)
	}
	a := agg[0]
	if a.Objective.Mean != 2 || math.Abs(a.Objective.SD-math.Sqrt2) > 1e-12 || a.AvgJCT.Mean != 3 || a.MaxQT.SD != 0 || agg[1].Objective.Mean != 5 {
		t.Fatalf("point a: %+v", a)
	}
	if SeedAggregates(rows[:2]) != nil {
		t.Error("one seed per point still aggregated")
	}
}

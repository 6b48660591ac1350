package main

import (
	"math"
	"testing"

	"github.com/evogp/evogp/internal/pareto"
	"github.com/evogp/evogp/reports"
)

// Hand case of the test hypervolume the study reports: two instances,
// SRSF (avg_jct, max_qt) = (2, 4) on i1 and (4, 8) on i2.
//
//	a:    (2, 2) and (4, 4)  → ÷ SRSF (1, 0.5), (1, 0.5)   → mean (1, 0.5)
//	base: (4, 2) and (8, 4)  → (2, 0.5), (2, 0.5)          → mean (2, 0.5)
//	m1:   (1, 4) and (4, 8)  → (0.5, 1), (1, 1)            → mean (0.75, 1)
//	m2:   (3, 1) and (6, 2)  → (1.5, 0.25), (1.5, 0.25)    → mean (1.5, 0.25)
//
// Reference: 1.1 × max(1, worst baseline) = (2.2, 1.1). Front {m1, m2}:
// sorted by avg_jct, m1 adds (2.2 − 0.75)(1.1 − 1) = 0.145, m2 adds
// (2.2 − 1.5)(1 − 0.25) = 0.525: 0.67. A second seed's row of an
// instance is ignored (the first counts).
func TestStudyHypervolumeHandCase(t *testing.T) {
	var rows []reports.ResultRow
	add := func(s string, j1, q1, j2, q2 float64) {
		rows = append(rows,
			reports.ResultRow{Instance: "i1", Scheduler: s, AvgJCT: j1, MaxQT: q1},
			reports.ResultRow{Instance: "i2", Scheduler: s, AvgJCT: j2, MaxQT: q2},
			reports.ResultRow{Instance: "i2", Scheduler: s, Seed: 2, AvgJCT: 99, MaxQT: 99})
	}
	add("srsf", 2, 4, 4, 8)
	add("base", 4, 2, 8, 4)
	add("m1", 1, 4, 4, 8)
	add("m2", 3, 1, 6, 2)
	vec, err := normalisedMeans(rows, "srsf", []string{"avg_jct", "max_qt"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][2]float64{"srsf": {1, 1}, "base": {2, 0.5}, "m1": {0.75, 1}, "m2": {1.5, 0.25}}
	got := map[string][]float64{}
	for s, w := range want {
		v, err := vec(s)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(v[0]-w[0]) > 1e-12 || math.Abs(v[1]-w[1]) > 1e-12 {
			t.Errorf("%s: %v, want %v", s, v, w)
		}
		got[s] = v
	}
	ref := referencePoint(map[string][]float64{"base": got["base"]}, 2)
	if math.Abs(ref[0]-2.2) > 1e-12 || math.Abs(ref[1]-1.1) > 1e-12 {
		t.Fatalf("reference %v, want (2.2, 1.1)", ref)
	}
	hv, err := pareto.Hypervolume([][]float64{got["m1"], got["m2"]}, ref)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(hv-0.67) > 1e-12 {
		t.Errorf("hypervolume %v, want 0.67", hv)
	}
	if _, err := vec("nobody"); err == nil {
		t.Error("a scheduler without rows gave no error")
	}
	if _, err := normalisedMeans(rows, "none", []string{"avg_jct"}); err == nil {
		t.Error("no SRSF rows gave no error")
	}
}

// Two schedulers with identical results get bit-identical means, so
// neither dominates the other (the sum once ran in map order and did
// not: the sweep "dominated" wait-first, which it equals).
func TestStudyIdenticalResultsIdenticalMeans(t *testing.T) {
	var rows []reports.ResultRow
	for i := range 40 {
		inst := string(rune('a'+i%26)) + string(rune('a'+i/26))
		x := 0.1 + float64(i*i%17)/7
		y := 1 + float64(i*i%13)/3
		rows = append(rows,
			reports.ResultRow{Instance: inst, Scheduler: "srsf", CQAvg: 1 + float64(i%5)/3, CQMax: 3 + float64(i%7)/9},
			reports.ResultRow{Instance: inst, Scheduler: "a", CQAvg: x, CQMax: y},
			reports.ResultRow{Instance: inst, Scheduler: "b", CQAvg: x, CQMax: y})
	}
	for range 20 {
		vec, err := normalisedMeans(rows, "srsf", []string{"cq_avg", "cq_max"})
		if err != nil {
			t.Fatal(err)
		}
		a, _ := vec("a")
		b, _ := vec("b")
		if a[0] != b[0] || a[1] != b[1] || pareto.Dominates(a, b) || pareto.Dominates(b, a) {
			t.Fatalf("identical results, means %v and %v", a, b)
		}
	}
}

package main

import (
	"strings"
	"testing"

	"github.com/evogp/evogp/reports"
)

// Hand case: two instances, two baselines and two members. Means
// (cq_avg, cq_max, 1 − util): b1 (1, 10, 0.5), b2 (3, 4, 0.5),
// m1 (0.5, 12, 0.5), m2 (4, 3, 0.5).
// (1, 1, 1): b1 11.5, b2 7.5, m1 13, m2 7.5 → m2 ties b2, does not beat.
// (1, 0.1, 1): b1 2.5, b2 3.9, m1 2.2, m2 4.8 → m1 beats b1.
// (0.1, 1, 1): b1 10.6, b2 4.8, m1 12.55, m2 3.9 → m2 beats b2.
func TestEq5TableHandCase(t *testing.T) {
	var rows []reports.ResultRow
	add := func(s string, a1, m1, a2, m2 float64) {
		rows = append(rows,
			reports.ResultRow{Instance: "i1", Scheduler: s, CQAvg: a1, CQMax: m1, Util: 0.4},
			reports.ResultRow{Instance: "i2", Scheduler: s, CQAvg: a2, CQMax: m2, Util: 0.6},
			reports.ResultRow{Instance: "i2", Scheduler: s, CQAvg: 99, CQMax: 99, Util: 0}) // a second seed: ignored
	}
	add("b1", 0, 8, 2, 12)
	add("b2", 2, 4, 4, 4)
	add("m1", 0.5, 6, 0.5, 18)
	add("m2", 4, 2, 4, 4)
	got, err := eq5Table(rows, [][3]float64{{1, 1, 1}, {1, 0.1, 1}, {0.1, 1, 1}}, []string{"m1", "m2"}, []string{"b1", "b2"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []eq5Row{
		{W: [3]float64{1, 1, 1}, Baseline: "b2", BaselineV: 7.5, Member: "m2", MemberV: 7.5, Beats: false},
		{W: [3]float64{1, 0.1, 1}, Baseline: "b1", BaselineV: 2.5, Member: "m1", MemberV: 2.2, Beats: true},
		{W: [3]float64{0.1, 1, 1}, Baseline: "b2", BaselineV: 4.8, Member: "m2", MemberV: 3.9, Beats: true},
	}
	for i, w := range want {
		g := got[i]
		if g.Baseline != w.Baseline || g.Member != w.Member || g.Beats != w.Beats || !near(g.BaselineV, w.BaselineV) || !near(g.MemberV, w.MemberV) {
			t.Errorf("%v: got %+v, want %+v", w.W, g, w)
		}
	}
	// An eval under (1, 0.1, 1) where b2 optimises that vector: b2@1,0.1,1
	// at (0.5, 10, 0.5) scores 2.0 and beats m1's 2.2; b1 there is slower
	// and changes nothing; the other vectors are as before.
	own := map[[3]float64][]reports.ResultRow{{1, 0.1, 1}: {
		{Instance: "i1", Scheduler: "b2", CQAvg: 0.5, CQMax: 10, Util: 0.5},
		{Instance: "i1", Scheduler: "b1", CQAvg: 9, CQMax: 90, Util: 0.5},
	}}
	got, err = eq5Table(rows, [][3]float64{{1, 1, 1}, {1, 0.1, 1}, {0.1, 1, 1}}, []string{"m1", "m2"}, []string{"b1", "b2"}, own)
	if err != nil {
		t.Fatal(err)
	}
	want[1] = eq5Row{W: [3]float64{1, 0.1, 1}, Baseline: "b2@1,0.1,1", BaselineV: 2.0, Member: "m1", MemberV: 2.2, Beats: false}
	for i, w := range want {
		g := got[i]
		if g.Baseline != w.Baseline || g.Member != w.Member || g.Beats != w.Beats || !near(g.BaselineV, w.BaselineV) || !near(g.MemberV, w.MemberV) {
			t.Errorf("with an own-weights eval, %v: got %+v, want %+v", w.W, g, w)
		}
	}
	if _, err := eq5Table(rows, Eq5Vectors, []string{"m3"}, []string{"b1"}, nil); err == nil || !strings.Contains(err.Error(), "m3") {
		t.Errorf("a member without results: %v", err)
	}
}

func near(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }

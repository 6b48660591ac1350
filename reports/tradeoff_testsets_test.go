package reports

import (
	"strings"
	"testing"
)

// Rows scored on different test sets (seed=1,2 varies the data too) are
// never averaged: each test set is its own series, named in the legend,
// and the baselines, whose mean would mix them, are left out with a note.
// Rows of one test set (gp.seed=1,2) are averaged as before.
func TestTradeoffKeepsTestSetsApart(t *testing.T) {
	rows := []SweepRow{
		{Point: "w0", Omega: 0, Seed: 1, AvgJCT: 2, MaxQT: 10},
		{Point: "w0", Omega: 0, Seed: 2, AvgJCT: 4, MaxQT: 30},
		{Point: "w1", Omega: 1, Seed: 1, AvgJCT: 1, MaxQT: 20},
		{Point: "w1", Omega: 1, Seed: 2, AvgJCT: 3, MaxQT: 40},
	}
	sets := []string{"data seed 1", "data seed 2", "data seed 1", "data seed 2"}
	f, err := TradeoffPlotFor(rows, sets, statsTable())
	if err != nil {
		t.Fatal(err)
	}
	svg, err := f.Render("svg")
	if err != nil {
		t.Fatal(err)
	}
	s := string(svg)
	for _, want := range []string{
		"learned (GP), test set 1: data seed 1, one seed",
		"learned (GP), test set 2: data seed 2, one seed",
		"(baselines not drawn: their mean would mix 2 test sets)",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("legend lacks %q", want)
		}
	}
	if strings.Contains(s, "mean and 95% CI") {
		t.Error("rows of different test sets averaged")
	}
	got := map[string]bool{}
	for _, tip := range f.Tips {
		got[tip.Text] = true
	}
	for _, want := range []string{
		"learned (GP), test set 1: data seed 1, ω = 0: AvgJCT (h) 2 (one seed)",
		"learned (GP), test set 2: data seed 2, ω = 0: AvgJCT (h) 4 (one seed)",
		"learned (GP), test set 2: data seed 2, ω = 1: MaxQT (h) 40 (one seed)",
	} {
		if !got[want] {
			t.Errorf("no tooltip %q (have %d)", want, len(f.Tips))
		}
	}
	if len(f.Tips) != 8 {
		t.Errorf("%d tooltips, want 2 sets × 2 ω × 2 panels", len(f.Tips))
	}
	for label := range f.LabelColors {
		if !strings.HasPrefix(label, "learned") {
			t.Errorf("baseline %s drawn over mixed test sets", label)
		}
	}
	// One test set: averaged over the seeds, baselines drawn.
	one, err := TradeoffPlotFor(rows, []string{"s", "s", "s", "s"}, statsTable())
	if err != nil {
		t.Fatal(err)
	}
	svg, _ = one.Render("svg")
	if !strings.Contains(string(svg), "learned (GP), mean and 95% CI over 2 seeds") || len(one.LabelColors) < 2 {
		t.Error("rows of one test set not averaged, or baselines missing")
	}
	if _, err := TradeoffPlotFor(rows, sets[:3], nil); err == nil {
		t.Error("test sets of the wrong length accepted")
	}
}

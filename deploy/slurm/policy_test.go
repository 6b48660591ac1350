package slurm

import (
	"slices"
	"strings"
	"testing"
)

// frontBest is a hand-written front run (gp.selection: nsga2) of two
// members over (cq_avg, util): g·d is better on util, 0 − q on cq_avg.
const frontBest = `{
  "tree": ["*", "g", "d"], "infix": "g * d", "terminals": ["d", "q", "u", "g"],
  "candidate": "mct+formula+bestfit", "time_unit": "hours",
  "front": {"objectives": ["cq_avg", "util"], "weights": [1, 1], "pick": 0,
    "members": [
      {"label": "front-1", "tree": ["*", "g", "d"], "infix": "g * d", "simplified": "g * d", "size": 3, "hash": "a", "validation": [1.0, 0.5], "score": 1.5, "omega_lo": 0, "omega_hi": 0.5},
      {"label": "front-2", "tree": ["-", 0, "q"], "infix": "0 - q", "simplified": "0 - q", "size": 3, "hash": "b", "validation": [0.5, 1.0], "score": 1.5, "omega_lo": 0.5, "omega_hi": 1}
    ]}
}`

// TestOmegaPicksFrontMember: --omega runs the member ω picks (ω = 0
// weighs util only: g·d; ω = 1 cq_avg only: 0 − q); without it, the run's
// own pick.
func TestOmegaPicksFrontMember(t *testing.T) {
	best := writeBest(t, frontBest)
	for _, c := range []struct {
		omega   float64
		given   bool
		ranking string
		order   []int64
	}{
		{0, true, "g * d", []int64{2, 3, 1, 4}},
		{1, true, "0 - q", []int64{3, 1, 2, 4}},
		{0, false, "g * d", []int64{2, 3, 1, 4}},
	} {
		l, err := LoadLearned(best, c.omega, c.given)
		if err != nil {
			t.Fatal(err)
		}
		if l.Ranking != c.ranking || !strings.Contains(l.Label, c.ranking) {
			t.Errorf("ω %v (given %v): ranking %q label %q, want %q", c.omega, c.given, l.Ranking, l.Label, c.ranking)
		}
		_, ds, err := planOf(handQueue(), DefaultMapping(), l.Scheduler)
		if err != nil {
			t.Fatal(err)
		}
		if got := order(ds, "gpu"); !slices.Equal(got, c.order) {
			t.Errorf("ω %v: order %v, want %v", c.omega, got, c.order)
		}
	}
	if _, err := LoadLearned(writeBest(t, twoTreeBest), 0.5, true); err == nil || !strings.Contains(err.Error(), "learned no front") {
		t.Errorf("--omega on a run without a front: %v", err)
	}
}

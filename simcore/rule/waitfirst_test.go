package rule_test

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/simcore"
	"github.com/evogp/evogp/simcore/rule"
)

// The baseline wait-first is the rule routing tree m in scope all with the
// ranking 0 − u·q (hours) and best fit: job for job and segment for
// segment the same as rule+formula+bestfit with the compiled formula
// "0-u*q" (evaluated as package formula does on the paper's terminals), on
// 100 random instances × the backfill modes where m is allowed. Its rule
// parameters ignore the "rule" section.
func TestWaitFirstIsTheFormulaRule(t *testing.T) {
	r := registry()
	if !slices.Contains(r.Baselines(), rule.WaitFirst) {
		t.Fatalf("baselines %v lack %s", r.Baselines(), rule.WaitFirst)
	}
	prog := expr.Compile(expr.MustParse("0-u*q"))
	formula := simcore.RankingFunc(func(j simcore.JobView) float64 {
		return prog.Eval(simcore.Hours(j.Remaining), simcore.Hours(j.Queued), float64(j.Priority), float64(j.GPUs))
	})
	other, err := rule.ParseParams("W", "arrivals", true)
	if err != nil {
		t.Fatal(err)
	}
	mine, err := r.Parse("wait-first", simcore.Params{Sections: map[string]any{rule.SectionName: other}})
	if err != nil {
		t.Fatal(err)
	}
	if mine.Name() != "wait-first" {
		t.Fatalf("name %q", mine.Name())
	}
	theirs, err := rule.NewScheduler("ref", rule.WaitFirstParams(), formula, simcore.BestFit{})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(39, 1))
	moved := 0
	for i := range 100 {
		inst := randomInstance(rng, fmt.Sprintf("wf-%d", i))
		for _, b := range []simcore.Backfill{simcore.BackfillNone, simcore.BackfillConservative, simcore.BackfillGreedy} {
			opts := simcore.Options{Backfill: b}
			got, want := simulate(t, inst, mine, opts), simulate(t, inst, theirs, opts)
			if !reflect.DeepEqual(got.Jobs, want.Jobs) || !reflect.DeepEqual(got.Segments, want.Segments) {
				t.Fatalf("%s %v: wait-first differs from rule(m, all)+formula 0-u*q+bestfit", inst.Name, b)
			}
			fifo := simulate(t, inst, ruleScheduler(t, "m", "all", false, "fifo", "bestfit"), opts)
			if !reflect.DeepEqual(got.Jobs, fifo.Jobs) {
				moved++
			}
		}
	}
	if moved == 0 {
		t.Fatal("wait-first never differs from rule(m, all) + fifo: the test cannot tell the rankings apart")
	}
}

// WeightedWait is 0 − u·q in hours, by hand.
func TestWeightedWaitByHand(t *testing.T) {
	j := simcore.JobView{Priority: 3, Queued: 5400}
	if got := (simcore.WeightedWait{}).Priority(j); got != -4.5 {
		t.Fatalf("got %v, want -4.5", got)
	}
}

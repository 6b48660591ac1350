package learn

import (
	"context"
	"reflect"
	"testing"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/policies"
	"github.com/evogp/evogp/simcore"
)

// Issue 39: the default config learns both trees in scope all, and its
// first initial member (gp.seed_routing[0] with gp.seed_formulas[0]) is
// the baseline wait-first exactly — job for job on the smoke config's test
// instances — so the search starts from the strongest hand-written rule.
func TestQuickStartsFromWaitFirst(t *testing.T) {
	q, err := configs.Load("quick")
	if err != nil {
		t.Fatal(err)
	}
	if q.GP.RoutingScope() != "all" || !q.GP.LearnsRouting() {
		t.Fatalf("quick learns %v in scope %s, want routing and ranking in scope all", q.GP.Learn, q.GP.RoutingScope())
	}
	routing, err := parseRouting(q.GP.SeedRouting[0])
	if err != nil {
		t.Fatal(err)
	}
	learned, err := LearnedScheduler(q, routing, expr.MustParse(q.GP.SeedFormulas[0]))
	if err != nil {
		t.Fatal(err)
	}
	wf, err := policies.ParseWith("wait-first", nil)
	if err != nil {
		t.Fatal(err)
	}
	insts, err := LoadTest(testConfig(t))
	if err != nil {
		t.Fatal(err)
	}
	opts, err := SimOptions(q)
	if err != nil {
		t.Fatal(err)
	}
	for i := range insts {
		a, err := simcore.Simulate(context.Background(), &insts[i], learned, opts)
		if err != nil {
			t.Fatal(err)
		}
		b, err := simcore.Simulate(context.Background(), &insts[i], wf, opts)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(a.Jobs, b.Jobs) {
			t.Fatalf("%s: quick's first seed is not wait-first", insts[i].Name)
		}
	}
}

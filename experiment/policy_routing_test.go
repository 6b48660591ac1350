package experiment

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/formula"
	"github.com/evogp/evogp/policies"
	"github.com/evogp/evogp/simcore"
	"github.com/evogp/evogp/simcore/rule"
)

// writeTwoTreeRun writes a best.json of a two-tree run into a fresh run
// directory.
func writeTwoTreeRun(t *testing.T, body string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, formula.BestFile), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// Any LABEL=RUN entry of a two-tree run — gp=, evo-gp=, any other label —
// runs the whole learned scheduler: rule(R, scope) + f + placer, built by
// hand here from the spec, equal instance by instance, in both scopes;
// different from MCT + f + best fit (so the routing tree is not dropped).
func TestTwoTreeRunPolicy(t *testing.T) {
	insts := evoTestInstances(t, 3)
	opts, err := DefaultSimSettings().Options()
	if err != nil {
		t.Fatal(err)
	}
	for _, scope := range []string{"arrivals", "all"} {
		run := writeTwoTreeRun(t, `{"infix": "g * d", "learn": ["routing", "ranking"], "routing_infix": "W + 0.5 * x",
			"routing_terminals": ["W", "x"], "scope": "`+scope+`", "candidate": "rule+formula+bestfit"}`)
		ps, err := DefaultPolicyBuilder(false).Policies("gp=" + run + ",evo-gp=" + run + ",mine=" + run + ",plain=g*d")
		if err != nil {
			t.Fatal(err)
		}
		sc, _ := rule.ParseScope(scope)
		byHand, err := policies.Parse("rule+formula+bestfit", simcore.Params{
			Rankings: map[string]simcore.Ranking{"formula": formula.NewRanking(expr.MustParse("g * d"), false)},
			Sections: map[string]any{rule.SectionName: rule.Params{Routing: expr.Routing.MustParse("W + 0.5 * x"), Scope: sc}},
		})
		if err != nil {
			t.Fatal(err)
		}
		differs := false
		for i := range insts {
			want, err := simcore.Simulate(context.Background(), &insts[i], byHand, opts)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range ps[:3] {
				if !strings.HasPrefix(p.Name, "rule+formula+bestfit[R=W + 0.5 * x;scope="+scope) {
					t.Errorf("%s runs as %s", p.Label, p.Name)
				}
				got, err := SimulateAll(context.Background(), insts[i:i+1], p, opts, 1, nil)
				if err != nil {
					t.Fatal(err)
				}
				if got[0].Metrics != want.Metrics {
					t.Errorf("%s, scope %s, instance %d: %+v, by hand %+v", p.Label, scope, i, got[0].Metrics, want.Metrics)
				}
			}
			plain, err := SimulateAll(context.Background(), insts[i:i+1], ps[3], opts, 1, nil)
			if err != nil {
				t.Fatal(err)
			}
			differs = differs || plain[0].Metrics != want.Metrics
		}
		if !differs {
			t.Errorf("scope %s: the learned rule scheduler behaves like MCT + f + best fit on every instance; the test proves nothing", scope)
		}
	}
}

// A two-tree best.json missing a tree, or with a ranking-only terminal in
// its routing formula, is one clear error.
func TestTwoTreeRunBadInput(t *testing.T) {
	for _, c := range []struct{ body, want string }{
		{`{"infix": "g * d", "learn": ["routing", "ranking"], "scope": "all", "candidate": "rule+formula+bestfit", "routing_terminals": ["W"]}`, "the routing tree R is missing"},
		{`{"learn": ["routing", "ranking"], "routing_infix": "W", "scope": "all", "candidate": "rule+formula+bestfit", "routing_terminals": ["W"]}`, "the ranking tree f is missing"},
		{`{"infix": "g * d", "learn": ["routing", "ranking"], "routing_infix": "W + e", "scope": "all", "candidate": "rule+formula+bestfit", "routing_terminals": ["W"]}`, "it is a ranking terminal"},
		{`{"infix": "g * d", "learn": ["routing", "ranking"], "routing_infix": "W", "scope": "some", "candidate": "rule+formula+bestfit", "routing_terminals": ["W"]}`, `"scope" = "some"`},
		{`{"infix": "g * d", "routing_infix": "W"}`, `does not list routing`},
	} {
		run := writeTwoTreeRun(t, c.body)
		if _, err := DefaultPolicyBuilder(false).Policies("mine=" + run); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want %q", c.body, err, c.want)
		}
	}
}

package learn

import (
	"context"
	"strings"
	"testing"

	"github.com/evogp/evogp/expr"
)

// Issue 26: the equivalence warnings of a two-tree individual say which
// tree matches which baseline. Routing m (scope arrivals) with ranking
// q - a (on the sampled decisions: arrival order, FIFO) is liquid; m + 0
// (m on the simulator's inputs) with g·d is tiresias; W with srsf's g·d is named tree by tree, with no
// baseline (least work is no registered allocator); a routing tree that
// matches nothing gives no pair line.
func TestTwoTreeWarningsNameEachTree(t *testing.T) {
	cfg := testConfig(t, twoTreeOverrides("arrivals")...)
	test, err := LoadTest(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		routing, ranking string
		first            string // the pair line, "" for none
		also             []string
	}{
		{"m", "q - a", "both trees match a reference: routing tree R ≡ mct, ranking tree f ≡ fifo (scope arrivals, placer bestfit): the learned scheduler is the baseline liquid (mct+fifo+bestfit)",
			[]string{"routing tree R: m equals MCT's m", "ranking tree f: the formula ranks jobs exactly like fifo"}},
		{"m + 0", "g * d", "both trees match a reference: routing tree R ≡ mct, ranking tree f ≡ srsf (scope arrivals, placer bestfit): the learned scheduler is the baseline tiresias (mct+srsf+bestfit)",
			[]string{"routing tree R: m + 0 equals MCT's m", "ranking tree f: the formula ranks jobs exactly like srsf"}},
		{"W", "d * g", "both trees match a reference: routing tree R ≡ least work, ranking tree f ≡ srsf",
			[]string{"routing tree R: W equals least queued work W"}},
		{"W * x + h", "d * g", "", []string{"ranking tree f: the formula ranks jobs exactly like srsf"}},
		{"2 - 1", "g * d", "both trees match a reference: routing tree R ≡ constant, ranking tree f ≡ srsf",
			[]string{"routing tree R: 2 - 1 is constant on the simulator's inputs"}},
	} {
		ws, err := IndividualWarnings(context.Background(), cfg, expr.Routing.MustParse(c.routing), expr.MustParse(c.ranking), test, 200)
		if err != nil {
			t.Fatal(err)
		}
		all := strings.Join(ws, "\n")
		switch {
		case c.first == "" && strings.Contains(all, "both trees match"):
			t.Errorf("R = %s, f = %s: a pair line for an unmatched routing tree:\n%s", c.routing, c.ranking, all)
		case c.first != "" && (len(ws) == 0 || !strings.HasPrefix(ws[0], c.first)):
			t.Errorf("R = %s, f = %s: first warning is not\n%s\ngot:\n%s", c.routing, c.ranking, c.first, all)
		}
		for _, w := range c.also {
			if !strings.Contains(all, w) {
				t.Errorf("R = %s, f = %s: no warning %q in:\n%s", c.routing, c.ranking, w, all)
			}
		}
	}
}

// Issue 39: in scope all, routing m with the ranking 0 − u·q (written
// another way) is the baseline wait-first; in scope arrivals the same pair
// is no baseline (MCT + wait is not registered).
func TestTwoTreeWarningsNameWaitFirst(t *testing.T) {
	for _, c := range []struct{ scope, want string }{
		{"all", "both trees match a reference: routing tree R ≡ mct, ranking tree f ≡ wait (scope all, placer bestfit): the learned scheduler is the baseline wait-first (rule(m, scope all)+wait+bestfit)"},
		{"arrivals", "both trees match a reference: routing tree R ≡ mct, ranking tree f ≡ wait (scope arrivals, placer bestfit): the learned scheduler is mct+wait+bestfit"},
	} {
		cfg := testConfig(t, twoTreeOverrides(c.scope)...)
		test, err := LoadTest(cfg)
		if err != nil {
			t.Fatal(err)
		}
		ws, err := IndividualWarnings(context.Background(), cfg, expr.Routing.MustParse("m"), expr.MustParse("q * (0 - u)"), test, 200)
		if err != nil {
			t.Fatal(err)
		}
		if len(ws) == 0 || ws[0] != c.want {
			t.Errorf("scope %s: first warning is not\n%s\ngot:\n%s", c.scope, c.want, strings.Join(ws, "\n"))
		}
	}
}

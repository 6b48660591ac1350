package learn

import (
	"context"
	"fmt"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/simcore"
)

// referenceRoutings are the routing rules a learned routing tree is
// compared with: the formula of each, and what it is.
var referenceRoutings = []struct{ formula, name string }{
	{"m", "MCT's m (earliest estimated finish)"},
	{"W", "least queued work W"},
	{"0 - o", "stay on the current cluster (0 - o)"},
	{"0 - h", "the user's cluster (0 - h)"},
	{"0 - f", "most free GPUs (0 - f)"},
	{"x", "earliest fit x"},
}

// IndividualWarnings are Warnings for a learned individual, naming the
// tree each warning is about. With a routing tree, the ranking warnings
// are measured on decisions sampled while the learned rule scheduler runs
// ("ranking tree f: …"), and the routing tree is compared with reference
// routing rules ("routing tree R: …"): it is reported equal to one when
// both simplify to the same canonical tree, or constant when it reads no
// terminal (then every feasible cluster ties and the tie order — current
// cluster, user cluster, lowest index — decides). routing nil is Warnings.
func IndividualWarnings(ctx context.Context, cfg configs.Config, routing, formula *expr.Tree, insts []simcore.Instance, sample int) ([]string, error) {
	if routing == nil {
		return Warnings(ctx, cfg, formula, insts, sample)
	}
	mk := func(r simcore.Ranking) (simcore.Scheduler, error) { return LearnedSchedulerWith(cfg, routing, r) }
	rank, err := rankingWarnings(ctx, cfg, formula, mk, insts, sample)
	if err != nil {
		return nil, err
	}
	out := routingWarnings(routing)
	for _, w := range rank {
		out = append(out, "ranking tree f: "+w)
	}
	return out, nil
}

// routingWarnings compares a routing tree with the reference routings.
func routingWarnings(routing *expr.Tree) []string {
	simp := expr.Simplify(routing)
	if simp.Terminals().Len() == 0 {
		return []string{fmt.Sprintf("routing tree R: %s is constant (= %s): every feasible cluster ties, so the tie order (current cluster, then the user's, then the lowest index) decides", routing, simp)}
	}
	var out []string
	for _, ref := range referenceRoutings {
		t, err := parseRouting(ref.formula)
		if err != nil {
			continue // the reference names a terminal this build lacks
		}
		if t.Hash() == simp.Hash() {
			out = append(out, fmt.Sprintf("routing tree R: %s equals %s", routing, ref.name))
		}
	}
	return out
}

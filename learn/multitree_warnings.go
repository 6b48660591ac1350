package learn

import (
	"context"
	"fmt"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/policies"
	"github.com/evogp/evogp/simcore"
	"github.com/evogp/evogp/simcore/rule"
)

// referenceRoutings are the routing rules a learned routing tree is
// compared with: the formula of each, a short name (the allocator's, for
// MCT) and what it is.
var referenceRoutings = []struct{ formula, short, name, label string }{
	{"m", "mct", "MCT's m (earliest estimated finish)", "MCT"},
	{"W", "least work", "least queued work W", "least queued work"},
	{"0 - o", "stay", "stay on the current cluster (0 - o)", "stay"},
	{"0 - h", "user", "the user's cluster (0 - h)", "the user's cluster"},
	{"0 - f", "most free", "most free GPUs (0 - f)", "most free GPUs"},
	{"x", "earliest fit", "earliest fit x", "earliest fit"},
}

// IndividualWarnings are Warnings for a learned individual, naming the
// tree each warning is about. With a routing tree, the ranking warnings
// are measured on decisions sampled while the learned rule scheduler runs
// ("ranking tree f: …"), and the routing tree is compared with reference
// routing rules ("routing tree R: …"): it is reported equal to one when
// both simplify on the simulator's domain to the same canonical tree, or
// constant when it reads no terminal there (then every feasible cluster
// ties and the tie order — current cluster, user cluster, lowest index —
// decides). When both trees match
// a reference, the first warning names the pair, "routing tree R ≡ mct,
// ranking tree f ≡ fifo", and the baseline it is, if any (liquid: mct +
// fifo + bestfit, scope arrivals). routing nil is Warnings.
func IndividualWarnings(ctx context.Context, cfg configs.Config, routing, formula *expr.Tree, insts []simcore.Instance, sample int) ([]string, error) {
	ws, _, _, err := individualWarningsReadings(ctx, cfg, routing, formula, insts, sample)
	return ws, err
}

// individualWarningsReadings is IndividualWarnings and the readings of
// the two trees that printed formulas carry ("≡ m (MCT)", "FIFO-like
// (…)"; "" for none; routing "" without a routing tree).
func individualWarningsReadings(ctx context.Context, cfg configs.Config, routing, formula *expr.Tree, insts []simcore.Instance, sample int) (ws []string, routeReading, rankReading string, err error) {
	if routing == nil {
		mk := func(r simcore.Ranking) (simcore.Scheduler, error) {
			return policies.ParseWith(candidateSpec(cfg.GP.Allocator, cfg.GP.Placer), map[string]simcore.Ranking{"formula": r})
		}
		ws, _, rankReading, err = rankingWarningsReading(ctx, cfg, formula, mk, insts, sample)
		return ws, "", rankReading, err
	}
	mk := func(r simcore.Ranking) (simcore.Scheduler, error) { return LearnedSchedulerWith(cfg, routing, r) }
	rank, rankLike, rankReading, err := rankingWarningsReading(ctx, cfg, formula, mk, insts, sample)
	if err != nil {
		return nil, "", "", err
	}
	route, routeLike := routingWarnings(routing)
	var out []string
	if routeLike != "" && rankLike != "" {
		out = append(out, pairWarning(routeLike, rankLike, cfg.GP.RoutingScope(), cfg.GP.Placer))
	}
	out = append(out, route...)
	for _, w := range rank {
		out = append(out, "ranking tree f: "+w)
	}
	return out, routingReading(routing), rankReading, nil
}

// routingReading is "≡ m (MCT)" when the routing tree simplifies on the
// simulator's inputs to a reference routing's formula, "constant: …"
// when it reads no terminal there, else "".
func routingReading(routing *expr.Tree) string {
	dom := expr.DefaultDomain()
	simp := expr.SimplifyOn(routing, dom)
	if simp.Terminals().Len() == 0 {
		return "constant: the tie order (current cluster, the user's, lowest index) decides"
	}
	for _, ref := range referenceRoutings {
		t, err := parseRouting(ref.formula)
		if err != nil {
			continue
		}
		if expr.SimplifyOn(t, dom).Hash() == simp.Hash() {
			return fmt.Sprintf("≡ %s (%s)", expr.Readable(t, dom), ref.label)
		}
	}
	return ""
}

// pairWarning names the reference each tree of a two-tree individual
// matches and, when the pair with the placer is a registered baseline, that
// baseline: routing ≡ mct in scope arrivals is the MCT allocator (liquid,
// tiresias, …), and a baseline on the rule allocator (wait-first: m in
// scope all) matches its own routing tree and scope.
func pairWarning(routeLike, rankLike, scope, placer string) string {
	w := fmt.Sprintf("both trees match a reference: routing tree R ≡ %s, ranking tree f ≡ %s", routeLike, rankLike)
	reg := policies.NewRegistry()
	for _, b := range reg.Baselines() {
		if baselineIsPair(reg, b, routeLike, rankLike, scope, placer) {
			return w + fmt.Sprintf(" (scope %s, placer %s): the learned scheduler is the baseline %s (%s)", scope, placer, b, baselineSpec(reg, b))
		}
	}
	if routeLike != "mct" || scope != "arrivals" {
		return w
	}
	return w + fmt.Sprintf(" (scope arrivals, placer %s): the learned scheduler is %s", placer, "mct+"+rankLike+"+"+placer)
}

// baselineIsPair reports whether the named baseline b is a list scheduler
// whose ranking and placer are rankLike and placer and whose allocation is
// the routing reference routeLike in scope.
func baselineIsPair(reg *simcore.Registry, b, routeLike, rankLike, scope, placer string) bool {
	s, err := reg.Parse(b, simcore.Params{})
	if err != nil {
		return false
	}
	ls, ok := s.(*simcore.ListScheduler)
	if !ok || ls.Parts.Ranking != rankLike || ls.Parts.Placer != placer {
		return false
	}
	switch ls.Parts.Allocator {
	case "mct":
		return routeLike == "mct" && scope == "arrivals"
	case "rule":
		r, ok := ls.Allocator.(rule.Rule)
		if !ok || string(r.Params().Scope) != scope {
			return false
		}
		_, like := routingWarnings(r.Params().Routing)
		return like == routeLike
	}
	return false
}

// baselineSpec is what a baseline stands for in a warning: its
// ALLOCATOR+RANKING+PLACER spec, or for a rule baseline the rule's
// routing tree and scope as well.
func baselineSpec(reg *simcore.Registry, b string) string {
	spec := reg.Resolve(b)
	s, err := reg.Parse(b, simcore.Params{})
	if err != nil {
		return spec
	}
	if ls, ok := s.(*simcore.ListScheduler); ok {
		spec = ls.Parts.Allocator + "+" + ls.Parts.Ranking + "+" + ls.Parts.Placer
		if r, ok := ls.Allocator.(rule.Rule); ok {
			spec = fmt.Sprintf("rule(%s, scope %s)+%s+%s", r.Params().Routing, r.Params().Scope, ls.Parts.Ranking, ls.Parts.Placer)
		}
	}
	return spec
}

// routingWarnings compares a routing tree with the reference routings,
// and returns the short name of the first it equals ("constant" when it
// reads no terminal; "" for none).
func routingWarnings(routing *expr.Tree) ([]string, string) {
	// On the simulator's inputs (DefaultDomain: its Extra is nil, so it
	// fits a routing tree): m + 0 is m there, though not at m = −0, and
	// −0 and +0 tie as cluster scores anyway.
	dom := expr.DefaultDomain()
	simp := expr.SimplifyOn(routing, dom)
	if simp.Terminals().Len() == 0 {
		return []string{fmt.Sprintf("routing tree R: %s is constant on the simulator's inputs (= %s): every feasible cluster ties, so the tie order (current cluster, then the user's, then the lowest index) decides", routing, simp)}, "constant"
	}
	var out []string
	like := ""
	for _, ref := range referenceRoutings {
		t, err := parseRouting(ref.formula)
		if err != nil {
			continue // the reference names a terminal this build lacks
		}
		if expr.SimplifyOn(t, dom).Hash() == simp.Hash() {
			out = append(out, fmt.Sprintf("routing tree R: %s equals %s", routing, ref.name))
			if like == "" {
				like = ref.short
			}
		}
	}
	return out, like
}

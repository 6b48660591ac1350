package learn

import (
	"fmt"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/policies"
	"github.com/evogp/evogp/simcore"
	"github.com/evogp/evogp/simcore/rule"
)

// The routing side of the learner reaches package expr's routing
// catalogue and the rule allocator (simcore/rule) only through these.

// parseRoutingTerminals is the routing terminal set named by names.
func parseRoutingTerminals(names []string) (expr.Terminals, error) {
	return expr.Routing.ParseTerminals(names)
}

// parseRouting parses a routing formula.
func parseRouting(src string) (*expr.Tree, error) { return expr.Routing.Parse(src) }

// decodeRouting decodes a routing tree from its JSON.
func decodeRouting(b []byte) (*expr.Tree, error) { return expr.Routing.DecodeJSON(b) }

// ruleSchedulerSpec is rule(routing, scope) + f + placer, built through
// the policies registry (section rule.SectionName) like every scheduler.
func ruleSchedulerSpec(placer string, routing *expr.Tree, scope string, seconds bool, f simcore.Ranking) (simcore.Scheduler, error) {
	sc, err := rule.ParseScope(scope)
	if err != nil {
		return nil, err
	}
	p := rule.Params{Routing: routing, Scope: sc, Seconds: seconds}
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("routing tree %s: %w", routing, err)
	}
	return policies.Parse(ruleSpec(placer), simcore.Params{
		Rankings: map[string]simcore.Ranking{"formula": f},
		Sections: map[string]any{rule.SectionName: p},
	})
}

// ruleScheduler is rule(routing, scope) + f + e.place.
func ruleScheduler(e *evaluator, routing *expr.Tree, scope string, f simcore.Ranking) (simcore.Scheduler, error) {
	return ruleSchedulerSpec(e.place, routing, scope, e.seconds, f)
}

// LearnedScheduler is the scheduler a two-tree individual of cfg runs
// as: rule(routing, gp.scope) + formula + gp.placer.
func LearnedScheduler(cfg configs.Config, routing, formula *expr.Tree) (simcore.Scheduler, error) {
	return LearnedSchedulerWith(cfg, routing, NewFormulaRanking(formula, cfg.GP.TimeUnit == "seconds"))
}

// LearnedSchedulerWith is rule(routing, gp.scope) + f + gp.placer.
func LearnedSchedulerWith(cfg configs.Config, routing *expr.Tree, f simcore.Ranking) (simcore.Scheduler, error) {
	return ruleSchedulerSpec(cfg.GP.Placer, routing, cfg.GP.RoutingScope(), cfg.GP.TimeUnit == "seconds", f)
}

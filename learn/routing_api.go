package learn

import (
	"errors"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/simcore"
)

// The routing side of package expr (its routing catalogue) and the rule
// allocator are built beside this learner; these adapters are the only
// places that name them.

var errNoRouting = errors.New("the routing catalogue and the rule allocator are not available in this build")

// parseRoutingTerminals is the routing terminal set named by names.
func parseRoutingTerminals(names []string) (expr.Terminals, error) {
	return expr.Routing.ParseTerminals(names)
}

// parseRouting parses a routing formula.
func parseRouting(src string) (*expr.Tree, error) { return expr.Routing.Parse(src) }

// decodeRouting decodes a routing tree from its JSON.
func decodeRouting(b []byte) (*expr.Tree, error) { return expr.Routing.DecodeJSON(b) }

// ruleScheduler is rule(routing, scope) + f + e.place.
func ruleScheduler(e *evaluator, routing *expr.Tree, scope string, f simcore.Ranking) (simcore.Scheduler, error) {
	return nil, errNoRouting
}

// LearnedScheduler is the scheduler a two-tree individual of cfg runs
// as: rule(routing, gp.scope) + formula + gp.placer.
func LearnedScheduler(cfg configs.Config, routing, formula *expr.Tree) (simcore.Scheduler, error) {
	return LearnedSchedulerWith(cfg, routing, NewFormulaRanking(formula, cfg.GP.TimeUnit == "seconds"))
}

// LearnedSchedulerWith is rule(routing, gp.scope) + f + gp.placer.
func LearnedSchedulerWith(cfg configs.Config, routing *expr.Tree, f simcore.Ranking) (simcore.Scheduler, error) {
	return nil, errNoRouting
}

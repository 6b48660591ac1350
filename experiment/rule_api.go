package experiment

import (
	"fmt"

	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/simcore"
	"github.com/evogp/evogp/simcore/rule"
)

// parseRouting parses a routing formula (expr's routing catalogue).
func parseRouting(src string) (*expr.Tree, error) { return expr.Routing.Parse(src) }

// parseRule builds spec (rule+formula+PLACER) with the routing tree, the
// scope and the ranking f, through the registry with the builder's EVO
// parameters beside the rule section.
func (b PolicyBuilder) parseRule(spec string, routing *expr.Tree, scope string, f simcore.Ranking) (simcore.Scheduler, error) {
	sc, err := rule.ParseScope(scope)
	if err != nil {
		return nil, err
	}
	p := rule.Params{Routing: routing, Scope: sc, Seconds: b.Seconds}
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("routing tree %s: %w", routing, err)
	}
	return b.parseWith(spec, map[string]simcore.Ranking{"formula": f}, map[string]any{rule.SectionName: p})
}

package experiment

import (
	"errors"

	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/simcore"
)

var errNoRouting = errors.New("the routing catalogue and the rule allocator are not available in this build")

// parseRouting parses a routing formula.
func parseRouting(src string) (*expr.Tree, error) { return expr.Routing.Parse(src) }

// parseRule builds spec (rule+formula+PLACER) with the routing tree,
// scope and ranking f.
func (b PolicyBuilder) parseRule(spec string, routing *expr.Tree, scope string, f simcore.Ranking) (simcore.Scheduler, error) {
	return nil, errNoRouting
}

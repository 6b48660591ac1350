package experiment

import (
	"fmt"
	"strings"

	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/learn"
	"github.com/evogp/evogp/reports/htmlreport"
)

// routingBlock shows the routing tree R of a two-tree run (gp.learn:
// [routing, ranking]) beside its ranking f: infix, LaTeX, and what it
// decides, with its terminals and the rule allocator's scope.
func routingBlock(id string, best *learn.BestJSON) htmlreport.Formula {
	f := htmlreport.Formula{ID: id, Label: "R = " + best.RoutingSimplified, Infix: best.RoutingSimplified,
		Note: fmt.Sprintf("Routing tree as evolved: %s, over the routing terminals [%s], scope %s: each job goes to the feasible cluster with the smallest R.",
			best.RoutingInfix, strings.Join(best.RoutingTerminals, ", "), best.Scope)}
	if t, err := expr.Routing.Parse(best.RoutingSimplified); err == nil {
		if tex, err := expr.Format(t, "latex"); err == nil {
			f.LaTeX = tex
		}
	}
	return f
}

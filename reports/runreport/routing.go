package runreport

import (
	"fmt"
	"strings"

	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/reports/htmlreport"
)

// routingBlock shows the routing tree R of a two-tree run (gp.learn:
// [routing, ranking]) beside its ranking f: infix (simplified), LaTeX,
// and what it decides, with the tree as evolved, its terminals and the
// rule allocator's scope. It takes best.json's fields, not learn's type,
// so that this file stays off the learner (internal/archtest).
func routingBlock(id, simplified, evolved string, terminals []string, scope string) htmlreport.Formula {
	f := htmlreport.Formula{ID: id, Label: "R = " + simplified, Infix: simplified,
		Note: fmt.Sprintf("Routing tree as evolved: %s, over the routing terminals [%s], scope %s: each job goes to the feasible cluster with the smallest R.",
			evolved, strings.Join(terminals, ", "), scope)}
	if t, err := expr.Routing.Parse(simplified); err == nil {
		if tex, err := expr.Format(t, "latex"); err == nil {
			f.LaTeX = tex
		}
	}
	return f
}

package experiment

import (
	"fmt"
	"io"

	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/learn"
)

// writeFormulas prints a finished run's formulas: the reduced trees first
// (learn's behaviour-preserving reduction) in readable notation, with the
// known rule each is when it is one, then what the reduction was checked
// on and the evolved trees' sizes; a run without a reduction prints the
// simplified evolved trees as before.
func writeFormulas(w io.Writer, res *learn.Result) {
	dom := expr.DefaultDomain()
	routing, ranking := res.RoutingSimplified, res.Simplified
	routeLike, rankLike := "", ""
	if red := res.Reduced; red != nil {
		routing, ranking = red.Routing, red.Ranking
		routeLike, rankLike = res.ReducedRoutingLike, res.ReducedLike
	}
	text := func(t *expr.Tree, like string) string {
		s := expr.Readable(expr.Shorten(t), dom)
		if like != "" {
			s += "   " + like
		}
		return s
	}
	if routing != nil {
		fmt.Fprintf(w, "learned routing R (each job goes to the feasible cluster with the smallest R; scope %s): %s\n", res.Scope, text(routing, routeLike))
		fmt.Fprintf(w, "learned ranking f (smaller runs first): %s\n", text(ranking, rankLike))
	} else {
		fmt.Fprintf(w, "learned priority function (smaller runs first): %s\n", text(ranking, rankLike))
	}
	red := res.Reduced
	if red == nil {
		fmt.Fprintf(w, "on the simulator's inputs (d>0, q≥0, u≥1, g≥1, no overflow): %s\n", expr.SimplifyOn(res.Best, dom))
		return
	}
	sizes := fmt.Sprintf("f %d → %d nodes", res.Best.Size(), red.Ranking.Size())
	if red.Routing != nil {
		sizes = fmt.Sprintf("R %d → %d nodes, ", res.Routing.Size(), red.Routing.Size()) + sizes
	}
	fmt.Fprintf(w, "reduced from the evolved trees (%s; %d accepted of %d candidates, %.1f s): the same schedule, job for job, on all %d training and %d validation instances (checked by simulation); / marks a division whose divisor is never 0 on the simulator's inputs, %% a protected one\n",
		sizes, red.Steps, red.Tried, red.Elapsed.Seconds(), red.Training, red.Validation)
	if red.Routing != nil {
		fmt.Fprintf(w, "as evolved: R = %s ; f = %s (best.json \"tree\", evogp export --evolved)\n", res.Routing, res.Best)
	} else {
		fmt.Fprintf(w, "as evolved: %s (best.json \"tree\", evogp export --evolved)\n", res.Best)
	}
}

package experiment

import (
	"fmt"

	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/formula"
	"github.com/evogp/evogp/runfile"
)

// routingPolicy is the policy of a two-tree learned scheduler: the rule
// allocator with the run's routing tree and scope, its ranking formula
// and placer (routing.Spec, rule+formula+PLACER), exactly as the run
// scored it.
func (b PolicyBuilder) routingPolicy(routing *formula.Routing, rankingInfix string) (Policy, error) {
	ranking, err := expr.Parse(rankingInfix)
	if err != nil {
		return Policy{}, fmt.Errorf("ranking formula %s: %w", expr.Quote(rankingInfix, err), err)
	}
	tree, err := parseRouting(routing.Infix)
	if err != nil {
		return Policy{}, fmt.Errorf("routing formula %s: %w", expr.Quote(routing.Infix, err), err)
	}
	sched, err := b.parseRule(routing.Spec, tree, routing.Scope, formula.NewRanking(ranking, b.Seconds))
	if err != nil {
		return Policy{}, err
	}
	unit := "hours"
	if b.Seconds {
		unit = "seconds"
	}
	name := fmt.Sprintf("%s[R=%s;scope=%s;f=%s]", routing.Spec, tree, routing.Scope, ranking)
	return Policy{SchedulerRecord: runfile.SchedulerRecord{Label: name, Spec: routing.Spec, Name: name, Source: fmt.Sprintf("R = %s ; f = %s", tree, ranking), TimeUnit: unit}, sched: sched}, nil
}

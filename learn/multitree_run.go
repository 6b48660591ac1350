package learn

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/simcore"
)

// routingSetup is what a run learning a routing tree adds to prepare: the
// routing terminal set, the parsed gp.seed_routing and the scope.
type routingSetup struct {
	terms expr.Terminals
	seeds []*expr.Tree
	scope string
}

// prepareRouting checks the routing keys of gp (nil without a routing
// tree): gp.routing_terminals must be routing terminals, and every
// gp.seed_routing formula must parse over them and fit gp.max_depth.
func prepareRouting(gp configs.GP) (*routingSetup, error) {
	if !gp.LearnsRouting() {
		return nil, nil
	}
	terms, err := parseRoutingTerminals(gp.RoutingTerminals)
	if err != nil {
		return nil, fmt.Errorf("gp.routing_terminals: %w", err)
	}
	rs := &routingSetup{terms: terms, scope: gp.RoutingScope()}
	for i, src := range gp.SeedRouting {
		t, err := parseRouting(src)
		if err != nil {
			return nil, fmt.Errorf("gp.seed_routing[%d] %s: %w", i, expr.Quote(src, err), err)
		}
		if bad := t.Terminals().Minus(terms); bad.Len() > 0 {
			return nil, fmt.Errorf("gp.seed_routing[%d] %q uses %s, not in gp.routing_terminals = [%s]", i, src, bad, strings.Join(gp.RoutingTerminals, ", "))
		}
		if t.Depth() > gp.MaxDepth {
			return nil, fmt.Errorf("gp.seed_routing[%d] %q: depth %d exceeds gp.max_depth = %d", i, src, t.Depth(), gp.MaxDepth)
		}
		rs.seeds = append(rs.seeds, t)
	}
	if len(rs.seeds) > gp.Population {
		return nil, fmt.Errorf("gp.seed_routing has %d formulas, more than gp.population = %d", len(rs.seeds), gp.Population)
	}
	return rs, nil
}

// initial is generation 0's population: ramped half-and-half ranking
// trees with gp.seed_formulas first, and with a routing tree ramped
// half-and-half routing trees (drawn after the ranking trees) with
// gp.seed_routing first; member i pairs routing tree i with ranking tree
// i. A one-tree run draws exactly what the paper's learner always drew.
func (r *runner) initial(rng *rand.Rand) []Genome {
	n := r.cfg.GP.Population
	init := expr.RampedHalfAndHalf(rng, n, r.gs)
	copy(init, r.seeds) // gp.seed_formulas replace the first members
	var routes []*expr.Tree
	if r.routingTerms != 0 {
		routes = expr.RampedHalfAndHalf(rng, n, r.routingGen)
		copy(routes, r.routingSeeds)
	}
	all := make([]Genome, 0, n)
	for i, t := range init {
		var rt *expr.Tree
		if routes != nil {
			rt = routes[i]
		}
		all = append(all, Genome{Routing: rt, Ranking: t})
	}
	return all
}

// parseIndividual reads back individualString: a ranking formula, or
// "R = … ; f = …" in a run with a routing tree.
func (r *runner) parseIndividual(s string) (routing, ranking *expr.Tree, err error) {
	if r.routingTerms == 0 {
		t, err := expr.Parse(s)
		return nil, t, err
	}
	rs, fs, ok := strings.Cut(s, " ; f = ")
	rs, ok2 := strings.CutPrefix(rs, "R = ")
	if !ok || !ok2 {
		return nil, nil, fmt.Errorf("%q is not \"R = ROUTING ; f = RANKING\"", s)
	}
	if routing, err = parseRouting(rs); err != nil {
		return nil, nil, err
	}
	if ranking, err = expr.Parse(fs); err != nil {
		return nil, nil, err
	}
	return routing, ranking, nil
}

// setRule makes the evaluator score two-tree individuals under the rule
// allocator with scope (rule+formula+gp.placer, SPEC §16); the SRSF
// normaliser stays gp.allocator + srsf + gp.placer (§8).
func (e *evaluator) setRule(scope string) error {
	e.scope = scope
	if _, err := ruleScheduler(e, expr.MustParse("0"), scope, simcore.SRSF{}); err != nil {
		return fmt.Errorf("the rule allocator: %w", err)
	}
	return nil
}

// individualScheduler is the scheduler an individual is scored under:
// gp.allocator + f + gp.placer for one tree, rule(R, scope) + f + gp.placer
// for two.
func (e *evaluator) individualScheduler(routing *expr.Tree, f simcore.Ranking) (simcore.Scheduler, error) {
	if routing == nil {
		return e.candidate(f)
	}
	return ruleScheduler(e, routing, e.scope, f)
}

package learn

import (
	"context"
	"fmt"
	"strings"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/simcore"
)

// RoutingSearch configures a search over routing trees (issue 26: search
// covers both trees): every routing tree R up to the depth over Terminals
// is scored as rule(R, Scope) + Ranking + gp.placer, the ranking fixed.
type RoutingSearch struct {
	// Terminals are routing terminal names (SPEC §16); empty takes
	// gp.routing_terminals.
	Terminals []string
	// Scope is arrivals or all; "" takes gp.scope (default arrivals).
	Scope string
	// Ranking is the fixed ranking: a reference ranking's name (fifo,
	// srsf, lyra, sjf, srtf) or a ranking formula; "" is fifo.
	Ranking string
}

// fixedRanking resolves RoutingSearch.Ranking: a reference ranking by
// name, else a ranking formula over the ranking catalogue.
func fixedRanking(name string, seconds bool) (simcore.Ranking, string, error) {
	if name == "" {
		name = "fifo"
	}
	var names []string
	for _, ref := range referenceRankings() {
		if ref.name == name {
			return ref.r, name, nil
		}
		names = append(names, ref.name)
	}
	t, err := expr.Parse(name)
	if err != nil {
		return nil, "", fmt.Errorf("search: ranking %s is neither %s nor a ranking formula: %w", expr.Quote(name, err), strings.Join(names, ", "), err)
	}
	return NewFormulaRanking(t, seconds), t.String(), nil
}

// searchRouting is Search over routing trees. Trees merge by canonical
// form (expr.Simplify hash), as the two-tree learner's dedup merges
// routing trees (two routing trees that simplify alike route alike);
// there is no decision sample for routing choices, so every canonical
// form is a class of its own.
func searchRouting(ctx context.Context, cfg configs.Config, val []simcore.Instance, s SearchSettings) (*SearchReport, error) {
	rs := *s.Routing
	if len(rs.Terminals) == 0 {
		rs.Terminals = cfg.GP.RoutingTerminals
	}
	if len(rs.Terminals) == 0 {
		return nil, fmt.Errorf("search: no routing terminals: give --terminals or gp.routing_terminals")
	}
	terms, err := expr.Routing.ParseTerminals(rs.Terminals)
	if err != nil {
		return nil, fmt.Errorf("search: routing terminals: %w", err)
	}
	if rs.Scope == "" {
		rs.Scope = cfg.GP.RoutingScope()
	}
	if rs.Scope != "arrivals" && rs.Scope != "all" {
		return nil, fmt.Errorf("search: scope %q: must be arrivals or all", rs.Scope)
	}
	seconds := cfg.GP.TimeUnit == "seconds"
	ranking, rankName, err := fixedRanking(rs.Ranking, seconds)
	if err != nil {
		return nil, err
	}
	if s.MaxTrees == 0 {
		s.MaxTrees = 2_000_000
	}
	s.Screen = min(max(s.Screen, 1), len(val))
	s.Keep = max(s.Keep, 1)
	trees, err := enumerate(terms, s.Depth, s.MaxTrees)
	if err != nil {
		return nil, err
	}
	rep := &SearchReport{Routing: true, Ranking: rankName, Scope: rs.Scope, Terminals: terms, Depth: s.Depth, Enumerated: len(trees), Instances: len(val)}
	byHash := map[uint64]*searchClass{}
	var classes []*searchClass
	for _, t := range trees {
		h := t.Hash()
		c, ok := byHash[h]
		if !ok {
			c = &searchClass{rep: t}
			byHash[h] = c
			classes = append(classes, c)
		} else if t.Size() < c.rep.Size() {
			c.rep = t
		}
		c.members++
	}
	rep.Canonical, rep.Behaviours = len(classes), len(classes)

	opts, err := SimOptions(cfg)
	if err != nil {
		return nil, err
	}
	ev, err := newEvaluator(nil, val, opts, seconds, s.Workers, cfg.GP.Allocator, cfg.GP.Placer, EVOParams(cfg))
	if err != nil {
		return nil, err
	}
	if err := ev.baselines(ctx); err != nil {
		return nil, err
	}
	mk := func(r *expr.Tree) (simcore.Scheduler, error) {
		return ruleSchedulerSpec(cfg.GP.Placer, r, rs.Scope, seconds, ranking)
	}
	if _, err := mk(expr.Routing.MustParse("W")); err != nil {
		return nil, fmt.Errorf("search: the rule allocator: %w", err)
	}
	reps := make([]searchClass, len(classes))
	for i, c := range classes {
		reps[i] = *c
	}
	if err := scoreSearch(ctx, ev, val, reps, mk, s, rep); err != nil {
		return nil, err
	}
	return rep, nil
}

package rule

import (
	"fmt"

	"github.com/evogp/evogp/expr"
)

// SectionName is the parameter section (simcore.Params.Sections) the rule
// allocator reads its Params from.
const SectionName = "rule"

// Scope says which jobs the rule re-decides at an operation (SPEC §16).
type Scope string

// The scopes.
const (
	// ScopeArrivals re-decides the jobs that arrived at t, in (arrival,
	// id) order; every other job keeps its cluster (as MCT).
	ScopeArrivals Scope = "arrivals"
	// ScopeAll re-decides every job of Js, in the order of the ranking on
	// its current cluster (its user cluster if it has none), ties by
	// (arrival, id), as EVO may.
	ScopeAll Scope = "all"
)

// ParseScope reads "arrivals" or "all".
func ParseScope(s string) (Scope, error) {
	switch Scope(s) {
	case ScopeArrivals, ScopeAll:
		return Scope(s), nil
	}
	return "", fmt.Errorf("rule: unknown scope %q (want arrivals or all)", s)
}

// DefaultRouting is the routing formula when none is given: W, least work
// ahead per GPU. It needs no what-if, so the default rule never plans.
const DefaultRouting = "W"

// Params configure the rule allocator.
type Params struct {
	// Routing is the routing tree (expr.Routing catalogue); nil means
	// DefaultRouting.
	Routing *expr.Tree
	// Scope is ScopeArrivals or ScopeAll; empty means ScopeArrivals.
	Scope Scope
	// Seconds makes the time terminals (d, q, a, W, x, m) seconds instead
	// of hours (gp.time_unit, SPEC §2).
	Seconds bool
}

// DefaultParams is the routing tree W in scope arrivals, in hours.
func DefaultParams() Params {
	return Params{Routing: expr.Routing.MustParse(DefaultRouting), Scope: ScopeArrivals}
}

// ParseParams builds Params from a routing formula (empty = DefaultRouting)
// and a scope name (empty = arrivals).
func ParseParams(routing, scope string, seconds bool) (Params, error) {
	p := Params{Seconds: seconds, Scope: ScopeArrivals}
	if routing == "" {
		routing = DefaultRouting
	}
	t, err := expr.Routing.Parse(routing)
	if err != nil {
		return Params{}, fmt.Errorf("rule: routing formula %q: %w", routing, err)
	}
	p.Routing = t
	if scope != "" {
		if p.Scope, err = ParseScope(scope); err != nil {
			return Params{}, err
		}
	}
	return p, p.Validate()
}

// Validate rejects a tree of the ranking catalogue and an unknown scope.
func (p Params) Validate() error {
	if p.Routing == nil {
		return nil
	}
	if p.Routing.Size() == 0 {
		return fmt.Errorf("rule: empty routing tree")
	}
	if p.Routing.Catalogue() != expr.Routing && p.Routing.Terminals().Len() > 0 {
		return fmt.Errorf("rule: routing tree %q is a %v tree; parse it with expr.Routing", p.Routing, p.Routing.Catalogue())
	}
	switch p.scope() {
	case ScopeArrivals, ScopeAll:
	default:
		return fmt.Errorf("rule: unknown scope %q (want arrivals or all)", p.Scope)
	}
	return nil
}

func (p Params) scope() Scope {
	if p.Scope == "" {
		return ScopeArrivals
	}
	return p.Scope
}

func (p Params) routing() *expr.Tree {
	if p.Routing == nil {
		return expr.Routing.MustParse(DefaultRouting)
	}
	return p.Routing
}

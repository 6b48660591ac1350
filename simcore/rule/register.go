package rule

import (
	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/simcore"
)

// WaitFirst is the name of this project's own hand-written baseline (SPEC
// §5.3; not one of the paper's): rule(R = m, scope all) + largest weighted
// wait first (0 − u·q, simcore.WeightedWait) + best fit. MCT re-applied to
// every queued job, in the order of the ranking that learned rankings keep
// rediscovering for Eq. 5's dominant cq_max term.
const WaitFirst = "wait-first"

// WaitFirstParams are the rule allocator's parameters in wait-first: R = m,
// scope all, hours (the order of m's values does not depend on the unit).
func WaitFirstParams() Params {
	return Params{Routing: expr.Routing.MustParse("m"), Scope: ScopeAll}
}

// Register adds the allocator rule to r (parameters: section "rule",
// Params; defaults DefaultParams: routing W, scope arrivals), so that
// rule+RANKING+PLACER specs resolve, the ranking wait (0 − u·q), and the
// named baseline wait-first, whose rule parameters are fixed (the "rule"
// section does not change them).
func Register(r *simcore.Registry) {
	r.Allocator("rule", func(p simcore.Params) (simcore.Allocator, error) {
		rp, err := simcore.Section(p, SectionName, DefaultParams())
		if err != nil {
			return nil, err
		}
		return New(rp)
	})
	r.Scheduler(WaitFirst, func(name string, _ simcore.Params) (simcore.Scheduler, error) {
		ls, err := NewScheduler(name, WaitFirstParams(), simcore.WeightedWait{}, simcore.BestFit{})
		if err != nil {
			return nil, err
		}
		ls.Parts = simcore.ListParts{Allocator: "rule", Ranking: "wait", Placer: "bestfit"}
		return ls, nil
	})
	r.Baseline(WaitFirst, WaitFirst)
}

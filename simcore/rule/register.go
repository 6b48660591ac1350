package rule

import "github.com/evogp/evogp/simcore"

// Register adds the allocator rule to r (parameters: section "rule",
// Params; defaults DefaultParams: routing W, scope arrivals), so that
// rule+RANKING+PLACER specs resolve.
func Register(r *simcore.Registry) {
	r.Allocator("rule", func(p simcore.Params) (simcore.Allocator, error) {
		rp, err := simcore.Section(p, SectionName, DefaultParams())
		if err != nil {
			return nil, err
		}
		return New(rp)
	})
}

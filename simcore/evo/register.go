package evo

import "github.com/evogp/evogp/simcore"

// SectionName is the parameter section (simcore.Params.Sections) the evo
// allocator reads its Params from.
const SectionName = "evo"

// Register adds this package's policies to r: the allocators evo
// (parameters: section "evo", Params; defaults DefaultParams) and mct-all,
// and the aliases evo-gp (evo+formula+bestfit) and evo-X for every ranking
// X of simcore (evo+X+bestfit).
func Register(r *simcore.Registry) {
	r.Allocator("mct-all", simcore.Fixed[simcore.Allocator](MCTAll{}))
	r.Allocator("evo", func(p simcore.Params) (simcore.Allocator, error) {
		ep, err := simcore.Section(p, SectionName, DefaultParams())
		if err != nil {
			return nil, err
		}
		return New(ep)
	})
	r.Alias("evo-gp", "evo+formula+bestfit")
	for _, rank := range []string{"fifo", "srsf", "lyra", "sjf", "srtf"} {
		r.Alias("evo-"+rank, "evo+"+rank+"+bestfit")
	}
}

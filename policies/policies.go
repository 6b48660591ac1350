package policies

import (
	"fmt"
	"slices"
	"strings"

	"github.com/evogp/evogp/hydra"
	"github.com/evogp/evogp/simcore"
	"github.com/evogp/evogp/simcore/evo"
	"github.com/evogp/evogp/simcore/rule"
)

// NewRegistry returns a registry holding every policy: simcore's
// (simcore.NewRegistry), evo's (evo.Register), the rule allocator's
// (rule.Register) and hydra's (hydra.Register). It is built per use; there
// is no package-level registry.
func NewRegistry() *simcore.Registry {
	r := simcore.NewRegistry()
	evo.Register(r)
	rule.Register(r)
	hydra.Register(r)
	return r
}

// Parse resolves a scheduler spec with NewRegistry: a named scheduler or
// alias, or ALLOCATOR+RANKING+PLACER where the ranking may be a name in
// p.Rankings (a learned formula). A Hydra-model scheduler may carry
// Hydra's parameters after colons, e.g.
// hydra:budget=200:penalty=1000000000:compare=increment, which
// hydra.ParseSpec reads (defaults: hydra.DefaultParams); the whole spec is
// then its label.
func Parse(spec string, p simcore.Params) (simcore.Scheduler, error) {
	if s, ok, err := hydra.ParseSpec(spec); ok {
		if err != nil {
			return nil, err
		}
		return s, nil
	}
	return NewRegistry().Parse(spec, p)
}

// ParseWith resolves spec like Parse with the extra named rankings only
// (for a learned formula: {"formula": ranking}) and every policy's default
// parameters.
func ParseWith(spec string, rankings map[string]simcore.Ranking) (simcore.Scheduler, error) {
	return Parse(spec, simcore.Params{Rankings: rankings})
}

// Baselines lists the paper's named baselines (SPEC §5.3) in registration
// order: the reference set of every evaluation.
func Baselines() []string { return NewRegistry().Baselines() }

// Catalogue is what the registry holds, each list sorted (Baselines in
// registration order): for help texts and shell completion.
type Catalogue struct {
	Allocators []string
	Rankings   []string
	Placers    []string
	Schedulers []string          // whole schedulers (Hydra's)
	Aliases    map[string]string // alias → the spec it stands for, baselines included
	Baselines  []string
}

// List describes NewRegistry.
func List() Catalogue {
	r := NewRegistry()
	c := Catalogue{Allocators: r.Allocators(), Rankings: r.Rankings(), Placers: r.Placers(),
		Schedulers: r.Schedulers(), Aliases: map[string]string{}, Baselines: r.Baselines()}
	for _, a := range r.Aliases() {
		c.Aliases[a] = r.Resolve(a)
	}
	return c
}

// Names lists every spec that is a name on its own (named schedulers and
// aliases, baselines included), sorted: the values shell completion offers
// besides ALLOCATOR+RANKING+PLACER.
func (c Catalogue) Names() []string {
	var out []string
	out = append(out, c.Schedulers...)
	for a := range c.Aliases {
		out = append(out, a)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Help is a one-paragraph description of the scheduler specs the registry
// accepts, for --scheduler help texts.
func (c Catalogue) Help() string {
	return fmt.Sprintf("a named scheduler (%s) or ALLOCATOR+RANKING+PLACER (allocators: %s; rankings: %s or formula; placers: %s)",
		strings.Join(c.Names(), ", "), strings.Join(c.Allocators, ", "), strings.Join(c.Rankings, ", "), strings.Join(c.Placers, ", "))
}

package policies

import (
	"fmt"
	"slices"
	"strconv"
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
// hydra:budget=200:penalty=1000000000:compare=increment (defaults:
// hydra.DefaultParams, or p's "hydra" section); the whole spec is then its
// label.
func Parse(spec string, p simcore.Params) (simcore.Scheduler, error) {
	name, opts, hasOpts := strings.Cut(strings.TrimSpace(spec), ":")
	name = strings.ToLower(name)
	if !hasOpts {
		return NewRegistry().Parse(spec, p)
	}
	if !slices.Contains(hydra.Rules(), hydra.Rule(name)) {
		return nil, fmt.Errorf("scheduler %q: only the Hydra-model schedulers (%s) take :key=value parameters", spec, hydraRuleList())
	}
	hp := hydra.DefaultParams()
	for _, kv := range strings.Split(opts, ":") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return nil, fmt.Errorf("scheduler %q: parameter %q: want key=value (penalty, budget, compare)", spec, kv)
		}
		var err error
		switch k {
		case "penalty":
			var f float64
			if f, err = strconv.ParseFloat(v, 64); err == nil && (f != float64(int64(f)) || f < 1 || f > 1e18) {
				err = fmt.Errorf("must be an integer in 1..1e18")
			}
			hp.Penalty = int64(f)
		case "budget":
			hp.Budget, err = strconv.Atoi(v)
		case "compare":
			hp.Compare = v
		default:
			err = fmt.Errorf("unknown parameter (have penalty, budget, compare)")
		}
		if err != nil {
			return nil, fmt.Errorf("scheduler %q: %s=%s: %w", spec, k, v, err)
		}
	}
	if err := hp.Validate(); err != nil {
		return nil, fmt.Errorf("scheduler %q: %w", spec, err)
	}
	if hydra.Rule(name) == hydra.RuleHydraSwap {
		hp.Budget = 0
	}
	return hydra.NewScheduler(hydra.Rule(name), spec, hp), nil
}

// ParseWith resolves spec like Parse with the extra named rankings only
// (for a learned formula: {"formula": ranking}) and every policy's default
// parameters.
func ParseWith(spec string, rankings map[string]simcore.Ranking) (simcore.Scheduler, error) {
	return Parse(spec, simcore.Params{Rankings: rankings})
}

func hydraRuleList() string {
	var names []string
	for _, r := range hydra.Rules() {
		names = append(names, string(r))
	}
	return strings.Join(names, ", ")
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

package experiment

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/evogp/evogp/hydra"
	"github.com/evogp/evogp/simcore"
)

// schedulerRegistry is simcore's registry plus the Hydra-model schedulers
// of SPEC §13 (hydra, hydra-swap, edf, sjf-fastest, allox, chronus).
func schedulerRegistry() *simcore.Registry {
	r := simcore.NewRegistry()
	hydra.Register(r)
	return r
}

// parseScheduler resolves a scheduler spec with schedulerRegistry. A
// Hydra-model scheduler may carry Hydra's parameters after colons, e.g.
// hydra:budget=200:penalty=1000000000:compare=increment (defaults:
// hydra.DefaultParams); the whole spec is then its label.
func parseScheduler(spec string, rankings map[string]simcore.Ranking) (simcore.Scheduler, error) {
	name, opts, hasOpts := strings.Cut(strings.TrimSpace(spec), ":")
	name = strings.ToLower(name)
	if !hasOpts {
		return schedulerRegistry().Parse(spec, simcore.Params{Rankings: rankings})
	}
	if !slices.Contains(hydra.Rules(), hydra.Rule(name)) {
		return nil, fmt.Errorf("scheduler %q: only the Hydra-model schedulers (%s) take :key=value parameters", spec, hydraRuleList())
	}
	p := hydra.DefaultParams()
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
			p.Penalty = int64(f)
		case "budget":
			p.Budget, err = strconv.Atoi(v)
		case "compare":
			p.Compare = v
		default:
			err = fmt.Errorf("unknown parameter (have penalty, budget, compare)")
		}
		if err != nil {
			return nil, fmt.Errorf("scheduler %q: %s=%s: %w", spec, k, v, err)
		}
	}
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("scheduler %q: %w", spec, err)
	}
	if hydra.Rule(name) == hydra.RuleHydraSwap {
		p.Budget = 0
	}
	return hydra.NewScheduler(hydra.Rule(name), spec, p), nil
}

func hydraRuleList() string {
	var names []string
	for _, r := range hydra.Rules() {
		names = append(names, string(r))
	}
	return strings.Join(names, ", ")
}

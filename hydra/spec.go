package hydra

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// ParseSpec reads a Hydra-model scheduler spec that carries Hydra's
// parameters after colons, NAME:key=value[:key=value...], for example
// hydra:budget=200:penalty=1000000000:compare=increment. Parameters not
// given keep DefaultParams; hydra-swap runs without the order search
// (budget 0) whatever the budget says. The whole spec is the scheduler's
// label. ok is false when spec has no colon: it is then not a
// parameterised spec, and the caller resolves it by name. A colon after
// any other name is an error, as are a parameter without "=", an unknown
// key and parameters that Params.Validate refuses; every error names the
// spec.
func ParseSpec(spec string) (s *Scheduler, ok bool, err error) {
	name, opts, hasOpts := strings.Cut(strings.TrimSpace(spec), ":")
	name = strings.ToLower(name)
	if !hasOpts {
		return nil, false, nil
	}
	if !slices.Contains(Rules(), Rule(name)) {
		return nil, true, fmt.Errorf("scheduler %q: only the Hydra-model schedulers (%s) take :key=value parameters", spec, ruleList())
	}
	hp := DefaultParams()
	for _, kv := range strings.Split(opts, ":") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return nil, true, fmt.Errorf("scheduler %q: parameter %q: want key=value (penalty, budget, compare)", spec, kv)
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
			return nil, true, fmt.Errorf("scheduler %q: %s=%s: %w", spec, k, v, err)
		}
	}
	if err := hp.Validate(); err != nil {
		return nil, true, fmt.Errorf("scheduler %q: %w", spec, err)
	}
	if Rule(name) == RuleHydraSwap {
		hp.Budget = 0
	}
	return NewScheduler(Rule(name), spec, hp), true, nil
}

// ruleList is Rules as a comma-separated list, for error messages.
func ruleList() string {
	var names []string
	for _, r := range Rules() {
		names = append(names, string(r))
	}
	return strings.Join(names, ", ")
}

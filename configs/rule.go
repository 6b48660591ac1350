package configs

import "github.com/evogp/evogp/simcore/rule"

// Rule configures the rule allocator (SPEC §16) of every scheduler whose
// allocator is rule (rule+srsf+bestfit, ...) in eval, pressure and sweeps:
// the routing formula (empty = rule.DefaultRouting, W) and the scope
// (arrivals | all; empty = arrivals). Both empty leave the section out of
// the written config, so configs without it keep their bytes and hashes.
type Rule struct {
	Routing string `yaml:"routing,omitempty"`
	Scope   string `yaml:"scope,omitempty"`
}

// Validate checks the section with rule.ParseParams's rules and messages.
func (r Rule) Validate() error {
	_, err := rule.ParseParams(r.Routing, r.Scope, false)
	return err
}

// RuleParams translates a config's rule section into the allocator's
// parameters, with the formula time unit of gp.time_unit.
func RuleParams(cfg Config) (rule.Params, error) {
	return rule.ParseParams(cfg.Rule.Routing, cfg.Rule.Scope, cfg.GP.TimeUnit == "seconds")
}

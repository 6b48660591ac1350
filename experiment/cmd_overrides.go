package experiment

import "github.com/evogp/evogp/configs"

// The shared flag sets of the commands that simulate (the simulator, EVO
// and pressure flags) each set config keys; a command hands the ones the
// user gave as key=value overrides (configs.Config.Override reads them), so
// the config's parsing and validation apply, not a copy of them.

// SimSettingsOverridden applies overrides (the simulator flags given) to
// cfg and returns its sim and objective sections.
func SimSettingsOverridden(cfg configs.Config, overrides []string) (SimSettings, error) {
	cfg, err := cfg.Override(overrides...)
	return SimSettings{Sim: cfg.Sim, Objective: cfg.Objective}, err
}

// OverriddenPolicyBuilder applies overrides (the evo flags given) to cfg,
// validates it and returns ConfigPolicyBuilder's builder of the command's
// schedulers.
func OverriddenPolicyBuilder(cfg configs.Config, overrides []string, seconds, explicit bool) (PolicyBuilder, error) {
	cfg, err := cfg.Override(overrides...)
	if err != nil {
		return PolicyBuilder{}, err
	}
	return ConfigPolicyBuilder(cfg, seconds, explicit)
}

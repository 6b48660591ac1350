package main

import (
	"github.com/urfave/cli/v2"

	"github.com/evogp/evogp/configs"
)

// flagSet is a group of flags declared once and added to every command
// that takes it (the simulator, EVO, estimate and launcher flags). A flag
// that sets a config key names it in keys, so applying the set to a config
// is one configs.Override: the config's parsing and validation, not a copy
// of them here.
type flagSet struct {
	flags []cli.Flag
	keys  map[string]string // flag name → config key
}

// withFlags is a command's own flags followed by the shared sets.
func withFlags(own []cli.Flag, sets ...flagSet) []cli.Flag {
	out := append([]cli.Flag(nil), own...)
	for _, s := range sets {
		out = append(out, s.flags...)
	}
	return out
}

// apply sets cfg's keys from the set's flags the user gave; the config
// supplies the rest. (A flag's default is configs.Default's value, so on
// the default config a flag not given changes nothing either.)
func (s flagSet) apply(c *cli.Context, cfg configs.Config) (configs.Config, error) {
	return cfg.Override(s.overrides(c)...)
}

// overrides are the key=value assignments of the set's flags the user
// gave, for the experiment functions that apply them to a config.
func (s flagSet) overrides(c *cli.Context) []string {
	var assignments []string
	for _, f := range s.flags {
		name := f.Names()[0]
		key, ok := s.keys[name]
		if !ok || !c.IsSet(name) {
			continue
		}
		assignments = append(assignments, key+"="+c.String(name))
	}
	return assignments
}

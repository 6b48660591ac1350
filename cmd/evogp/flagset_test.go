package main

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/evogp/evogp/configs"
)

// Each shared flag that sets a config key defaults to that key's value in
// configs.Default, so applying only the flags given is the same as
// applying all of them; and each names its key in its usage.
func TestFlagSetDefaultsAreTheConfigs(t *testing.T) {
	for _, s := range []flagSet{simFlags(), evoFlags(true)} {
		var all []string
		for _, f := range s.flags {
			name := f.Names()[0]
			key, ok := s.keys[name]
			if !ok {
				continue
			}
			df, ok := f.(cli.DocGenerationFlag)
			if !ok {
				t.Fatalf("--%s: no default value", name)
			}
			all = append(all, key+"="+df.GetValue())
			if u := df.GetUsage(); key != "seed" && !strings.HasPrefix(u, key+":") {
				t.Errorf("--%s: usage %q does not name %s", name, u, key)
			}
		}
		got, err := configs.Default().Override(all...)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, configs.Default()) {
			t.Errorf("the defaults %v change the default config", all)
		}
	}
}

// The flags given override the config's keys, the others keep the
// config's values (pressure's --config), and errors name the key.
func TestFlagSetApply(t *testing.T) {
	cfg, err := configs.Load("load")
	if err != nil {
		t.Fatal(err)
	}
	var got configs.Config
	cmd := &cli.Command{Name: "x", Flags: withFlags(nil, simFlags(), evoFlags(false)), Action: func(c *cli.Context) error {
		got, err = simFlags().apply(c, cfg)
		if err == nil {
			got, err = evoFlags(true).apply(c, got)
		}
		return err
	}}
	app := &cli.App{Commands: []*cli.Command{cmd}}
	if err := app.Run([]string{"evogp", "x", "--objective", "single", "--omega", "0.25", "--evo-generations", "7"}); err != nil {
		t.Fatal(err)
	}
	want := cfg
	want.Objective.Kind, want.Objective.Omega, want.EVO.Generations = "single", 0.25, 7
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
	err = app.Run([]string{"evogp", "x", "--weights", "1,2"})
	if err == nil || !strings.Contains(err.Error(), "objective.weights") {
		t.Errorf("bad --weights: %v", err)
	}
	if slices.ContainsFunc(evoFlags(false).flags, func(f cli.Flag) bool { return f.Names()[0] == "seed" }) {
		t.Error("evoFlags(false) declares --seed")
	}
}

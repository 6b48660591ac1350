package policies_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/evogp/evogp/hydra"
	"github.com/evogp/evogp/policies"
	"github.com/evogp/evogp/simcore"
)

// The one registry holds simcore's, evo's and hydra's policies, lists
// them, and every listed name and combination resolves.
func TestCatalogue(t *testing.T) {
	c := policies.List()
	for _, want := range []string{"user", "mct", "mct-all", "evo"} {
		if !slices.Contains(c.Allocators, want) {
			t.Errorf("allocators %v lack %s", c.Allocators, want)
		}
	}
	for _, r := range hydra.Rules() {
		if !slices.Contains(c.Schedulers, string(r)) {
			t.Errorf("schedulers %v lack %s", c.Schedulers, r)
		}
	}
	if c.Aliases["evo-srsf"] != "evo+srsf+bestfit" || c.Aliases["tiresias"] != "mct+srsf+bestfit" || c.Aliases["evo-gp"] != "evo+formula+bestfit" {
		t.Errorf("aliases %v", c.Aliases)
	}
	if !slices.Equal(c.Baselines, []string{"spark", "liquid", "tiresias", "lyra", "wait-first"}) { // issue 39: wait-first is this project's own
		t.Errorf("baselines %v", c.Baselines)
	}
	formula := map[string]simcore.Ranking{"formula": simcore.FIFO{}}
	for _, name := range c.Names() {
		if _, err := policies.ParseWith(name, formula); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	for _, a := range c.Allocators {
		for _, r := range append(slices.Clone(c.Rankings), "formula") {
			for _, p := range c.Placers {
				spec := a + "+" + r + "+" + p
				s, err := policies.ParseWith(spec, formula)
				if err != nil {
					t.Fatalf("%s: %v", spec, err)
				}
				ls := s.(*simcore.ListScheduler)
				if ls.Parts != (simcore.ListParts{Allocator: a, Ranking: r, Placer: p}) {
					t.Errorf("%s: parts %+v", spec, ls.Parts)
				}
			}
		}
	}
	help := c.Help()
	for _, want := range []string{"mct-all", "hydra", "evo-srsf", "roundrobin", "srtf"} {
		if !strings.Contains(help, want) {
			t.Errorf("help %q lacks %s", help, want)
		}
	}
}

// Hydra's colon parameters parse in the one registry; other names refuse
// them.
func TestParseHydraParameters(t *testing.T) {
	s, err := policies.Parse("hydra:budget=200:penalty=1000000000", simcore.Params{})
	if err != nil || s.Name() != "hydra:budget=200:penalty=1000000000" {
		t.Fatalf("got %v, %v", s, err)
	}
	for spec, want := range map[string]string{
		"tiresias:budget=2": "only the Hydra-model schedulers",
		"hydra:budget":      "want key=value",
		"hydra:colour=red":  "unknown parameter",
	} {
		if _, err := policies.Parse(spec, simcore.Params{}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err %v, want %q", spec, err, want)
		}
	}
}

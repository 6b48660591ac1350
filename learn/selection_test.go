package learn

import (
	"maps"
	"slices"
	"testing"

	"github.com/evogp/evogp/configs"
)

// configs.SelectionMethods (what the config accepts) and Selections (the
// operators) name the same methods, and agree on which read objectives.
func TestSelectionRegistriesAgree(t *testing.T) {
	cfg, ops := configs.SelectionMethods(), Selections()
	if a, b := slices.Sorted(maps.Keys(cfg)), slices.Sorted(maps.Keys(ops)); !slices.Equal(a, b) {
		t.Fatalf("configs has %v, learn %v", a, b)
	}
	for name, m := range cfg {
		s, err := ops[name](configs.GP{Selection: name, Tournament: 2})
		if err != nil {
			t.Fatal(err)
		}
		if s.Objectives != m.Objectives || s.Parents == nil || s.Survival == nil {
			t.Errorf("%s: learn reads objectives %v, configs says %v (parents %v, survival %v)", name, s.Objectives, m.Objectives, s.Parents, s.Survival)
		}
	}
	if _, err := newSelection(configs.GP{Selection: "spea2"}, ops, false); err == nil || err.Error() != `gp.selection = "spea2": unknown (have nsga2, scalar)` {
		t.Errorf("unknown method: %v", err)
	}
}

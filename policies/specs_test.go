package policies_test

import (
	"slices"
	"testing"

	"github.com/evogp/evogp/policies"
	"github.com/evogp/evogp/simcore"
)

// Specs holds every name and every part combination, each once, and each
// resolves.
func TestCatalogueSpecs(t *testing.T) {
	c := policies.List()
	specs := c.Specs()
	want := len(c.Names()) + len(c.Allocators)*(len(c.Rankings)+1)*len(c.Placers)
	if len(specs) != want {
		t.Fatalf("%d specs, want %d names + combinations", len(specs), want)
	}
	if !slices.IsSorted(specs) {
		t.Errorf("specs not sorted")
	}
	for _, must := range []string{"tiresias", "evo-srsf", "hydra", "mct-all+srsf+bestfit", "user+formula+roundrobin"} {
		if !slices.Contains(specs, must) {
			t.Errorf("specs lack %s", must)
		}
	}
	formula := map[string]simcore.Ranking{"formula": simcore.FIFO{}}
	for _, s := range specs {
		if _, err := policies.ParseWith(s, formula); err != nil {
			t.Errorf("%s: %v", s, err)
		}
	}
}

// Completion offers the registry's specs after both scheduler flags, the
// objective kinds after --objective, and nothing after other flags.
func TestCompletionValues(t *testing.T) {
	specs := policies.List().Specs()
	for _, flag := range []string{"scheduler", "schedulers"} {
		if got := policies.CompletionValues(flag); !slices.Equal(got, specs) || !slices.Contains(got, "mct-all+srsf+bestfit") {
			t.Errorf("CompletionValues(%q) = %v, want the registry's specs", flag, got)
		}
	}
	if got := policies.CompletionValues("objective"); !slices.Equal(got, simcore.ObjectiveKindNames()) {
		t.Errorf("CompletionValues(objective) = %v", got)
	}
	if got := policies.CompletionValues("dataset"); got != nil {
		t.Errorf("CompletionValues(dataset) = %v, want nil", got)
	}
}

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

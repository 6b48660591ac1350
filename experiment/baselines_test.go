package experiment

import (
	"slices"
	"testing"

	"github.com/evogp/evogp/policies"
)

// reports has no baseline list of its own: eval's summary chooses its best
// baseline among the registry's (wait-first included).
func TestSummaryBaselinesAreTheRegistry(t *testing.T) {
	got, want := mergeEvalBlocks(0, nil).SummaryOptions(FigureOptions{}, "tiresias").Baselines, policies.Baselines()
	if !slices.Equal(got, want) {
		t.Fatalf("summary baselines %v, policies.Baselines() = %v", got, want)
	}
	if !slices.Contains(want, "wait-first") {
		t.Fatalf("baselines %v lack wait-first", want)
	}
}

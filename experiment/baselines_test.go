package experiment

import (
	"slices"
	"testing"

	"github.com/evogp/evogp/policies"
	"github.com/evogp/evogp/reports"
)

// reports may not import the policy registry, so it spells the baseline
// list; this keeps the two one list (wait-first included).
func TestReportsBaselinesAreTheRegistry(t *testing.T) {
	got, want := reports.DefaultBaselines(), policies.Baselines()
	if !slices.Equal(got, want) {
		t.Fatalf("reports.DefaultBaselines() = %v, policies.Baselines() = %v", got, want)
	}
	if !slices.Contains(want, "wait-first") {
		t.Fatalf("baselines %v lack wait-first", want)
	}
}

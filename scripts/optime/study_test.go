package main

import (
	"strings"
	"testing"

	"github.com/evogp/evogp/simcore/rule"
)

// TestReuseStudyByHand: the shares of a hand-written log. Operation 1
// decides jobs 5, 6 (5 to cluster 0, 6 to 1); operation 2, same fixed
// state, decides 5 → 0, 6 → 0, 7 → 1 (prefix 1, kept 1, and job 6 flips
// after the prefix); operation 3,
// another fixed state, decides 5 → 0, 6 → 0 (prefix 2, kept 2); then a new
// simulation (operation 1 again) is compared with nothing.
func TestReuseStudyByHand(t *testing.T) {
	s := newReuseStudy()
	for _, d := range []rule.Decision{
		{Op: 1, Now: 10, Job: 5, Cluster: 0, Fixed: 1}, {Op: 1, Now: 10, Job: 6, Cluster: 1, Fixed: 1},
		{Op: 2, Now: 20, Job: 5, Cluster: 0, Fixed: 1}, {Op: 2, Now: 20, Job: 6, Cluster: 0, Fixed: 1}, {Op: 2, Now: 20, Job: 7, Cluster: 1, Fixed: 1},
		{Op: 3, Now: 30, Job: 5, Cluster: 0, Fixed: 2}, {Op: 3, Now: 30, Job: 6, Cluster: 0, Fixed: 2},
		{Op: 1, Now: 5, Job: 5, Cluster: 0, Fixed: 2},
	} {
		s.log(d)
	}
	var b strings.Builder
	s.report(&b)
	if s.ops != 4 || s.decided != 8 || s.kept != 3 || s.prefix != 3 || s.prefixFixed != 1 || s.fixedSameOps != 1 || s.wholePrefixes != 0 || s.flips != 1 {
		t.Fatalf("ops %d decided %d kept %d prefix %d prefix+fixed %d same-fixed ops %d whole %d flips %d", s.ops, s.decided, s.kept, s.prefix, s.prefixFixed, s.fixedSameOps, s.wholePrefixes, s.flips)
	}
	if !strings.Contains(b.String(), "kept=37.5 %") {
		t.Fatalf("report %q", b.String())
	}
}

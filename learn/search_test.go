package learn

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/evogp/evogp/expr"
)

// The enumeration has the hand-counted sizes: T leaves at depth 1,
// T + 4·T² at depth ≤ 2, T + 4·(T + 4T²)² at depth ≤ 3.
func TestEnumerateCounts(t *testing.T) {
	for _, tc := range []struct {
		terms []string
		depth int
		want  int
	}{
		{[]string{"d", "q", "u", "g"}, 1, 4},
		{[]string{"d", "q", "u", "g"}, 2, 68},
		{[]string{"d", "q", "u", "g"}, 3, 4 + 4*68*68},
		{[]string{"d"}, 3, 1 + 4*5*5},
	} {
		set, _ := expr.ParseTerminals(tc.terms)
		trees, err := enumerate(set, tc.depth, 1e6)
		if err != nil || len(trees) != tc.want {
			t.Errorf("%v depth %d: %d trees (%v), want %d", tc.terms, tc.depth, len(trees), err, tc.want)
		}
		seen := map[string]bool{}
		for _, tr := range trees {
			if tr.Depth() > tc.depth || seen[tr.String()] || tr.Terminals().Minus(set) != 0 {
				t.Fatalf("%s: depth %d, duplicate %v", tr, tr.Depth(), seen[tr.String()])
			}
			seen[tr.String()] = true
		}
	}
	set, _ := expr.ParseTerminals([]string{"d", "q", "u", "g"})
	if _, err := enumerate(set, 3, 1000); err == nil {
		t.Error("a space larger than the bound was enumerated")
	}
}

// On the smoke validation set with d in seconds, g·d is SRSF exactly: its
// behaviour class scores 1, and the report names the best baseline.
func TestSearchFindsSRSF(t *testing.T) {
	cfg := testConfig(t, "gp.time_unit=seconds")
	_, val, err := LoadData(cfg)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Search(context.Background(), cfg, val, SearchSettings{Depth: 2, Screen: 1, Keep: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Enumerated != 68 || rep.Canonical > rep.Enumerated || rep.Behaviours > rep.Canonical || len(rep.Kept) != rep.Behaviours {
		t.Fatalf("counts: %+v", rep)
	}
	found := false
	for _, k := range rep.Kept {
		if s := k.Formula.String(); s == "d * g" || s == "g * d" {
			found = true
			if k.Validation != 1 {
				t.Errorf("%s scores %v, want exactly 1 (SRSF)", k.Formula, k.Validation)
			}
		}
	}
	if !found {
		t.Error("g * d is not among the scored behaviours")
	}
	for i := 1; i < len(rep.Kept); i++ {
		if rep.Kept[i].Validation < rep.Kept[i-1].Validation {
			t.Fatal("kept results are not sorted")
		}
	}
	var buf bytes.Buffer
	if err := rep.WriteText(&buf, 5); err != nil || !strings.Contains(buf.String(), "best baseline") {
		t.Errorf("report: %v\n%s", err, buf.String())
	}
}

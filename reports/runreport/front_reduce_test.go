package runreport

import (
	"strings"
	"testing"

	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/reports/htmlreport"
	"github.com/evogp/evogp/runfile"
)

// The report's front section shows each member's reduced formula first
// (label, infix, LaTeX in the simulator-domain notation) and the evolved
// one in the note; a member without a reduction (an old best.json) shows
// its simplified tree as before.
func TestFrontSectionShowsReduced(t *testing.T) {
	tree := expr.MustParse("q * (g % g) + d % d")
	f := &runfile.Front{Objectives: []string{"avg_jct", "max_qt"}, Members: []runfile.FrontMember{
		{Label: "front-1", Tree: tree, Infix: tree.String(), Simplified: expr.Simplify(tree).String(), Size: expr.Simplify(tree).Size(),
			Reduced: "q", ReducedInfix: "q", ReducedSize: 1, Validation: []float64{1, 0.9}},
		{Label: "front-2", Tree: expr.MustParse("d"), Infix: "d", Simplified: "d", Size: 1, Validation: []float64{0.9, 1}},
	}}
	sec, ok := frontSection(f)
	if !ok || len(sec.Blocks) != 2 {
		t.Fatalf("front section %+v", sec)
	}
	red, ok := sec.Blocks[0].(htmlreport.Formula)
	if !ok {
		t.Fatalf("block 0 is %T", sec.Blocks[0])
	}
	if red.Label != "front-1: f = q" || red.Infix != "q" || red.LaTeX == "" || !strings.Contains(red.Note, "As evolved: "+tree.String()) || !strings.Contains(red.Note, "→ 1 nodes") {
		t.Errorf("reduced member block %+v", red)
	}
	old, _ := sec.Blocks[1].(htmlreport.Formula)
	if old.Label != "front-2: f = d" || old.Infix != "d" {
		t.Errorf("unreduced member block %+v", old)
	}
}

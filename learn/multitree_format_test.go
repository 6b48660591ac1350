package learn

import (
	"strings"
	"testing"

	"github.com/evogp/evogp/expr"
)

// The SymPy form of a two-tree scheduler is one program: one header
// declaring the symbols of both trees and one pdiv helper, however many
// divisions either tree nests. On the simulator's domain, C ≥ 1 and g ≥ 1
// make W % C and d % g true divisions; n and q can be 0, so W % n and
// d % q keep pdiv (issue 31).
func TestFormatPairSympy(t *testing.T) {
	routing := expr.Routing.MustParse("W % C + (W % n) % (f % n)")
	ranking := expr.MustParse("d % g - d % q")
	plain, err := FormatPair(routing, ranking, "sympy")
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(plain, "Piecewise("); n != 1 {
		t.Errorf("%d Piecewise, want 1 (the helper):\n%s", n, plain)
	}
	for _, want := range []string{
		"f, n, C, W, d, q, g = symbols(\"f n C W d q g\")\n",
		"routing_R = pdiv(W, C) + pdiv(pdiv(W, n), pdiv(f, n))\n",
		"ranking_f = pdiv(d, g) - pdiv(d, q)\n",
	} {
		if !strings.Contains(plain, want) {
			t.Errorf("missing %q in\n%s", want, plain)
		}
	}
	onDomain, err := FormatPairOn(routing, ranking, "sympy", expr.DefaultDomain())
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"routing_R = W/C + pdiv(pdiv(W, n), pdiv(f, n))\n",
		"ranking_f = d/g - pdiv(d, q)\n",
	} {
		if !strings.Contains(onDomain, want) {
			t.Errorf("missing %q in\n%s", want, onDomain)
		}
	}
	latex, err := FormatPairOn(routing, ranking, "latex", expr.DefaultDomain())
	if err != nil || !strings.Contains(latex, `\frac{W}{C}`) || !strings.Contains(latex, `\frac{d}{g}`) {
		t.Errorf("latex on the domain: %v\n%s", err, latex)
	}
	dom := expr.DefaultDomain()
	dom.Extra = map[expr.Op]expr.Bound{9: {Lo: 0, Hi: 1}}
	if _, err := FormatPairOn(routing, ranking, "sympy", dom); err == nil {
		t.Error("a one-catalogue domain accepted for both trees")
	}
}

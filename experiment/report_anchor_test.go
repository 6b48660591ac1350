package experiment

import (
	"testing"

	"github.com/evogp/evogp/internal/figure"
	"github.com/evogp/evogp/reports/htmlreport"
)

// The anchor a front figure's point links to is the one report.html gives
// the member's formula.
func TestFormulaAnchorIsTheReportAnchor(t *testing.T) {
	for _, label := range []string{"front-3", "gp", "a b/c", "ω=0.5", ""} {
		if got, want := figure.FormulaAnchor(label), htmlreport.Anchor("formula-", label); got != want {
			t.Errorf("FormulaAnchor(%q) = %q, report anchor %q", label, got, want)
		}
	}
}

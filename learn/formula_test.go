package learn

import (
	"testing"

	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/simcore"
)

var _ simcore.Ranking = FormulaRanking{}

func TestFormulaRanking(t *testing.T) {
	// 2 h remaining, 30 min queued, user priority 3, 8 GPUs.
	j := simcore.JobView{Remaining: 7200, Queued: 1800, Priority: 3, GPUs: 8, Duration: 9000, Arrival: 100}
	for _, tc := range []struct {
		formula string
		seconds bool
		want    float64
	}{
		{"g*d", false, 16},            // SRSF: 8 GPUs × 2 h
		{"g*d", true, 57600},          // 8 × 7200 s
		{"q", false, 0.5},             // hours
		{"q", true, 1800},             // seconds
		{"u", false, 3},               // user priority passes through
		{"d % (q - q) + u", false, 5}, // protected division: 2 % 0 = 2, + 3
		{"(d - q) * g % u", false, 4}, // (2 − 0.5)·8 / 3
		{"0 - g", false, -8},
	} {
		r := NewFormulaRanking(expr.MustParse(tc.formula), tc.seconds)
		if got := r.Priority(j); got != tc.want {
			t.Errorf("%s (seconds=%v) = %v, want %v", tc.formula, tc.seconds, got, tc.want)
		}
	}
}

// SRSF written as a formula orders jobs like g·rem.
func TestFormulaRankingOrdersLikeSRSF(t *testing.T) {
	r := NewFormulaRanking(expr.MustParse("g*d"), false)
	small := simcore.JobView{Remaining: 3600, GPUs: 4}  // 4 GPU-hours
	large := simcore.JobView{Remaining: 36000, GPUs: 1} // 10 GPU-hours
	if !(r.Priority(small) < r.Priority(large)) {
		t.Errorf("g*d ranks %v before %v", large, small)
	}
}

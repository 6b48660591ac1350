package learn

import (
	"testing"

	"github.com/evogp/evogp/simcore"
)

// objectiveVector by hand: three instances where SRSF's cq_avg is 1, 3
// and 0 and the candidate's 2, 3 and 0.5 (terms 2, 1 and 1 + 0.5). The
// mean is (2 + 1 + 1.5) / 3 = 1.5; pooled is the ratio of the raw sums,
// (2 + 3 + 0.5) / (1 + 3 + 0) = 1.375. A prefix of one instance is a
// lower bound over all three: 2 / 3 (mean), 2 / 4 (pooled). When SRSF
// scores 0 everywhere, pooled falls back to the mean.
func TestObjectiveVectorHandCase(t *testing.T) {
	srsf := []simcore.Metrics{{CQAvg: 1}, {CQAvg: 3}, {CQAvg: 0}}
	cand := []simcore.Metrics{{CQAvg: 2}, {CQAvg: 3}, {CQAvg: 0.5}}
	for _, tc := range []struct {
		pooled       bool
		full, prefix float64
	}{{false, 1.5, 2.0 / 3}, {true, 1.375, 0.5}} {
		f := &frontState{names: []string{"cq_avg", "size"}, pooled: tc.pooled}
		if v := f.meanVector(cand, srsf, 7); v[0] != tc.full || v[1] != 7 {
			t.Errorf("pooled %v: meanVector = %v, want [%v 7]", tc.pooled, v, tc.full)
		}
		terms := [][]float64{f.terms(cand[0], srsf[0])}
		if v := f.objectiveVector(terms, srsf[:1], srsf, 0); v[0] != tc.prefix {
			t.Errorf("pooled %v: prefix = %v, want %v", tc.pooled, v[0], tc.prefix)
		}
		zero := []simcore.Metrics{{}, {}}
		if v := f.meanVector(cand[:2], zero, 0); v[0] != (3+4)/2.0 {
			t.Errorf("pooled %v: SRSF 0 everywhere: %v, want the mean of 1 + O, 3.5", tc.pooled, v[0])
		}
	}
}

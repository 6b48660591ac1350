package bestbaseline

import (
	"math"
	"testing"
)

func TestIndex(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		scores []float64
		want   int
		ok     bool
	}{
		{[]float64{1.2, 0.9, 1}, 1, true},
		{[]float64{0.9, 0.9}, 0, true}, // ties: first listed
		{[]float64{nan, 2, 3}, 1, true},
		{[]float64{nan}, -1, false},
		{nil, -1, false},
	} {
		if got, ok := Index(c.scores); got != c.want || ok != c.ok {
			t.Errorf("Index(%v) = %d, %v; want %d, %v", c.scores, got, ok, c.want, c.ok)
		}
	}
}

package figure

import (
	"testing"

	"gonum.org/v1/plot"
)

// fixedTicks labels every value with one digit, as a coarse ticker might.
type fixedTicks []float64

func (f fixedTicks) Ticks(min, max float64) []plot.Tick {
	var out []plot.Tick
	for _, v := range f {
		out = append(out, plot.Tick{Value: v, Label: "2"})
	}
	return out
}

// Repeated labels get just enough digits to differ; distinct ones stay.
func TestDistinctTicks(t *testing.T) {
	got := DistinctTicks{Ticker: fixedTicks{2.01, 2.02, 2.03}}.Ticks(2, 2.03)
	for i, want := range []string{"2.01", "2.02", "2.03"} {
		if got[i].Label != want {
			t.Fatalf("labels %v", got)
		}
	}
	got = DistinctTicks{Ticker: plot.DefaultTicks{}}.Ticks(0, 10)
	want := plot.DefaultTicks{}.Ticks(0, 10)
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("distinct labels changed: %v vs %v", got, want)
		}
	}
	// The default ticker on a narrow range never repeats a label.
	got = DistinctTicks{Ticker: plot.DefaultTicks{}}.Ticks(2.0001, 2.0004)
	if !labelsDistinct(got) {
		t.Fatalf("repeated labels %v", got)
	}
}

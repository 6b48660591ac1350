package figure

import (
	"math"
	"strconv"
	"testing"
)

// MinTicks gives at least N labelled ticks at a round step inside the
// range, with labels that read as their values.
func TestMinTicks(t *testing.T) {
	for _, c := range []struct {
		lo, hi float64
		n      int
		want   string
	}{
		{0.09, 0.87, 5, "0.1 0.2 0.3 0.4 0.5 0.6 0.7 0.8"},
		{0, 6, 5, "0 1 2 3 4 5 6"},
		{0, 10, 5, "0.0 2.5 5.0 7.5 10.0"}, {0, 10, 6, "0 2 4 6 8 10"},
		{0.3, 4.7, 5, "0.5 1.0 1.5 2.0 2.5 3.0 3.5 4.0 4.5"},
		{-1, 1, 5, "-1.0 -0.5 0.0 0.5 1.0"},
		{0, 1, 5, "0.00 0.25 0.50 0.75 1.00"},
		{2, 2, 5, "2"},
	} {
		ticks := MinTicks{N: c.n}.Ticks(c.lo, c.hi)
		got := ""
		for i, tk := range ticks {
			if i > 0 {
				got += " "
			}
			got += tk.Label
			v, err := strconv.ParseFloat(tk.Label, 64)
			if err != nil || math.Abs(v-tk.Value) > 1e-9*max(1, math.Abs(tk.Value)) {
				t.Errorf("tick %v labelled %q", tk.Value, tk.Label)
			}
			if tk.Value < c.lo-1e-12 || tk.Value > c.hi+1e-12 {
				t.Errorf("tick %v outside %v..%v", tk.Value, c.lo, c.hi)
			}
		}
		if got != c.want {
			t.Errorf("MinTicks{%d}(%v, %v) = %q, want %q", c.n, c.lo, c.hi, got, c.want)
		}
	}
	for _, c := range []struct {
		lo, hi float64
		want   string
	}{{0, 10, "0 2 4 6 8 10"}, {0, 4, "0 1 2 3 4"}, {0, 2, "0 1 2"}, {0, 100, "0 25 50 75 100"}} {
		got := ""
		for _, tk := range (MinTicks{N: 5, Integer: true}).Ticks(c.lo, c.hi) {
			got += " " + tk.Label
		}
		if got != " "+c.want {
			t.Errorf("integer MinTicks(%v, %v) = %q, want %q", c.lo, c.hi, got, c.want)
		}
	}
	if (MinTicks{N: 5}).Ticks(1, 0) != nil {
		t.Error("reversed range gave ticks")
	}
}

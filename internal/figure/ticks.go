package figure

import (
	"math"
	"strconv"

	"gonum.org/v1/plot"
)

// MinTicks labels a linear axis at a round step (1, 2, 2.5 or 5 × 10^k),
// the largest such step that still puts at least N labelled ticks in the
// range, so that a reader can interpolate between labels; gonum's default
// ticker often labels only two or three values. A range of zero width gets
// one tick. Integer keeps to whole-number steps (for counts such as
// generations).
type MinTicks struct {
	N       int
	Integer bool
}

// Ticks implements plot.Ticker.
func (m MinTicks) Ticks(lo, hi float64) []plot.Tick {
	if math.IsNaN(lo) || math.IsNaN(hi) || math.IsInf(lo, 0) || math.IsInf(hi, 0) || hi < lo {
		return nil
	}
	if hi == lo {
		return []plot.Tick{{Value: lo, Label: strconv.FormatFloat(lo, 'g', 6, 64)}}
	}
	n := max(m.N, 2)
	span := hi - lo
	for e := math.Ceil(math.Log10(span)); e > math.Log10(span)-16; e-- {
		for _, mult := range []float64{5, 2.5, 2, 1} {
			step := mult * math.Pow(10, e)
			if m.Integer && (step < 1 || mult == 2.5 && e < 1) {
				continue
			}
			first, last := math.Ceil(lo/step-1e-9), math.Floor(hi/step+1e-9)
			if int(last-first)+1 < n {
				continue
			}
			decimals := max(0, int(-e))
			if mult == 2.5 && e < 1 {
				decimals++
			}
			var ticks []plot.Tick
			for k := first; k <= last; k++ {
				v := k * step
				if v == 0 {
					v = 0 // no "-0"
				}
				ticks = append(ticks, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', decimals, 64)})
			}
			return ticks
		}
	}
	if m.Integer { // fewer than N whole numbers in the range: label each
		var ticks []plot.Tick
		for v := math.Ceil(lo); v <= hi; v++ {
			ticks = append(ticks, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', 0, 64)})
		}
		return ticks
	}
	return nil
}

// Log10Ticks labels an axis that carries log10 of the data (drawn on a
// linear scale) with the ticks Ticker gives for the data range, placed at
// their log10. Plotting log10 values on a linear axis instead of using
// plot.LogScale keeps gonum's axis-label box where the label is drawn
// (with LogScale gonum reserves room for the label at the arithmetic
// midpoint of the range, which on a log axis lies near its right end and
// squeezes the data into the left of the panel).
type Log10Ticks struct{ Ticker plot.Ticker }

// Ticks implements plot.Ticker.
func (l Log10Ticks) Ticks(lo, hi float64) []plot.Tick {
	ticks := l.Ticker.Ticks(math.Pow(10, lo), math.Pow(10, hi))
	for i := range ticks {
		ticks[i].Value = math.Log10(ticks[i].Value)
	}
	return ticks
}

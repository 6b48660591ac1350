package reports

import (
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/evogp/evogp/internal/figure"
)

// Figure sizes.
const (
	figW   = figure.Width
	figH   = figure.Height
	panelW = 8 * vg.Centimeter
	panelH = 6.5 * vg.Centimeter
)

// ordinal returns "1st", "2nd", "3rd", "4th", … .
func ordinal(k int) string {
	suf := "th"
	if k%100 < 11 || k%100 > 13 {
		switch k % 10 {
		case 1:
			suf = "st"
		case 2:
			suf = "nd"
		case 3:
			suf = "rd"
		}
	}
	return strconv.Itoa(k) + suf
}

func hours(s int64) float64 { return float64(s) / 3600 }

// fitNominalLabels turns the x tick labels of p (at 0, 1, …, as NominalX
// places them) 45° when two neighbours, centred on ticks dataWidth/n
// apart, would come closer than 4 pt: turned labels end at their ticks and
// cannot collide however many there are. It returns the extra height the
// turned labels need (0 when they stay level).
func fitNominalLabels(p *plot.Plot, names []string, dataWidth vg.Length) vg.Length {
	if len(names) == 0 {
		return 0
	}
	slot := dataWidth / vg.Length(len(names))
	var longest vg.Length
	crowded := false
	for i, n := range names {
		w := p.X.Tick.Label.Width(n)
		longest = max(longest, w)
		if i > 0 && (w+p.X.Tick.Label.Width(names[i-1]))/2+vg.Points(4) > slot {
			crowded = true
		}
	}
	if !crowded {
		return 0
	}
	p.X.Tick.Label.Rotation = math.Pi / 4
	p.X.Tick.Label.XAlign = draw.XRight
	p.X.Tick.Label.YAlign = draw.YTop
	return longest * math.Sqrt2 / 2
}

// logTicks125 labels a log axis at 1, 2 and 5 × 10^k when the range spans
// at most 3 decades and at powers of ten otherwise (so labels never crowd),
// with unlabelled minor ticks at the other integer multiples; plot.LogTicks
// labels powers of ten only, which leaves short ranges unlabelled.
type logTicks125 struct{}

// Ticks implements plot.Ticker for min > 0.
func (logTicks125) Ticks(min, max float64) []plot.Tick {
	if !(min > 0) || !(max >= min) {
		return nil
	}
	var ticks []plot.Tick
	lo, hi := math.Floor(math.Log10(min)), math.Ceil(math.Log10(max))
	dense := hi-lo <= 3
	for e := lo; e <= hi; e++ {
		base := math.Pow(10, e)
		for m := 1; m <= 9; m++ {
			v := float64(m) * base
			if v < min*(1-1e-12) || v > max*(1+1e-12) {
				continue
			}
			t := plot.Tick{Value: v}
			if m == 1 || dense && (m == 2 || m == 5) {
				t.Label = strconv.FormatFloat(v, 'g', -1, 64)
			}
			ticks = append(ticks, t)
		}
	}
	return ticks
}

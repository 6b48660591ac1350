package figure

import (
	"image/color"
	"slices"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// LabelColors returns the 12-colour palette series are told apart by:
// the Okabe–Ito colours without yellow (Okabe & Ito, "Color Universal
// Design", 2008), four darker colours from Paul Tol's "muted" scheme
// (indigo, olive, wine) and a grey, and the Okabe–Ito yellow last (weak on
// white). Any two differ by CIELAB ΔE76 ≥ 20 (TestLabelColorsDistinct).
func LabelColors() []color.Color {
	return []color.Color{
		color.RGBA{0xE6, 0x9F, 0x00, 0xFF}, // orange
		color.RGBA{0x56, 0xB4, 0xE9, 0xFF}, // sky blue
		color.RGBA{0x00, 0x9E, 0x73, 0xFF}, // bluish green
		color.RGBA{0x00, 0x72, 0xB2, 0xFF}, // blue
		color.RGBA{0xD5, 0x5E, 0x00, 0xFF}, // vermillion
		color.RGBA{0xCC, 0x79, 0xA7, 0xFF}, // reddish purple
		color.RGBA{0x00, 0x00, 0x00, 0xFF}, // black
		color.RGBA{0x33, 0x22, 0x88, 0xFF}, // indigo
		color.RGBA{0x99, 0x99, 0x33, 0xFF}, // olive
		color.RGBA{0x88, 0x22, 0x55, 0xFF}, // wine
		color.RGBA{0x99, 0x99, 0x99, 0xFF}, // grey
		color.RGBA{0xF0, 0xE4, 0x42, 0xFF}, // yellow
	}
}

// Palette gives every label of a set one style. A scheduler with a fixed
// colour (SchedulerColor) always takes that colour, in every figure of the
// product; the other labels, in sorted order, take the colours no fixed
// label of the set holds (black first: a label with no fixed colour is
// usually a learned policy), and past those a dash pattern and a marker
// shape tell them apart. Built from the same label set (e.g. every
// scheduler of an output directory's results), every figure draws a label
// in the same style, whatever order or subset of the labels it draws.
type Palette struct {
	index map[string]int
	next  int // the index of a label outside the set
}

// freeColorOrder is the order in which labels without a fixed colour take
// the colours left free: black, then the colours of the rarer schedulers,
// then those of the common baselines.
var freeColorOrder = [...]int{6, 7, 8, 9, 10, 11, 0, 1, 2, 3, 4, 5}

// NewPalette returns the palette of the distinct labels given.
func NewPalette(labels []string) Palette {
	sorted := slices.Clone(labels)
	slices.Sort(sorted)
	sorted = slices.Compact(sorted)
	idx := make(map[string]int, len(sorted))
	taken := map[int]bool{}
	for _, l := range sorted {
		if i, ok := fixedIndex(l); ok {
			idx[l] = i
			taken[i] = true
		}
	}
	var free []int
	for _, i := range freeColorOrder {
		if !taken[i] {
			free = append(free, i)
		}
	}
	n := len(LabelColors())
	k := 0
	for _, l := range sorted {
		if _, ok := idx[l]; ok {
			continue
		}
		if k < len(free) {
			idx[l] = free[k]
		} else {
			// Past the free colours: the colours again, each with the dash
			// and marker of the next round.
			over := k - len(free)
			idx[l] = n*(1+over/n) + freeColorOrder[over%n]
		}
		k++
	}
	next := n
	for _, i := range idx {
		next = max(next, i+1)
	}
	return Palette{index: idx, next: next}
}

// Index is label's style index (its colour is LabelColors()[Index%12], its
// dash and marker round Index/12); a fixed scheduler outside the set keeps
// its fixed index, and another label outside the set gets the index past
// the last (a style of its own, the same every time).
func (p Palette) Index(label string) int {
	if i, ok := p.index[label]; ok {
		return i
	}
	if i, ok := fixedIndex(label); ok {
		return i
	}
	return p.next
}

// Color is label's colour.
func (p Palette) Color(label string) color.Color {
	c := LabelColors()
	return c[p.Index(label)%len(c)]
}

// Dash is label's dash pattern: solid for the first 12 labels, then
// dashed, then dotted, then dash-dotted.
func (p Palette) Dash(label string) []vg.Length {
	switch (p.Index(label) / len(LabelColors())) % 4 {
	case 1:
		return []vg.Length{vg.Points(6), vg.Points(3)}
	case 2:
		return []vg.Length{vg.Points(1.5), vg.Points(2)}
	case 3:
		return []vg.Length{vg.Points(6), vg.Points(2), vg.Points(1.5), vg.Points(2)}
	}
	return nil
}

// Glyph is label's marker shape: circles for the first 12 labels, then
// squares, triangles, crosses and rings.
func (p Palette) Glyph(label string) draw.GlyphDrawer {
	switch (p.Index(label) / len(LabelColors())) % 5 {
	case 1:
		return draw.SquareGlyph{}
	case 2:
		return draw.TriangleGlyph{}
	case 3:
		return draw.CrossGlyph{}
	case 4:
		return draw.RingGlyph{}
	}
	return draw.CircleGlyph{}
}

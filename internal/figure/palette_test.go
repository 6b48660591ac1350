package figure

import (
	"fmt"
	"image/color"
	"math"
	"testing"
)

// lab converts an sRGB colour to CIELAB (D65).
func lab(c color.Color) (l, a, b float64) {
	r8, g8, b8, _ := c.RGBA()
	lin := func(v uint32) float64 {
		x := float64(v) / 0xFFFF
		if x <= 0.04045 {
			return x / 12.92
		}
		return math.Pow((x+0.055)/1.055, 2.4)
	}
	R, G, B := lin(r8), lin(g8), lin(b8)
	X := (0.4124*R + 0.3576*G + 0.1805*B) / 0.95047
	Y := 0.2126*R + 0.7152*G + 0.0722*B
	Z := (0.0193*R + 0.1192*G + 0.9505*B) / 1.08883
	f := func(t float64) float64 {
		if t > 216.0/24389 {
			return math.Cbrt(t)
		}
		return (24389.0/27*t + 16) / 116
	}
	return 116*f(Y) - 16, 500 * (f(X) - f(Y)), 200 * (f(Y) - f(Z))
}

// Any two of the 12 label colours are far apart (CIELAB ΔE76 ≥ 20).
func TestLabelColorsDistinct(t *testing.T) {
	cs := LabelColors()
	if len(cs) != 12 {
		t.Fatalf("%d colours, want 12", len(cs))
	}
	for i := range cs {
		for j := i + 1; j < len(cs); j++ {
			l1, a1, b1 := lab(cs[i])
			l2, a2, b2 := lab(cs[j])
			if d := math.Sqrt((l1-l2)*(l1-l2) + (a1-a2)*(a1-a2) + (b1-b2)*(b1-b2)); d < 20 {
				t.Errorf("colours %d and %d: ΔE = %.1f < 20", i, j, d)
			}
		}
	}
}

// A label's style does not depend on the order the labels are given in;
// 12 labels get 12 colours, and labels 13–24 repeat the colours with a
// dash and a marker of their own.
func TestPaletteStyles(t *testing.T) {
	var labels []string
	for i := range 24 {
		labels = append(labels, fmt.Sprintf("s%02d", i))
	}
	rev := make([]string, len(labels))
	for i, l := range labels {
		rev[len(labels)-1-i] = l
	}
	p, q := NewPalette(labels), NewPalette(append(rev, labels[3]))
	type style struct {
		c    color.Color
		dash string
		g    string
	}
	seen := map[style]string{}
	colours := map[color.Color]bool{}
	for i, l := range labels {
		if p.Color(l) != q.Color(l) || fmt.Sprint(p.Dash(l)) != fmt.Sprint(q.Dash(l)) {
			t.Errorf("%s: style depends on the order of the labels", l)
		}
		s := style{p.Color(l), fmt.Sprint(p.Dash(l)), fmt.Sprintf("%T", p.Glyph(l))}
		if o, ok := seen[s]; ok {
			t.Errorf("%s and %s share a style", l, o)
		}
		seen[s] = l
		if i < 12 {
			colours[p.Color(l)] = true
		}
	}
	if len(colours) != 12 {
		t.Errorf("first 12 labels use %d colours, want 12", len(colours))
	}
	if NewPalette(labels).Index("unknown") != 24 {
		t.Error("a label outside the set should get the index past the last")
	}
}

// A scheduler with a fixed colour is drawn in that colour by every palette,
// whatever else the set holds (so across every figure of the product); the
// other labels take the colours left free, black first, and no two labels
// of a set share a style.
func TestPaletteFixedSchedulerColours(t *testing.T) {
	sets := [][]string{
		{"liquid", "tiresias"},
		{"aaa", "liquid", "spark", "tiresias", "zzz"},
		{"gp", "hydra", "lyra", "liquid", "mine", "spark", "srsf", "tiresias", "fifo", "edf", "x1", "x2", "x3"},
		{"tiresias = srsf", "liquid", "hydra:budget=10", "gp"},
	}
	for _, set := range sets {
		p := NewPalette(set)
		styles := map[string]string{}
		for _, l := range set {
			if c, ok := SchedulerColor(l); ok && p.Color(l) != c {
				t.Errorf("set %v: %s drawn %v, its fixed colour is %v", set, l, p.Color(l), c)
			}
			s := fmt.Sprint(p.Color(l), p.Dash(l), fmt.Sprintf("%T", p.Glyph(l)))
			if o, ok := styles[s]; ok {
				t.Errorf("set %v: %s and %s share a style", set, l, o)
			}
			styles[s] = l
		}
	}
	liquid, _ := SchedulerColor("liquid")
	if liquid != LabelColors()[1] {
		t.Errorf("liquid is %v, want sky blue", liquid)
	}
	folded, _ := SchedulerColor("tiresias = srsf")
	tiresias, _ := SchedulerColor("tiresias")
	if folded != tiresias {
		t.Error("a folded row should take its first name's colour")
	}
	// The first label without a fixed colour is black (usually the learned
	// policy); with all 12 fixed colours taken, it gets a dash of its own.
	if c := NewPalette([]string{"gp", "liquid"}).Color("gp"); c != LabelColors()[6] {
		t.Errorf("gp drawn %v, want black", c)
	}
	var all []string
	for name := range schedulerColorIndex {
		all = append(all, name)
	}
	p := NewPalette(append(all, "gp"))
	if p.Dash("gp") == nil {
		t.Error("with every colour fixed, gp should be dashed")
	}
}

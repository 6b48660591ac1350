package reports

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

// goldenFront is the figure of the golden test: the collisions issue 44
// lists (ω points on tiresias = srsf and beside liquid) with one baseline
// an order of magnitude off, so the axes are logarithmic.
func goldenFront(t *testing.T) *Figure {
	om := omegaGrid([]float64{0, 0.25, 0.5, 0.75, 1}, func(i int) (float64, float64) {
		return []float64{3.1, 3.0, 2.0, 1.21, 0.9}[i], []float64{2.70, 2.69, 2.6, 2.62, 2.9}[i]
	})
	f, err := TradeoffFrontPlot(om, []BaselinePoint{{"spark", 2.62, 1.2}, {"liquid", 2.62, 1.25}, {"tiresias", 2.69, 3.0}, {"lyra", 40, 30}, {"srsf", 2.69, 3.0}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// pngDiff is the fraction of pixels of a and b (same size) whose colour
// differs by more than tol in some channel (8-bit scale); 1 when the
// sizes differ.
func pngDiff(a, b image.Image, tol uint32) float64 {
	if a.Bounds() != b.Bounds() {
		return 1
	}
	r := a.Bounds()
	bad := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			ar, ag, ab, aa := a.At(x, y).RGBA()
			br, bg, bb, ba := b.At(x, y).RGBA()
			for _, d := range [][2]uint32{{ar, br}, {ag, bg}, {ab, bb}, {aa, ba}} {
				lo, hi := min(d[0], d[1]), max(d[0], d[1])
				if (hi-lo)>>8 > tol {
					bad++
					break
				}
			}
		}
	}
	return float64(bad) / float64(r.Dx()*r.Dy())
}

// The trade-off figure, rasterised, matches testdata/tradeoff_sweep.png
// within a tolerance (at most 0.5 % of pixels off by more than 24 of 255
// in a channel: font hinting may differ across platforms; a moved label,
// point or axis changes far more). go test ./reports -run
// TestTradeoffFrontGoldenPNG -update rewrites it.
func TestTradeoffFrontGoldenPNG(t *testing.T) {
	b, err := goldenFront(t).Render("png")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", "tradeoff_sweep.png")
	if *update {
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	wantB, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	want, err := png.Decode(bytes.NewReader(wantB))
	if err != nil {
		t.Fatal(err)
	}
	if d := pngDiff(got, want, 24); d > 0.005 {
		_ = os.WriteFile(filepath.Join(t.TempDir(), "got.png"), b, 0o644)
		t.Fatalf("tradeoff_sweep.png differs from the golden image on %.2f %% of pixels", 100*d)
	}
	// The comparison can fail: moving one baseline moves its square and
	// label by far more than the tolerance.
	om := omegaGrid([]float64{0, 1}, func(i int) (float64, float64) { return 1 + float64(i), 2 })
	moved, err := TradeoffFrontPlot(om, []BaselinePoint{{"spark", 2.62, 1.2}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	mb, _ := moved.Render("png")
	mi, _ := png.Decode(bytes.NewReader(mb))
	if d := pngDiff(mi, want, 24); d <= 0.005 {
		t.Fatalf("a different figure passes the golden comparison (%.3f %%)", 100*d)
	}
}

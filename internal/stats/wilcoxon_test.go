package stats

import (
	"math"
	"testing"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// Hollander & Wolfe (1973, p. 29), Hamilton depression scale factor IV
// before (y) and after (x) tranquilizer, the example of R's wilcox.test:
// wilcox.test(x, y, paired = TRUE, alternative = "greater") reports V = 40,
// p = 0.01953. By hand: d = x − y has 9 non-zero values; the negative ones,
// −0.08 and −0.147, have the two smallest ranks after 0.01, i.e. 2 and 3,
// so W− = 5 and W+ = 45 − 5 = 40. P(W+ ≥ 40) = P(W+ ≤ 5) = (number of
// subsets of {1..9} with sum ≤ 5) / 2^9 = (1+1+1+2+2+3)/512 = 10/512, and
// the two-sided p is 20/512 = 0.0390625.
func TestWilcoxonHollanderWolfe(t *testing.T) {
	x := []float64{1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30}
	y := []float64{0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29}
	w, err := WilcoxonSignedRank(x, y)
	if err != nil {
		t.Fatal(err)
	}
	if w.Method != "exact" || w.N != 9 || w.WPlus != 40 || w.WMinus != 5 {
		t.Fatalf("got %+v, want exact n=9 W+=40 W−=5", w)
	}
	if w.P != 20.0/512 {
		t.Fatalf("p = %v, want 20/512 = 0.0390625", w.P)
	}
	// Swapping the samples swaps W+ and W− and keeps the two-sided p.
	v, err := WilcoxonSignedRank(y, x)
	if err != nil {
		t.Fatal(err)
	}
	if v.WPlus != 5 || v.WMinus != 40 || v.P != w.P {
		t.Fatalf("swapped: got %+v", v)
	}
}

// Darwin's Zea mays data (Fisher, The Design of Experiments, 1935): height
// differences (eighths of an inch) of 15 cross- vs self-fertilised pairs.
// The SciPy documentation of scipy.stats.wilcoxon reports statistic 24 and
// exact two-sided p = 0.041259765625 (= 1352/32768) for them. By hand: the
// two negative differences −48 and −67 have ranks 10 and 14, W− = 24.
func TestWilcoxonDarwin(t *testing.T) {
	d := []float64{6, 8, 14, 16, 23, 24, 28, 29, 41, -48, 49, 56, 60, -67, 75}
	zero := make([]float64, len(d))
	w, err := WilcoxonSignedRank(d, zero)
	if err != nil {
		t.Fatal(err)
	}
	if w.Method != "exact" || w.WMinus != 24 || w.WPlus != 96 {
		t.Fatalf("got %+v, want exact W−=24 W+=96", w)
	}
	if w.P != 0.041259765625 {
		t.Fatalf("p = %v, want 0.041259765625", w.P)
	}
}

// With n = 5 all positive the smallest attainable two-sided p is 2/2^5.
// Zero differences are dropped and counted.
func TestWilcoxonSmallAndZeros(t *testing.T) {
	w, err := WilcoxonSignedRank([]float64{1, 2, 3, 4, 5, 7, 7}, []float64{0, 0, 0, 0, 0, 7, 7})
	if err != nil {
		t.Fatal(err)
	}
	if w.N != 5 || w.Zeros != 2 || w.WPlus != 15 || w.WMinus != 0 || w.P != 0.0625 {
		t.Fatalf("got %+v, want n=5 zeros=2 W+=15 p=0.0625", w)
	}
	w, err = WilcoxonSignedRank([]float64{1, 2}, []float64{1, 2})
	if err != nil {
		t.Fatal(err)
	}
	if w.Method != "none" || w.P != 1 || w.N != 0 || w.Zeros != 2 {
		t.Fatalf("all zero: got %+v", w)
	}
}

// Ties force the normal approximation. d = (1, 1, 2, −3): mid-ranks 1.5,
// 1.5, 3, 4, so W+ = 6, W− = 4; μ = 4·5/4 = 5, σ² = 4·5·9/24 − (2³−2)/48 =
// 7.5 − 0.125 = 7.375; continuity-corrected z = (6 − 5 − 0.5)/√7.375 =
// 0.184115 and p = erfc(z/√2) = 0.853923.
func TestWilcoxonTiesNormal(t *testing.T) {
	w, err := WilcoxonSignedRank([]float64{1, 1, 2, -3}, []float64{0, 0, 0, 0})
	if err != nil {
		t.Fatal(err)
	}
	if w.Method != "normal" || w.WPlus != 6 || w.WMinus != 4 {
		t.Fatalf("got %+v", w)
	}
	if !near(w.Z, 0.1841149235796647, 1e-12) || !near(w.P, 0.8539232992870668, 1e-12) {
		t.Fatalf("z = %v p = %v, want 0.184115 0.853923", w.Z, w.P)
	}
}

// For a moderate n the exact and the normal p-values must agree closely
// over the whole range of W+, and above ExactMaxN the normal one is used.
func TestWilcoxonExactVsNormal(t *testing.T) {
	const n = 20
	maxDiff, maxTail := 0.0, 0.0
	for w := 0; w <= n*(n+1)/2; w++ {
		exact := wilcoxonExactP(n, math.Min(float64(w), float64(n*(n+1)/2-w)))
		_, normal := wilcoxonNormal(n, float64(w), nil)
		maxDiff = math.Max(maxDiff, math.Abs(exact-normal))
		if exact < 0.1 {
			maxTail = math.Max(maxTail, math.Abs(exact-normal))
		}
	}
	// Measured: 0.0083 overall (near p ≈ 0.47), 0.0025 where p < 0.1.
	if maxDiff > 0.01 || maxTail > 0.003 {
		t.Fatalf("n=%d: max |exact − normal| = %v overall, %v where p < 0.1", n, maxDiff, maxTail)
	}
	// The same data through the public function: n = 26 goes normal.
	var x []float64
	for i := 1; i <= 26; i++ {
		v := float64(i)
		if i%4 == 0 {
			v = -v
		}
		x = append(x, v)
	}
	w, err := WilcoxonSignedRank(x, make([]float64, len(x)))
	if err != nil {
		t.Fatal(err)
	}
	if w.Method != "normal" {
		t.Fatalf("n=26 used %s", w.Method)
	}
	exact := wilcoxonExactP(26, math.Min(w.WPlus, w.WMinus))
	if !near(exact, w.P, 0.005) {
		t.Fatalf("n=26: exact %v normal %v", exact, w.P)
	}
}

func TestWilcoxonBadInput(t *testing.T) {
	if _, err := WilcoxonSignedRank([]float64{1}, []float64{1, 2}); err == nil {
		t.Fatal("length mismatch accepted")
	}
	if _, err := WilcoxonSignedRank([]float64{math.NaN()}, []float64{1}); err == nil {
		t.Fatal("NaN accepted")
	}
}

func TestMidRanks(t *testing.T) {
	r, ties := MidRanks([]float64{3, 1, 3, 2, 3})
	want := []float64{4, 1, 4, 2, 4}
	for i := range want {
		if r[i] != want[i] {
			t.Fatalf("ranks %v, want %v", r, want)
		}
	}
	if len(ties) != 1 || ties[0] != 3 {
		t.Fatalf("ties %v, want [3]", ties)
	}
}

package estimate

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

func synthetic(name string, ts ...float64) *Series {
	return &Series{Name: name, Times: ts, Unit: "s"}
}

// Hand-computed adaptive cases. Series A: t = 8, 2, 1.0, 1.02, 1.0, 1.04,
// then 1.5 × 14 (n = 20). δ_2 = 0.75, δ_3 = 0.5, δ_4 = 0.02,
// δ_5 = 0.0196…: with γ = 0.1 and k = 2 the run δ_4, δ_5 is found at i = 5,
// so the first stable iteration is s = 3, i_b = 2, t_b = 10.
func TestAdaptiveHandComputed(t *testing.T) {
	seriesA := append([]float64{8, 2, 1.0, 1.02, 1.0, 1.04}, repeat(1.5, 14)...)
	cases := []struct {
		name   string
		ts     []float64
		o      Options
		want   Result
		actual float64
	}{
		{
			// sample 3..5 = 3.02, T̂ = 10 + 18·3.02/3 = 28.12.
			name: "cold start then sample",
			ts:   seriesA,
			o:    Options{Gamma: 0.1, K: 2, SampleIters: 3, Head: 1, Prefix: 20},
			want: Result{Estimate: 28.12, StableAt: 3, ColdIters: 2, ColdSeconds: 10, SampleFrom: 3, SampleIters: 3,
				SampleSeconds: 3.02, OverheadIters: 5, OverheadSeconds: 13.02},
		},
		{
			// i_s = 5 but P = 6 cuts the sample to 3..6 = 4.06:
			// T̂ = 10 + 18·4.06/4 = 28.27; the job ran 6 iterations.
			name: "sample cut by the prefix",
			ts:   seriesA,
			o:    Options{Gamma: 0.1, K: 2, SampleIters: 5, Head: 1, Prefix: 6},
			want: Result{Estimate: 28.27, StableAt: 3, ColdIters: 2, ColdSeconds: 10, SampleFrom: 3, SampleIters: 4,
				SampleSeconds: 4.06, OverheadIters: 6, OverheadSeconds: 14.06},
		},
		{
			// k = 1 on a Chronus-like start: δ_2 = 0.72, δ_3 = 0.013 → s = 2.
			// i_s = 2: sample 2..3 = 1.49, T̂ = 2.7 + 5·1.49/2 = 6.425;
			// the job ran max(3, 3) = 3 iterations.
			name: "one small change suffices with k = 1",
			ts:   []float64{2.7, 0.75, 0.74, 0.76, 0.75, 0.75},
			o:    Options{Gamma: 0.1, K: 1, SampleIters: 2, Head: 1, Prefix: 6},
			want: Result{Estimate: 6.425, StableAt: 2, ColdIters: 1, ColdSeconds: 2.7, SampleFrom: 2, SampleIters: 2,
				SampleSeconds: 1.49, OverheadIters: 3, OverheadSeconds: 4.19},
		},
		{
			// Detection needs more than the sample: k = 4, i_s = 2.
			// t = 5, 1, 1, 1, 1, 1, 3, 3: δ_3…δ_6 = 0 → declared at i = 6,
			// s = 2, sample 2..3 = 2, T̂ = 5 + 7·2/2 = 12; ran 6 iterations.
			name: "detection window longer than the sample",
			ts:   []float64{5, 1, 1, 1, 1, 1, 3, 3},
			o:    Options{Gamma: 0.1, K: 4, SampleIters: 2, Head: 1, Prefix: 8},
			want: Result{Estimate: 12, StableAt: 2, ColdIters: 1, ColdSeconds: 5, SampleFrom: 2, SampleIters: 2,
				SampleSeconds: 2, OverheadIters: 6, OverheadSeconds: 10},
		},
		{
			// Never stable: t = 1, 2, 1, 2, 1, 2, 3, 3, 3, 3, all δ ≥ 0.5.
			// Fallback with P = 6, i_s = 2: sample 5..6 = 3, i_b = 4,
			// t_b = 6, T̂ = 6 + 6·3/2 = 15 (actual 21).
			name: "never stabilises: fallback to the end of the prefix",
			ts:   []float64{1, 2, 1, 2, 1, 2, 3, 3, 3, 3},
			o:    Options{Gamma: 0.1, K: 2, SampleIters: 2, Head: 1, Prefix: 6},
			want: Result{Estimate: 15, StableAt: 0, ColdIters: 4, ColdSeconds: 6, SampleFrom: 5, SampleIters: 2,
				SampleSeconds: 3, OverheadIters: 6, OverheadSeconds: 9, Fallback: true},
		},
		{
			// δ = γ exactly is not stable: t = 1, 1.5, 2.25, 2.25, 2.25
			// has δ_2 = δ_3 = 0.5 = γ, then δ_4 = δ_5 = 0 → s = 3 with k = 2.
			// sample 3..4 = 4.5, T̂ = 2.5 + 3·4.5/2 = 9.25 (exact); the job ran
			// all 5 iterations (9.25 s) to see the run.
			name: "strict threshold",
			ts:   []float64{1, 1.5, 2.25, 2.25, 2.25},
			o:    Options{Gamma: 0.5, K: 2, SampleIters: 2, Head: 1, Prefix: 5},
			want: Result{Estimate: 9.25, StableAt: 3, ColdIters: 2, ColdSeconds: 2.5, SampleFrom: 3, SampleIters: 2,
				SampleSeconds: 4.5, OverheadIters: 5, OverheadSeconds: 9.25},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := Adaptive(synthetic("a", c.ts...), c.o)
			if err != nil {
				t.Fatal(err)
			}
			w := c.want
			w.Method = MethodAdaptive
			if !near(got.Estimate, w.Estimate) || !near(got.ColdSeconds, w.ColdSeconds) ||
				!near(got.SampleSeconds, w.SampleSeconds) || !near(got.OverheadSeconds, w.OverheadSeconds) {
				t.Fatalf("got %+v\nwant %+v", got, w)
			}
			got.Estimate, got.ColdSeconds, got.SampleSeconds, got.OverheadSeconds = w.Estimate, w.ColdSeconds, w.SampleSeconds, w.OverheadSeconds
			if got != w {
				t.Fatalf("got %+v\nwant %+v", got, w)
			}
		})
	}
}

func repeat(v float64, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = v
	}
	return out
}

func TestHeadHandComputed(t *testing.T) {
	// t = 3, 1, 1, 1, 1, 1, h = 2: T̂ = 6·(3+1)/2 = 12 (actual 8).
	got, err := Head(synthetic("h", 3, 1, 1, 1, 1, 1), Options{Gamma: 0.1, K: 1, SampleIters: 1, Head: 2, Prefix: 2})
	if err != nil {
		t.Fatal(err)
	}
	want := Result{Method: MethodHead, Estimate: 12, OverheadIters: 2, OverheadSeconds: 4}
	if got != want {
		t.Fatalf("got %+v, want %+v", got, want)
	}
}

func TestRandomHandComputed(t *testing.T) {
	s := synthetic("r", 10, 1, 2, 3, 4, 5, 6, 7, 8, 9, 100, 100)
	o := Options{Gamma: 0.1, K: 1, SampleIters: 1, Head: 3, Prefix: 10, Seed: 7}
	draws := RandomDraws(s.Name, o.Seed, o.Head, o.Prefix)
	got, err := Random(s, o)
	if err != nil {
		t.Fatal(err)
	}
	// T̂ = n·mean of the drawn times; overhead up to the largest draw.
	var drawn float64
	last := 0
	for _, i := range draws {
		drawn += s.Times[i-1]
		last = max(last, i)
	}
	if !near(got.Estimate, 12*drawn/3) || got.OverheadIters != last || !near(got.OverheadSeconds, sum(s.Times[:last])) {
		t.Fatalf("draws %v: got %+v", draws, got)
	}
	// Drawing all of a prefix equal to the series is exact.
	full := Options{Gamma: 0.1, K: 1, SampleIters: 1, Head: 12, Prefix: 12, Seed: 3}
	got, err = Random(s, full)
	if err != nil {
		t.Fatal(err)
	}
	if !near(got.Estimate, s.Total()) || got.OverheadIters != 12 {
		t.Fatalf("full draw: got %+v, want estimate %v", got, s.Total())
	}
}

func TestRandomDrawsProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 500; trial++ {
		p := 1 + rng.IntN(60)
		h := 1 + rng.IntN(p)
		seed := rng.Uint64()
		name := string(rune('a' + rng.IntN(26)))
		d := RandomDraws(name, seed, h, p)
		again := RandomDraws(name, seed, h, p)
		seen := map[int]bool{}
		for k, i := range d {
			if i < 1 || i > p || seen[i] {
				t.Fatalf("p=%d h=%d: draws %v out of range or repeated", p, h, d)
			}
			seen[i] = true
			if again[k] != i {
				t.Fatalf("draws not reproducible: %v vs %v", d, again)
			}
		}
		if len(d) != h {
			t.Fatalf("got %d draws, want %d", len(d), h)
		}
	}
	// Every iteration of the prefix is drawn about equally often.
	counts := make([]int, 10)
	for s := uint64(0); s < 20000; s++ {
		for _, i := range RandomDraws("x", s, 1, 10) {
			counts[i-1]++
		}
	}
	for i, c := range counts {
		if c < 1800 || c > 2200 {
			t.Fatalf("iteration %d drawn %d times of 20000, want ≈ 2000: %v", i+1, c, counts)
		}
	}
}

// Properties on random series: a series constant after a cold start is
// estimated exactly by adaptive whenever it stabilises within the prefix;
// a constant series exactly by every method; overhead never exceeds the
// prefix and its seconds are those of the leading iterations.
func TestMethodsProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 2000; trial++ {
		o := Options{Gamma: 0.01 + rng.Float64()*0.3, K: 1 + rng.IntN(6), SampleIters: 1 + rng.IntN(12), Head: 1 + rng.IntN(12), Seed: rng.Uint64()}
		o.Prefix = max(o.Head, o.K+1, o.SampleIters) + rng.IntN(30)
		n := max(o.Need(MethodAdaptive), o.Head) + rng.IntN(80)
		cold := rng.IntN(4)
		steady := 0.1 + rng.Float64()*5
		ts := make([]float64, n)
		for i := range ts {
			ts[i] = steady
			if i < cold {
				ts[i] = steady * (2 + 3*rng.Float64()) * float64(1+i%2) // far from steady and from each other
			}
		}
		s := synthetic("p", ts...)
		for _, m := range Methods() {
			r, err := Estimate(s, m, o)
			if err != nil {
				t.Fatalf("%s %+v: %v", m, o, err)
			}
			if r.OverheadIters < 1 || r.OverheadIters > min(o.Prefix, n) || !near(r.OverheadSeconds, sum(ts[:r.OverheadIters])) {
				t.Fatalf("%s: overhead %d iters %v s, prefix %d", m, r.OverheadIters, r.OverheadSeconds, o.Prefix)
			}
			if !(r.Estimate > 0) {
				t.Fatalf("%s: estimate %v", m, r.Estimate)
			}
			if m == MethodAdaptive {
				if r.Fallback {
					continue
				}
				if r.StableAt < 1 || r.StableAt > cold+1 {
					t.Fatalf("adaptive: stable at %d, cold start %d: %+v", r.StableAt, cold, r)
				}
				if r.StableAt == cold+1 && !near(r.Estimate, s.Total()) {
					t.Fatalf("adaptive: estimate %v, actual %v (%+v)", r.Estimate, s.Total(), r)
				}
			}
			if cold == 0 && !near(r.Estimate, s.Total()) {
				t.Fatalf("%s on a constant series: estimate %v, actual %v", m, r.Estimate, s.Total())
			}
		}
	}
}

func TestBadSeries(t *testing.T) {
	o := DefaultOptions()
	cases := []struct {
		name string
		s    *Series
		want string
	}{
		{"empty", &Series{Path: "x.csv"}, "x.csv: bad series: no iterations"},
		{"NaN", &Series{Path: "x.csv", Times: append(repeat(1, 20), math.NaN()), Lines: seq(2, 22)}, "x.csv line 22 (iteration 21): bad series: time NaN is not a finite number"},
		{"zero", &Series{Path: "x.csv", Times: append(repeat(1, 20), 0)}, "x.csv iteration 21: bad series: time 0 must be positive"},
		{"negative", &Series{Name: "s/x.csv", Times: []float64{-1}}, "s/x.csv iteration 1: bad series: time -1 must be positive"},
		{"too short", &Series{Path: "x.csv", Times: repeat(1, 7)}, "x.csv: bad series: 7 iterations, the adaptive method needs at least 10"},
	}
	for _, c := range cases {
		_, err := Estimate(c.s, MethodAdaptive, o)
		if err == nil || err.Error() != c.want || !errors.Is(err, ErrBadSeries) {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
	}
	if _, err := Head(&Series{Path: "y.csv", Times: repeat(1, 9)}, o); err == nil || !strings.Contains(err.Error(), "y.csv: bad series: 9 iterations, the head method needs at least 10") {
		t.Errorf("head too short: %v", err)
	}
	if _, err := Random(&Series{Path: "y.csv", Times: repeat(1, 9)}, o); err == nil || !strings.Contains(err.Error(), "the random method needs at least 10") {
		t.Errorf("random too short: %v", err)
	}
}

func seq(from, to int) []int {
	var out []int
	for i := from; i <= to; i++ {
		out = append(out, i)
	}
	return out
}

func TestOptionsValidate(t *testing.T) {
	if err := DefaultOptions().Validate(); err != nil {
		t.Fatal(err)
	}
	bad := []func(*Options){
		func(o *Options) { o.Gamma = 0 },
		func(o *Options) { o.Gamma = math.NaN() },
		func(o *Options) { o.K = 0 },
		func(o *Options) { o.SampleIters = 0 },
		func(o *Options) { o.Head = 0 },
		func(o *Options) { o.Prefix = 9 },
		func(o *Options) { o.K = 50 },
	}
	for i, f := range bad {
		o := DefaultOptions()
		f(&o)
		if err := o.Validate(); err == nil {
			t.Errorf("case %d: %+v accepted", i, o)
		}
	}
	if _, err := Estimate(synthetic("x", repeat(1, 60)...), "tail", DefaultOptions()); err == nil {
		t.Error("unknown method accepted")
	}
}

func TestQuantile(t *testing.T) {
	xs := []float64{1, 2, 3, 4, 10}
	for _, c := range []struct{ p, want float64 }{{0, 1}, {0.5, 3}, {0.9, 7.6}, {1, 10}, {0.25, 2}} {
		if got := Quantile(xs, c.p); !near(got, c.want) {
			t.Errorf("Quantile(%v) = %v, want %v", c.p, got, c.want)
		}
	}
	if !math.IsNaN(Quantile(nil, 0.5)) {
		t.Error("empty quantile not NaN")
	}
}

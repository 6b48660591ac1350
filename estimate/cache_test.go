package estimate

import (
	"context"
	"testing"
)

func TestCacheCounts(t *testing.T) {
	c := NewCache[float64]()
	a := Key{Model: "imagenet/resnet50", Config: "bs64", GPUType: "V100", GPUs: 8}
	b := a
	b.GPUs = 4
	if _, ok := c.Get(a); ok {
		t.Fatal("hit on an empty cache")
	}
	c.Put(a, 120)
	if v, ok := c.Get(a); !ok || v != 120 {
		t.Fatalf("got %v %v", v, ok)
	}
	if _, ok := c.Get(b); ok {
		t.Fatal("a different GPU count hit")
	}
	st := c.Stats()
	if st.Hits != 1 || st.Misses != 2 || st.Keys != 1 || st.Lookups() != 3 || st.HitRate() != 1.0/3 {
		t.Fatalf("stats %+v rate %v", st, st.HitRate())
	}
	if (CacheStats{}).HitRate() != 0 {
		t.Fatal("hit rate of no lookups")
	}
}

// A trace with repeats: the second and third runs of a job reuse the first
// run's estimate with no overhead, so their error is measured against their
// own total.
func TestEvaluateWithCache(t *testing.T) {
	o := Options{Gamma: 0.1, K: 1, SampleIters: 2, Head: 2, Prefix: 4, Seed: 1}
	first := &Series{Name: "a", Times: []float64{3, 1, 1, 1, 1, 1}, Key: Key{Model: "m", Config: "run1", GPUs: 2}}
	again := &Series{Name: "b", Times: []float64{3, 2, 2, 2, 2, 2}, Key: Key{Model: "m", Config: "run2", GPUs: 2}}
	other := &Series{Name: "c", Times: []float64{1, 1, 1, 1, 1, 1}, Key: Key{Model: "m", Config: "run1", GPUs: 4}}
	series := []*Series{first, again, other, first}
	files := []string{"a", "b", "c", "a2"}

	// Key = model + GPUs: b repeats a; c is new; a2 repeats a.
	ev, err := Evaluate(context.Background(), series, files, EvaluateOptions{Options: o, Methods: []string{MethodHead}, CacheKey: &KeyFields{Model: true, GPUs: true}})
	if err != nil {
		t.Fatal(err)
	}
	// head on a: 6·(3+1)/2 = 12 (actual 8, error 0.5); reused for b
	// (actual 13, error −1/13); c: 6 (exact); a2: 12 again.
	want := []struct {
		est, err float64
		cached   bool
	}{{12, 0.5, false}, {12, -1.0 / 13, true}, {6, 0, false}, {12, 0.5, true}}
	for i, w := range want {
		r := ev.Rows[i]
		if !near(r.Estimate, w.est) || !near(r.Error, w.err) || r.Cached != w.cached {
			t.Errorf("row %d (%s): %+v", i, r.File, r)
		}
		if r.Cached && (r.OverheadIters != 0 || r.OverheadSeconds != 0) {
			t.Errorf("row %d: cached with overhead", i)
		}
	}
	st := ev.Cache[MethodHead]
	if st.Hits != 2 || st.Misses != 2 || st.HitRate() != 0.5 {
		t.Errorf("stats %+v", st)
	}
	sum := Summarize(ev.Rows)[0]
	if sum.Cached != 2 || !near(sum.MeanOverheadIters, 2) || !near(sum.MeanOverheadSeconds, 3) || !near(sum.MaxOverheadSeconds, 4) {
		t.Errorf("summary %+v", sum)
	}

	// The full key (with the config) sees only the exact repeat a2.
	ev, err = Evaluate(context.Background(), series, files, EvaluateOptions{Options: o, Methods: []string{MethodHead}, CacheKey: &KeyFields{true, true, true, true}})
	if err != nil {
		t.Fatal(err)
	}
	if st := ev.Cache[MethodHead]; st.Hits != 1 || st.Misses != 3 || st.Keys != 3 {
		t.Errorf("full key stats %+v", st)
	}
}

func TestSummarizeHandComputed(t *testing.T) {
	rows := []Row{
		{Result: Result{Method: "adaptive", OverheadIters: 10, OverheadSeconds: 2}, Error: 0.1},
		{Result: Result{Method: "adaptive", OverheadIters: 20, OverheadSeconds: 6, Fallback: true}, Error: -0.3},
		{Result: Result{Method: "head", OverheadIters: 5, OverheadSeconds: 1}, Error: 0.5},
		{Result: Result{Method: "adaptive", OverheadIters: 30, OverheadSeconds: 1}, Error: 0.2},
	}
	s := Summarize(rows)
	if len(s) != 2 || s[0].Method != "adaptive" || s[1].Method != "head" {
		t.Fatalf("%+v", s)
	}
	a := s[0]
	// APEs 10, 30, 20: mean 20, median 20, p90 = 20 + 0.8·10 = 28.
	if a.N != 3 || !near(a.MeanAPE, 20) || !near(a.MedianAPE, 20) || !near(a.P90APE, 28) ||
		!near(a.MeanOverheadIters, 20) || !near(a.MeanOverheadSeconds, 3) || a.MaxOverheadSeconds != 6 || a.Fallbacks != 1 {
		t.Errorf("adaptive %+v", a)
	}
}

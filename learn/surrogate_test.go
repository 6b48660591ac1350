package learn

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/simcore"
)

// handDecisions are two decisions whose SRSF order is known by hand:
//
//	decision 0: job 0 (4 GPUs, 1 h left), job 1 (1 GPU, 2 h), job 2 (8 GPUs, 2 h)
//	            SRSF keys 4·3600, 1·7200, 8·7200: order 1, 0, 2, so the
//	            reference ranks are job 0 → 1, job 1 → 0, job 2 → 2.
//	decision 1: job A (2 GPUs, 1 h), job B (1 GPU, 1 h, arrived later)
//	            SRSF: B, A, so A → 1, B → 0.
func handDecisions() []decision {
	return []decision{
		{
			{ID: 0, Arrival: 0, Remaining: 3600, Duration: 3600, GPUs: 4, Workers: 1, PerWorker: 4, Priority: 1},
			{ID: 1, Arrival: 10, Remaining: 7200, Duration: 7200, GPUs: 1, Workers: 1, PerWorker: 1, Priority: 1},
			{ID: 2, Arrival: 20, Remaining: 7200, Duration: 7200, GPUs: 8, Workers: 1, PerWorker: 8, Priority: 1},
		},
		{
			{ID: 3, Arrival: 0, Remaining: 3600, Duration: 3600, GPUs: 2, Workers: 1, PerWorker: 2, Priority: 1},
			{ID: 4, Arrival: 5, Remaining: 3600, Duration: 3600, GPUs: 1, Workers: 1, PerWorker: 1, Priority: 1},
		},
	}
}

// The characterisation by hand: per decision, SRSF's rank of the job the
// rule puts first (lowest key; ties by arrival, then id).
func TestSurrogateCharacteriseHandCase(t *testing.T) {
	s := newSurrogate(handDecisions(), 1, 2, 4, false, false)
	if want := [][]int32{{1, 0, 2}, {1, 0}}; !slices.EqualFunc(s.refRank, want, slices.Equal) {
		t.Fatalf("reference ranks %v, want %v", s.refRank, want)
	}
	for _, c := range []struct {
		formula string
		want    []int32
	}{
		{"d", []int32{1, 1}},     // job 0 (1 h); A and B tie on 1 h, A arrived first
		{"g", []int32{0, 0}},     // job 1, B
		{"0 - g", []int32{2, 1}}, // job 2, A
		{"3", []int32{1, 1}},     // all tie: the first arrival
		{"g * d", []int32{0, 0}}, // SRSF itself: its own first job, rank 0
	} {
		if got := s.characterise(expr.MustParse(c.formula)); !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.formula, got, c.want)
		}
	}
}

func handArchive(vecs [][]int32, values []float64, routing []uint64) []surrogateEntry {
	var a []surrogateEntry
	for i := range vecs {
		e := surrogateEntry{hash: uint64(100 + i), vec: vecs[i], value: values[i]}
		if routing != nil {
			e.routingHash = routing[i]
		}
		a = append(a, e)
	}
	return a
}

// The kNN prediction by hand: squared Euclidean distance, ties by archive
// position (oldest first), mean of the k nearest values; with two trees,
// entries routing alike come before every other.
func TestSurrogateKNNHandCase(t *testing.T) {
	s := &surrogate{k: 2}
	s.archive = handArchive([][]int32{{0, 0}, {2, 1}, {1, 1}, {0, 1}}, []float64{1, 3, 2, 9}, nil)
	q := surrogateEntry{vec: []int32{1, 1}}
	// Distances 2, 1, 0, 1: nearest e2 (0), then e1 and e3 tie at 1 and
	// e1 is older.
	if got := s.nearest(q); len(got) != 2 || got[0].pos != 2 || got[1].pos != 1 {
		t.Fatalf("nearest %+v, want positions 2, 1", got)
	}
	if got := s.predict(q); got != 2.5 {
		t.Errorf("k = 2: predicted %v, want (2 + 3) / 2 = 2.5", got)
	}
	s.k = 3
	if got := s.predict(q); got != (2.0+3+9)/3 {
		t.Errorf("k = 3: predicted %v, want (2 + 3 + 9) / 3", got)
	}
	s.k = 10 // more than the archive: the mean of all
	if got := s.predict(q); got != (1.0+3+2+9)/4 {
		t.Errorf("k > |archive|: predicted %v, want the mean of all", got)
	}
	// Two trees: e0 and e3 route like the query (hash 7), so they are the
	// two nearest although e2 is closer in ranking behaviour.
	s.k = 2
	s.archive = handArchive([][]int32{{0, 0}, {2, 1}, {1, 1}, {0, 1}}, []float64{1, 3, 2, 9}, []uint64{7, 8, 8, 7})
	q.routingHash = 7
	if got := s.predict(q); got != (9.0+1)/2 {
		t.Errorf("two trees: predicted %v, want (9 + 1) / 2 from the entries routing alike", got)
	}
	s.k = 3 // then the nearest routing otherwise: e2
	if got := s.predict(q); got != (9.0+1+2)/3 {
		t.Errorf("two trees, k = 3: predicted %v, want (9 + 1 + 2) / 3", got)
	}
	// Objective vectors: the component-wise mean.
	s.k = 2
	s.archive = handArchive([][]int32{{0, 0}, {1, 1}, {2, 1}}, []float64{0, 0, 0}, nil)
	s.archive[0].objs, s.archive[1].objs, s.archive[2].objs = []float64{1, 5}, []float64{2, 4}, []float64{4, 0}
	if got := s.predictObjectives(surrogateEntry{vec: []int32{1, 1}}, 2); !slices.Equal(got, []float64{3, 2}) {
		t.Errorf("objectives %v, want the mean of e1 and e2, [3 2]", got)
	}
}

// The pool ranking by hand, scalar: the n best predictions among new
// individuals, returned in bred order; duplicates of parents (or of an
// earlier pool member) only fill.
func TestSurrogateScreenHandCase(t *testing.T) {
	s := newSurrogate(handDecisions(), 1, 2, 4, false, false)
	// Archive: one entry per behaviour vector, values chosen by hand.
	for _, c := range []struct {
		f string
		v float64
	}{{"g", 1}, {"0 - g", 3}, {"d", 2}} {
		e := s.entry(newScored(nil, expr.MustParse(c.f)), nil)
		e.value = c.v
		s.archive = append(s.archive, e)
	}
	parent := newScored(nil, expr.MustParse("d + d"))
	sc := func(f string) scored { return newScored(nil, expr.MustParse(f)) }
	// Predictions (k = 1): "0 - g - g" behaves as 0 - g → 3; "g + g" as
	// g → 1; "d * 3" as d → 2; "d + d" is the parent.
	pool := []scored{sc("0 - g - g"), sc("g + g"), parent, sc("d * 3")}
	names := func(p []scored) []string {
		var out []string
		for _, c := range p {
			out = append(out, c.tree.String())
		}
		return out
	}
	for _, c := range []struct {
		n    int
		want []string
	}{
		{1, []string{"g + g"}},
		{2, []string{"g + g", "d * 3"}},                       // bred order, not prediction order
		{3, []string{"0 - g - g", "g + g", "d * 3"}},          // every new one before the duplicate
		{4, []string{"0 - g - g", "g + g", "d + d", "d * 3"}}, // the whole pool
		{5, []string{"0 - g - g", "g + g", "d + d", "d * 3"}}, // a pool smaller than n
	} {
		got := names(s.screen(pool, []scored{parent}, c.n, nil))
		if !slices.Equal(got, c.want) {
			t.Errorf("n = %d: kept %v, want %v", c.n, got, c.want)
		}
	}
	// A repeated pool member is a duplicate too: two copies of "g + g"
	// and n = 2 keep the first copy and the next best new one.
	dup := []scored{sc("g + g"), sc("0 - g"), sc("g + g"), sc("d * 3")}
	if got := names(s.screen(dup, nil, 2, nil)); !slices.Equal(got, []string{"g + g", "d * 3"}) {
		t.Errorf("repeated pool member: kept %v", got)
	}
	// An empty archive keeps the first n as bred.
	empty := newSurrogate(handDecisions(), 1, 2, 4, false, false)
	if got := names(empty.screen(pool, nil, 2, nil)); !slices.Equal(got, []string{"0 - g - g", "g + g"}) {
		t.Errorf("empty archive: kept %v", got)
	}
}

// The pool ranking by hand under nsga2: the n members NSGA-II keeps of
// the predicted vectors — the first front, then the largest crowding
// distance (the extremes) — with exact components (size) overwritten.
func TestSurrogateScreenNSGA2HandCase(t *testing.T) {
	s := newSurrogate(handDecisions(), 1, 2, 4, false, false)
	// Behaviours g, 0 - g, d, "3" have vectors [0 0], [2 1], [1 1],
	// [1 1]; d and "3" share one, so use three archive entries.
	for _, c := range []struct {
		f    string
		objs []float64
	}{{"g", []float64{1, 3}}, {"0 - g", []float64{3, 1}}, {"d", []float64{2, 2}}} {
		e := s.entry(newScored(nil, expr.MustParse(c.f)), nil)
		e.objs = c.objs
		s.archive = append(s.archive, e)
	}
	sc := func(f string) scored { return newScored(nil, expr.MustParse(f)) }
	// Predicted (k = 1): "g + g" → (1, 3), "0 - g - g" → (3, 1), "d * 3"
	// → (2, 2): one front; the extremes have infinite crowding.
	pool := []scored{sc("d * 3"), sc("g + g"), sc("0 - g - g")}
	got := s.screen(pool, nil, 2, &objectiveShape{dims: 2})
	if len(got) != 2 || got[0].tree.String() != "g + g" || got[1].tree.String() != "0 - g - g" {
		t.Errorf("kept %v, want the two extremes in bred order", got)
	}
	// An exact second component that makes "d * 3" dominate the others:
	// (2, 0) dominates (3, 1); kept: d * 3 and g + g.
	exact := &objectiveShape{dims: 2, exact: func(c scored, v []float64) {
		if c.tree.String() == "d * 3" {
			v[1] = 0
		}
	}}
	got = s.screen(pool, nil, 2, exact)
	if len(got) != 2 || got[0].tree.String() != "d * 3" || got[1].tree.String() != "g + g" {
		t.Errorf("with the exact component kept %v, want d * 3 and g + g", got)
	}
}

// The archive keeps the newest evaluation of each individual, in order of
// evaluation, and drops the oldest beyond its capacity.
func TestSurrogateArchiveRecord(t *testing.T) {
	s := &surrogate{capacity: 3}
	e := func(h uint64, v float64) surrogateEntry { return surrogateEntry{hash: h, value: v} }
	s.record([]surrogateEntry{e(1, 1), e(2, 2), e(1, 9)}) // a repeat within a batch: first kept
	s.record([]surrogateEntry{e(3, 3), e(1, 4)})          // 1 re-evaluated: moves to the end
	s.record([]surrogateEntry{e(5, 5)})                   // over capacity: 2 (oldest) dropped
	var got []surrogateEntry
	for _, x := range s.archive {
		got = append(got, surrogateEntry{hash: x.hash, value: x.value})
	}
	want := []surrogateEntry{e(3, 3), e(1, 4), e(5, 5)}
	if !slices.EqualFunc(got, want, func(a, b surrogateEntry) bool { return a.hash == b.hash && a.value == b.value }) {
		t.Errorf("archive %+v, want %+v", got, want)
	}
}

// first is order's first element, on random decisions with ties, NaN
// keys and repeated arrivals (a differential test of the linear scan).
func TestSurrogateFirstMatchesOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	gs := expr.GenSettings{MinDepth: 1, MaxDepth: 4}
	var buf []int32
	var keys []float64
	for trial := range 500 {
		d := make(decision, 1+rng.IntN(9))
		ids := rng.Perm(len(d)) // distinct ids: order is a total order
		for i := range d {
			d[i] = simcore.JobView{ID: int64(ids[i]), Arrival: int64(rng.IntN(3)), Remaining: int64(rng.IntN(3)) * 1800,
				GPUs: rng.IntN(3), Priority: 1 + rng.IntN(2), Queued: int64(rng.IntN(2)) * 3600}
		}
		r := NewFormulaRanking(expr.Grow(rng, 1+rng.IntN(4), gs), false)
		buf, keys = order(r, d, buf, keys)
		if got := first(r, d); got != int(buf[0]) {
			t.Fatalf("trial %d: first = %d, order starts with %d (keys %v)", trial, got, buf[0], keys)
		}
	}
}

// A pool of duplicates only (every offspring a parent's copy) keeps the
// first n, under both selections.
func TestSurrogateScreenAllDuplicates(t *testing.T) {
	s := newSurrogate(handDecisions(), 1, 2, 4, false, false)
	e := s.entry(newScored(nil, expr.MustParse("d")), nil)
	e.objs = []float64{1, 1}
	s.archive = append(s.archive, e)
	p := newScored(nil, expr.MustParse("g"))
	pool := []scored{p, p, p}
	for _, shape := range []*objectiveShape{nil, {dims: 2}} {
		if got := s.screen(pool, []scored{p}, 2, shape); len(got) != 2 || got[0].hash != p.hash {
			t.Errorf("shape %v: kept %v", shape, got)
		}
	}
}

// gp.surrogate_repeats: free by hand: the repeats of a parent among the
// first n bred come first (they are cache hits), then the new individuals
// by prediction, then the other duplicates (parent repeats bred after the
// first n, repeats of earlier pool members); with no parent repeat in the
// pool it is the default rule.
func TestSurrogateScreenFreeRepeats(t *testing.T) {
	s := newSurrogate(handDecisions(), 1, 2, 4, false, true)
	for _, c := range []struct {
		f string
		v float64
	}{{"g", 1}, {"0 - g", 3}, {"d", 2}} {
		e := s.entry(newScored(nil, expr.MustParse(c.f)), nil)
		e.value = c.v
		s.archive = append(s.archive, e)
	}
	parent := newScored(nil, expr.MustParse("d + d"))
	other := newScored(nil, expr.MustParse("u - q"))
	sc := func(f string) scored { return newScored(nil, expr.MustParse(f)) }
	names := func(p []scored) []string {
		var out []string
		for _, c := range p {
			out = append(out, c.tree.String())
		}
		return out
	}
	// Predictions (k = 1): "0 - g - g" → 3, "g + g" → 1, "d * 3" → 2;
	// "d + d" (bred 2nd and 5th) and "u - q" (7th) repeat parents; the
	// second "g + g" repeats a pool member.
	pool := []scored{sc("0 - g - g"), parent, sc("g + g"), sc("g + g"), parent, sc("d * 3"), other}
	parents := []scored{parent, other}
	for _, c := range []struct {
		n    int
		want []string
	}{
		{1, []string{"g + g"}},                                                  // no parent repeat among the first 1: the best new one
		{2, []string{"d + d", "g + g"}},                                         // the repeat bred 2nd, then the best new one
		{3, []string{"d + d", "g + g", "d * 3"}},                                // one free, two new
		{4, []string{"0 - g - g", "d + d", "g + g", "d * 3"}},                   // one free, all three new ones
		{5, []string{"0 - g - g", "d + d", "g + g", "d + d", "d * 3"}},          // two free (2nd, 5th), three new
		{6, []string{"0 - g - g", "d + d", "g + g", "g + g", "d + d", "d * 3"}}, // then the pool repeat
	} {
		got := names(s.screen(pool, parents, c.n, nil))
		if !slices.Equal(got, c.want) {
			t.Errorf("n = %d: kept %v, want %v", c.n, got, c.want)
		}
	}
	// The default rule on the same pool puts the parent repeats last.
	last := *s
	last.freeRepeats = false
	if got := names(last.screen(pool, parents, 3, nil)); !slices.Equal(got, []string{"0 - g - g", "g + g", "d * 3"}) {
		t.Errorf("last, n = 3: kept %v", got)
	}
	// Without parent repeats, free and last keep the same offspring.
	noRepeat := []scored{sc("0 - g - g"), sc("g + g"), sc("g + g"), sc("d * 3")}
	for n := 1; n <= len(noRepeat); n++ {
		a, b := names(s.screen(noRepeat, parents, n, nil)), names(last.screen(noRepeat, parents, n, nil))
		if !slices.Equal(a, b) {
			t.Errorf("n = %d: free kept %v, last %v", n, a, b)
		}
	}
	// nsga2: the free repeat first, the NSGA-II choice for the rest.
	s.archive[0].objs, s.archive[1].objs, s.archive[2].objs = []float64{1, 1}, []float64{3, 3}, []float64{2, 2}
	got := names(s.screen(pool, parents, 2, &objectiveShape{dims: 2}))
	if want := []string{"d + d", "g + g"}; !slices.Equal(got, want) {
		t.Errorf("nsga2, n = 2: kept %v, want %v", got, want)
	}
}

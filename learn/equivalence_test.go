package learn

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"weak"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/simcore"
	"github.com/evogp/evogp/simcore/evo"
)

// TestTraceMatchImpliesSameSimulation checks the claim of equivalence.go
// directly: whenever a candidate B matches the trace recorded by simulating
// A, B's own simulation returns A's objective bit for bit. Random trees
// are paired with exact rewrites of themselves (introns that add a zero
// term, so a match is expected), with point mutants of themselves and with
// unrelated random trees (mostly no match); both outcomes must occur, so
// the test is not vacuous. Both allocators it applies to, every backfill
// mode and both triggers are covered.
func TestTraceMatchImpliesSameSimulation(t *testing.T) {
	for _, terminals := range []string{"d,q,u,g", "d,q,u,g,a,r,w,f,n,e"} {
		t.Run(terminals, func(t *testing.T) {
			testTraceMatchImpliesSameSimulation(t, terminals, "mct", simcore.Options{Objective: simcore.DefaultObjective()}, 40)
		})
	}
	backfills := []simcore.Backfill{simcore.BackfillNone, simcore.BackfillGreedy, simcore.BackfillStrict, simcore.BackfillPreemptive, simcore.BackfillConservative}
	for _, alloc := range []string{"mct", "user"} {
		for _, bf := range backfills {
			for _, tr := range []simcore.Trigger{simcore.TriggerArrival, simcore.TriggerArrivalCompletion} {
				opts := simcore.Options{Objective: simcore.DefaultObjective(), Backfill: bf, Trigger: tr}
				t.Run(fmt.Sprintf("%s/backfill=%d/trigger=%d", alloc, bf, tr), func(t *testing.T) {
					testTraceMatchImpliesSameSimulation(t, "d,q,u,g", alloc, opts, 8)
				})
			}
		}
	}
}

func testTraceMatchImpliesSameSimulation(t *testing.T, terminals, alloc string, opts simcore.Options, trials int) {
	cfg, err := configs.Load("quick")
	if err == nil {
		cfg, err = cfg.Override("gp.terminals="+terminals, "data.train=2", "data.validation=1")
	}
	if err != nil {
		t.Fatal(err)
	}
	train, _, err := LoadData(cfg)
	if err != nil {
		t.Fatal(err)
	}
	terms, err := expr.ParseTerminals(cfg.GP.Terminals)
	if err != nil {
		t.Fatal(err)
	}
	slots := termSlots(cfg.GP.Terminals)
	rng := rand.New(rand.NewPCG(5, 9))
	gs := expr.GenSettings{MinDepth: 1, MaxDepth: 4, Terminals: terms}
	ev, err := newEvaluator(nil, nil, opts, false, 1, alloc, "bestfit", evo.DefaultParams())
	if err != nil {
		t.Fatal(err)
	}
	simulate := func(r simcore.Ranking, inst *simcore.Instance) float64 {
		s, err := ev.candidate(r)
		if err != nil {
			t.Fatal(err)
		}
		res, err := simcore.Simulate(context.Background(), inst, s, ev.opts)
		if err != nil {
			t.Fatal(err)
		}
		return res.Metrics.Objective
	}
	zero := []string{"(u - u)", "(g - g)", "(d - d)", "(q - q)"}
	var matches, intronMatches, misses int
	for trial := range trials {
		inst := &train[trial%len(train)]
		a := expr.Grow(rng, 1+rng.IntN(4), gs)
		fa := NewFormulaRanking(a, false)
		rec := newRecording(slots, len(inst.Clusters), 0, 0)
		objA := simulate(viewRecorder{f: fa, terms: slots, unit: 3600, rec: rec}, inst)
		if plain := simulate(fa, inst); math.Float64bits(plain) != math.Float64bits(objA) {
			t.Fatalf("%s: recording changed the objective: %v vs %v", a, objA, plain)
		}
		tr := rec.trace(objA, 3600)
		if paper := terminals == "d,q,u,g"; (tr.unit > 0) != paper {
			t.Fatalf("terminals %s: compact paper rows %v, want %v", terminals, tr.unit > 0, paper)
		}
		if !traceMatches(tr, fa.Prog, slots) {
			t.Fatalf("%s does not match its own trace", a)
		}
		intron := expr.MustParse(fmt.Sprintf("(%s) + %s", a, zero[rng.IntN(len(zero))]))
		other := expr.Grow(rng, 1+rng.IntN(4), gs)
		mutant := expr.PointMutation(rng, a, expr.VarSettings{MaxDepth: 6, Terminals: terms})
		for k, b := range []*expr.Tree{intron, other, mutant} {
			fb := NewFormulaRanking(b, false)
			if !traceMatches(tr, fb.Prog, slots) {
				misses++
				continue
			}
			matches++
			if k == 0 {
				intronMatches++
			}
			if objB := simulate(fb, inst); math.Float64bits(objB) != math.Float64bits(objA) {
				t.Fatalf("%s matches the trace of %s but simulates to %v, not %v", b, a, objB, objA)
			}
		}
	}
	t.Logf("%d matches (%d intron rewrites), %d misses", matches, intronMatches, misses)
	if intronMatches == 0 || misses == 0 && trials >= 40 {
		t.Fatalf("want both matches and misses, got %d and %d", matches, misses)
	}
}

// TestTraceMatchesRelation checks the tie and order rules on a hand-made
// trace with keys 1, 1, 2, NaN over one terminal d: a candidate must keep
// the tie, keep 1 < 2 strict, and keep NaN last.
func TestTraceMatchesRelation(t *testing.T) {
	slots := termSlots([]string{"d"})
	tr := &viewTrace{vars: []float64{5, 6, 7, 8}, keys: []float64{1, 1, 2, math.NaN()}, group: make([]uint64, 4), n: 4, width: 1}
	for _, c := range []struct {
		f    string
		want bool
	}{
		{"d", false},     // breaks the tie of 5 and 6
		{"0 - d", false}, // reverses the order
		{"d - d", false}, // ties 6 with 7
	} {
		p := expr.Compile(expr.MustParse(c.f))
		if got := traceMatches(tr, p, slots); got != c.want {
			t.Errorf("%s: got %v, want %v", c.f, got, c.want)
		}
	}
	// A function with the same relation: 0 on 5 and 6, 3 on 7, NaN on 8.
	tr2 := &viewTrace{vars: []float64{5, 6, 7}, keys: []float64{1, 1, 2}, group: make([]uint64, 3), n: 3, width: 1}
	if p := expr.Compile(expr.MustParse("d - d")); traceMatches(tr2, p, slots) {
		t.Error("a constant matched a trace with a strict step")
	}
	tr3 := &viewTrace{vars: []float64{7, 5, 6}, keys: []float64{0, -1, 0}, group: make([]uint64, 3), n: 3, width: 1}
	if p := expr.Compile(expr.MustParse("d - 4")); traceMatches(tr3, p, slots) {
		t.Error("d - 4 breaks the tie of 6 and 7")
	}
	// Two groups (operations or clusters): keys are compared only inside
	// each, so 0 − d, which reverses the order between the groups' views,
	// matches as long as it keeps each group's order: here each group has
	// one strict pair, d = 1 < 2 in group 0 (keys 5 < 6) and d = 3 < 4 in
	// group 1 (keys 1 < 2), and 0 − d reverses both.
	trG := &viewTrace{vars: []float64{1, 2, 3, 4}, keys: []float64{5, 6, 1, 2}, group: []uint64{0, 0, 1, 1}, n: 4, width: 1}
	if p := expr.Compile(expr.MustParse("0 - d")); traceMatches(trG, p, slots) {
		t.Error("0 - d reverses the order inside each group and must not match")
	}
	trG2 := &viewTrace{vars: []float64{1, 2, 3, 4}, keys: []float64{5, 6, 1, 2}, group: []uint64{0, 0, 1, 1}, n: 4, width: 1}
	if p := expr.Compile(expr.MustParse("d")); !traceMatches(trG2, p, slots) {
		t.Error("d keeps the order inside each group (not across: 3 > 2 while key 1 < 6) and must match")
	}
	tr4 := &viewTrace{vars: []float64{7, 6, 5}, keys: []float64{10, 0, -3}, group: make([]uint64, 3), n: 3, width: 1}
	if p := expr.Compile(expr.MustParse("d * d")); !traceMatches(tr4, p, slots) {
		t.Error("d * d is increasing on 5, 6, 7 and must match")
	}
}

// TestOrderEquivalenceNeverChangesResults runs random small configurations
// with and without order equivalence and requires identical survivors,
// generation rows, hall of fame and best.json, and that some terms were
// answered from traces.
func TestOrderEquivalenceNeverChangesResults(t *testing.T) {
	trials := 16
	if testing.Short() {
		trials = 5
	}
	rng := rand.New(rand.NewPCG(23, 29))
	pick := func(xs ...string) string { return xs[rng.IntN(len(xs))] }
	var matched, simsOn, simsOff int
	for trial := range trials {
		ov := []string{
			fmt.Sprintf("seed=%d", 1+rng.IntN(1000)),
			fmt.Sprintf("gp.population=%d", 8+rng.IntN(16)),
			fmt.Sprintf("gp.generations=%d", 2+rng.IntN(5)),
			fmt.Sprintf("data.train=%d", 2+rng.IntN(3)),
			fmt.Sprintf("gp.subset=%d", 1+rng.IntN(2)),
			"gp.mutation=" + pick("0.1", "0.5"),
			"gp.dedup=" + pick("none", "behaviour"),
			"gp.early_stop=" + pick("true", "false"),
			"gp.allocator=" + pick("mct", "mct", "user", "mct-all", "evo"),
			"gp.terminals=" + pick("d,q,u,g", "d,q,u,g,a,r,w,f,n,e"),
		}
		if rng.IntN(2) == 0 {
			ov = append(ov, "objective.kind=single", "objective.omega="+pick("0", "0.5"))
		}
		rt := &trialT{t, trial, ov}
		dir := t.TempDir()
		on := runFor(rt, filepath.Join(dir, "on"), ov...)
		off := runFor(rt, filepath.Join(dir, "off"), append(ov, noEquivalence)...)
		if off.matched != 0 {
			rt.Fatalf("%d terms matched with order equivalence off", off.matched)
		}
		requireSameOutputs(rt, on, off)
		matched += on.matched
		simsOn += on.sims
		simsOff += off.sims
	}
	t.Logf("%d terms answered by order equivalence; %d simulations with it, %d without", matched, simsOn, simsOff)
	if matched == 0 {
		t.Error("no term was ever answered from a trace: the comparison proves nothing")
	}
}

// TestSortedByKeyMatchesStableSort compares the radix sort with a stable
// comparison sort under lessKey, on keys with ties, ±0, ±Inf and NaN.
func TestSortedByKeyMatchesStableSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	special := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 1e-300, -1e-300, math.MaxFloat64, -math.MaxFloat64, 5e-324}
	for trial := range 200 {
		n := 1 + rng.IntN(300)
		keys := make([]float64, n)
		for i := range keys {
			switch rng.IntN(4) {
			case 0:
				keys[i] = special[rng.IntN(len(special))]
			case 1:
				keys[i] = float64(rng.IntN(5) - 2)
			default:
				keys[i] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(40)-20))
			}
		}
		want := make([]int32, n)
		for i := range want {
			want[i] = int32(i)
		}
		slices.SortStableFunc(want, func(a, b int32) int {
			switch {
			case simcore.KeyLess(keys[a], keys[b]):
				return -1
			case simcore.KeyLess(keys[b], keys[a]):
				return 1
			}
			return 0
		})
		if got := sortedByKey(keys); !slices.Equal(got, want) {
			t.Fatalf("trial %d: keys %v: got order %v, want %v", trial, keys, got, want)
		}
	}
}

// A recording stops at its byte allowance: it frees its rows, gives no
// trace and reports that it outgrew, and the simulation's objective is the
// one without recording. An allowance that fits gives the whole trace.
func TestRecordingStopsAtItsAllowance(t *testing.T) {
	for _, terminals := range []string{"d,q,u,g", "d,q,u,g,a,r"} {
		cfg, err := configs.Load("quick")
		if err == nil {
			cfg, err = cfg.Override("gp.terminals="+terminals, "data.train=1", "data.validation=1")
		}
		if err != nil {
			t.Fatal(err)
		}
		train, _, err := LoadData(cfg)
		if err != nil {
			t.Fatal(err)
		}
		inst := &train[0]
		slots := termSlots(cfg.GP.Terminals)
		ev, err := newEvaluator(nil, nil, simcore.Options{Objective: simcore.DefaultObjective()}, false, 1, "mct", "bestfit", evo.DefaultParams())
		if err != nil {
			t.Fatal(err)
		}
		f := NewFormulaRanking(expr.MustParse("d - q*q + g"), false)
		run := func(rec *recording) float64 {
			var r simcore.Ranking = f
			if rec != nil {
				r = viewRecorder{f: f, terms: slots, unit: 3600, rec: rec}
			}
			s, err := ev.candidate(r)
			if err != nil {
				t.Fatal(err)
			}
			res, err := simcore.Simulate(context.Background(), inst, s, ev.opts)
			if err != nil {
				t.Fatal(err)
			}
			return res.Metrics.Objective
		}
		plain := run(nil)
		full := newRecording(slots, len(inst.Clusters), 0, 0)
		if obj := run(full); obj != plain {
			t.Fatalf("%s: recording changed the objective", terminals)
		}
		n := len(full.keys)
		if n < 100 {
			t.Fatalf("%s: only %d views recorded", terminals, n)
		}
		fits := newRecording(slots, len(inst.Clusters), 0, n*rowBytes(slots))
		if obj := run(fits); obj != plain || fits.outgrew || fits.trace(obj, 3600) == nil || len(fits.keys) != n {
			t.Fatalf("%s: an allowance of exactly %d views: outgrew %v, %d views", terminals, n, fits.outgrew, len(fits.keys))
		}
		small := newRecording(slots, len(inst.Clusters), n, n/2*rowBytes(slots))
		if obj := run(small); obj != plain {
			t.Fatalf("%s: a stopped recording changed the objective", terminals)
		}
		if !small.outgrew || small.trace(plain, 3600) != nil || small.keys != nil || small.rows != nil || small.vars != nil || small.group != nil {
			t.Fatalf("%s: half the views: outgrew %v, rows kept %d", terminals, small.outgrew, len(small.keys))
		}
		if small.maxRows != n/2 || cap(small.keys) > 0 {
			t.Fatalf("%s: maxRows %d, want %d", terminals, small.maxRows, n/2)
		}
	}
}

// The trace store holds exactly the traces on its lists, within its budget,
// whatever order traces are added and used in, including a trace used after
// the store evicted it (a wave's tasks try the traces held when it began).
func TestTraceStoreStaysWithinBudget(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 19))
	ts := newTraceStore(termSlots([]string{"d", "q", "u", "g"}))
	ts.budget = 1000
	var seen []*viewTrace
	for step := range 5000 {
		i := int32(rng.IntN(4))
		h := uint64(rng.IntN(50) + 1)
		if len(seen) > 0 && rng.IntN(2) == 0 {
			ts.used(i, seen[rng.IntN(len(seen))], h) // possibly evicted, possibly of another instance
		} else {
			tr := &viewTrace{bytes: 50 + rng.IntN(300)}
			seen = append(seen, tr)
			ts.add(i, tr, h)
		}
		held := map[*viewTrace]bool{}
		bytes := 0
		for _, l := range ts.perIns {
			for _, tr := range l {
				if held[tr] {
					t.Fatalf("step %d: a trace is listed twice", step)
				}
				held[tr] = true
				bytes += tr.bytes
			}
		}
		if bytes != ts.bytes || len(ts.tick) != len(held) {
			t.Fatalf("step %d: %d bytes and %d ticks counted, %d bytes and %d traces listed", step, ts.bytes, len(ts.tick), bytes, len(held))
		}
		for tr := range ts.tick {
			if !held[tr] {
				t.Fatalf("step %d: the store keeps an evicted trace", step)
			}
		}
		for k, tr := range ts.byKey {
			if !held[tr] {
				t.Fatalf("step %d: term %v answered by an evicted trace", step, k)
			}
		}
		if ts.bytes > ts.budget && len(held) > 1 {
			t.Fatalf("step %d: %d bytes held, budget %d", step, ts.bytes, ts.budget)
		}
	}
}

// TestTraceStoreFreesEvictedTraces checks that an evicted trace is
// unreachable from the store: no list's spare capacity, map or owner list
// keeps it (a truncated list once did, and a paper run's heap grew by
// about 1 GB a minute).
func TestTraceStoreFreesEvictedTraces(t *testing.T) {
	ts := newTraceStore(termSlots([]string{"d", "q", "u", "g"}))
	ts.budget = 1000
	var evicted []weak.Pointer[viewTrace]
	for k := range 40 {
		tr := &viewTrace{bytes: 100, keys: make([]float64, 1000)}
		evicted = append(evicted, weak.Make(tr))
		ts.add(int32(k/20), tr, uint64(k+1)) // two instances, 20 traces each
		ts.used(int32(k/20), tr, uint64(k+100))
	}
	runtime.GC()
	runtime.GC()
	live := 0
	for _, w := range evicted {
		if w.Value() != nil {
			live++
		}
	}
	held := len(ts.tick)
	if live != held {
		t.Errorf("%d traces reachable, the store holds %d", live, held)
	}
	runtime.KeepAlive(ts)
}

// TestSortedMatchMatchesScalarWalk compares the chunked column walk of
// sortedMatch with a plain row-by-row walk (EvalVars on each sorted row)
// on random traces whose sizes straddle the chunk boundaries, for
// candidates that match, fail early and fail late.
func TestSortedMatchMatchesScalarWalk(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 14))
	slots := termSlots([]string{"d", "q", "u"})
	terms, err := expr.ParseTerminals([]string{"d", "q", "u"})
	if err != nil {
		t.Fatal(err)
	}
	gs := expr.GenSettings{MinDepth: 1, MaxDepth: 4, Terminals: terms}
	scalar := func(tr *viewTrace, p *expr.Program) bool {
		var prev float64
		for i := range tr.n {
			var vars expr.Vars
			for c, s := range slots {
				vars[s.op] = tr.svars[i*tr.width+c]
			}
			cur := p.EvalVars(&vars)
			bit := uint64(1) << (i % 64)
			switch {
			case i == 0 || tr.start[i/64]&bit != 0:
			case tr.tie[i/64]&bit != 0:
				if !tiedKeys(prev, cur) {
					return false
				}
			case tiedKeys(prev, cur) || !simcore.KeyLess(prev, cur):
				return false
			}
			prev = cur
		}
		return true
	}
	counts := map[bool]int{}
	for _, n := range []int{1, 2, 15, 16, 17, 47, 48, 49, 255, 256, 257, 700, 2000} {
		for range 12 {
			a := expr.Compile(expr.Grow(rng, 1+rng.IntN(4), gs))
			tr := &viewTrace{n: n, width: len(slots)}
			for range n {
				var vars expr.Vars
				for _, s := range slots {
					v := float64(rng.IntN(6))
					vars[s.op] = v
					tr.vars = append(tr.vars, v)
				}
				tr.keys = append(tr.keys, a.EvalVars(&vars))
				tr.group = append(tr.group, uint64(rng.IntN(3)))
			}
			tr.sort()
			for _, b := range []*expr.Program{a, expr.Compile(expr.Grow(rng, 1+rng.IntN(4), gs))} {
				got, want := sortedMatch(tr, b, slots), scalar(tr, b)
				if got != want {
					t.Fatalf("n = %d: sortedMatch %v, row-by-row walk %v", n, got, want)
				}
				counts[got]++
			}
		}
	}
	if counts[true] == 0 || counts[false] == 0 {
		t.Fatalf("want matches and misses, got %v", counts)
	}
	// One inverted pair at every position: the candidate d orders the
	// rows by d, the trace by d except rows p−1 and p, swapped.
	d := termSlots([]string{"d"})
	prog := expr.Compile(expr.MustParse("d"))
	const n = 600
	for p := range n {
		tr := &viewTrace{n: n, width: 1, group: make([]uint64, n)}
		for i := range n {
			tr.vars = append(tr.vars, float64(i))
			tr.keys = append(tr.keys, float64(i))
		}
		if p > 0 {
			tr.keys[p-1], tr.keys[p] = tr.keys[p], tr.keys[p-1]
		}
		tr.sort()
		if got := sortedMatch(tr, prog, d); got != (p == 0) {
			t.Fatalf("rows %d and %d inverted: sortedMatch %v", p-1, p, got)
		}
	}
}

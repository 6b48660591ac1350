package learn

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/simcore"
)

// Order-equivalent candidates share a simulation.
//
// A list scheduler uses its ranking only by comparing keys: it sorts each
// cluster's queue, checks whether a queue is still sorted, and finds where
// an arriving job would rank (simcore's rankCmp: key ascending, NaN last,
// ties by arrival then id). Each key is the ranking evaluated on a job view
// — the job and its cluster at the operation. With a ranking that does
// not declare simcore.TimeInvariant, every key the engine compares was
// evaluated at the current operation for the cluster whose queue is being
// ordered (the queue's jobs at the start of the operation, an arrival
// when MCT asks that cluster; simcore's setKey, planner.reuse, plan and
// finishIfAdded), so only keys of one group — one operation time Now and
// one cluster — are ever compared. Let A be a candidate already simulated
// on an instance, and V_G the views its ranking was evaluated on in group
// G (the recording does not declare TimeInvariant, so the engine
// evaluates it every operation; its results are those of every other
// path). If another candidate B satisfies, for every group G and all
// x, y ∈ V_G,
//
//	cmp(B(x), B(y)) = cmp(A(x), A(y))     (cmp: <, tie or >, NaN last),
//
// then B's simulation makes the same comparisons with the same outcomes at
// the first operation, so it reaches the same state, evaluates its
// ranking on the same views at the next one, and so on by induction: its
// objective is A's, bit for bit. In each group the condition holds exactly
// when B maps the ties of A's keys to ties and is strictly increasing
// across them, which one walk over the views sorted by (group, A's key)
// checks (traceMatches).
//
// Syntactically different trees of one function (introns such as
// q % (q + d + 1) where only q matters), and monotone transforms of a
// function, are the common case in a converged population.
//
// This changes no result: a candidate answered from a trace gets the
// objective its own simulation would return. It applies to the allocators
// user and mct (comparesKeysOnly), and only to candidates whose terminals
// are among the run's terminal set, which the trace records.

// viewTrace is what one finished simulation of a candidate leaves: the
// terminal vectors its ranking was evaluated on, sorted by group (operation,
// cluster) and then by the candidate's key (NaN last), where each group
// starts, which adjacent views tie, and the objective. Views over
// the paper's terminals are kept as integers (paperRow: remaining and
// queued seconds, u, g — 12 bytes instead of 32), from which the check
// computes d and q exactly as the ranking did.
//
// A trace is recorded in evaluation order. A check first compares pairs of
// rows that are adjacent in that order and in one group (a cheap probe
// that most non-matching candidates fail); only a trace that passes it is
// sorted (once, by whichever worker needs it first) and walked whole.
type viewTrace struct {
	// As recorded, in evaluation order (never changed after recording).
	vars  []float64  // generic rows: n × width values
	rows  []paperRow // paper rows (when unit > 0)
	keys  []float64  // the recorded candidate's keys
	group []uint64   // the group of each row
	// Sorted by (group, key), set once by sort.
	svars []float64
	srows []paperRow
	tie   []uint64 // bit i set when sorted row i ties with row i − 1
	start []uint64 // bit i set when sorted row i starts a group

	n, width  int
	unit      float64 // the time unit of d and q of paper rows (0: generic rows)
	objective float64
	bytes     int // recorded and sorted rows together
	once      sync.Once
	owners    []cacheKey // the terms this trace answered or recorded (traceStore.byKey)
}

// paperRow is a view over d, q, u, g as the integers they come from.
type paperRow struct {
	rem, queued int32 // seconds
	u, g        int16
}

// sort fills the sorted rows and the tie and group-start bits (once; safe
// for concurrent use).
func (t *viewTrace) sort() {
	t.once.Do(func() {
		order := sortedByGroupKey(t.group, t.keys)
		tie := make([]uint64, (t.n+63)/64)
		start := make([]uint64, (t.n+63)/64)
		for r := range t.n {
			switch {
			case r == 0 || t.group[order[r-1]] != t.group[order[r]]:
				start[r/64] |= 1 << (r % 64)
			case tiedKeys(t.keys[order[r-1]], t.keys[order[r]]):
				tie[r/64] |= 1 << (r % 64)
			}
		}
		if t.unit > 0 {
			rows := make([]paperRow, t.n)
			for r, i := range order {
				rows[r] = t.rows[i]
			}
			t.srows = rows
		} else {
			w := t.width
			vars := make([]float64, 0, len(t.vars))
			for _, i := range order {
				vars = append(vars, t.vars[int(i)*w:int(i+1)*w]...)
			}
			t.svars = vars
		}
		t.tie, t.start = tie, start
	})
}

// viewRecorder wraps a formula ranking: it returns the formula's key and
// records the run's terminal values of each view with that key. It does
// not declare simcore.TimeInvariant, so the engine evaluates it at every
// operation. One simulation uses it from one goroutine.
//
// It asks for the cluster-state fields of the view whenever the run's
// terminal set has one (f, n, e), whether or not this formula reads them:
// the recorded views must be those a candidate that does read them sees.
type viewRecorder struct {
	f     FormulaRanking
	terms []slot // the run's terminal set, in expr.Op order
	unit  float64
	rec   *recording
}

// readsClusterState reports whether any of the slots is a cluster-state
// terminal.
func readsClusterState(terms []slot) bool {
	for _, s := range terms {
		if strings.Contains(clusterState, s.op.String()) {
			return true
		}
	}
	return false
}

// recording accumulates the (vector, key) pairs of one simulation, one
// row per ranking evaluation (repeated views are kept: they cost less to
// store than to look up, and a repeated view cannot break the order).
type recording struct {
	width    int
	vars     []float64
	rows     []paperRow
	keys     []float64
	group    []uint64 // op · clusters + cluster of each row
	clusters int
	op       uint64 // operations seen so far − 1
	now      int64  // the current operation's time
	started  bool
	paper    bool // the columns are exactly d, q, u, g: paper rows
	overflow bool // a view did not fit a paperRow, or maxRows was reached: no trace
	maxRows  int  // views recorded at most (0: no limit)
	outgrew  bool // stopped at maxRows
}

// newRecording starts a recording of at most maxBytes bytes as a trace
// (rowBytes per view, its sorted copy included; 0: no limit), with room for
// sizeHint views. A recording that would grow larger stops and frees what
// it holds, so the memory a wave of recordings takes is bounded by what it
// was allotted, whatever the candidates do.
func newRecording(terms []slot, clusters, sizeHint, maxBytes int) *recording {
	r := &recording{width: len(terms), paper: isPaperSlots(terms), clusters: max(1, clusters)}
	if maxBytes > 0 {
		r.maxRows = max(1, maxBytes/rowBytes(terms))
		sizeHint = min(sizeHint, r.maxRows)
	}
	r.group = make([]uint64, 0, sizeHint)
	if r.paper {
		r.rows = make([]paperRow, 0, sizeHint)
	} else {
		r.vars = make([]float64, 0, sizeHint*len(terms))
	}
	r.keys = make([]float64, 0, sizeHint)
	return r
}

// rowBytes is what one view costs in a trace, recorded and sorted (see
// recording.trace).
func rowBytes(terms []slot) int {
	if isPaperSlots(terms) {
		return 8 + 8 + 12 + 12
	}
	return 8 + 8 + 16*len(terms)
}

// stop ends the recording without a trace and frees its rows.
func (rec *recording) stop() {
	rec.overflow = true
	rec.vars, rec.rows, rec.keys, rec.group = nil, nil, nil, nil
}

// isPaperSlots reports whether the columns are d, q, u, g in that order.
func isPaperSlots(terms []slot) bool {
	want := []string{"d", "q", "u", "g"}
	if len(terms) != len(want) {
		return false
	}
	for i, s := range terms {
		if s.op.String() != want[i] {
			return false
		}
	}
	return true
}

// Priority implements simcore.Ranking: the formula evaluated on the
// recorded vector, which is the value FormulaRanking.Priority returns
// (Program.Eval is EvalVars on the same variables).
func (r viewRecorder) Priority(j simcore.JobView) float64 {
	rec := r.rec
	var vars expr.Vars
	if rec.paper {
		t := r.terms
		vars[t[0].op] = float64(j.Remaining) / r.unit
		vars[t[1].op] = float64(j.Queued) / r.unit
		vars[t[2].op] = float64(j.Priority)
		vars[t[3].op] = float64(j.GPUs)
	} else {
		for _, s := range r.terms {
			vars[s.op] = s.fn(j, r.unit)
		}
	}
	k := r.f.Prog.EvalVars(&vars)
	r.record(&j, k)
	return k
}

// record appends view j with its key k to the recording (unless it has
// stopped).
func (r viewRecorder) record(j *simcore.JobView, k float64) {
	rec := r.rec
	if rec.overflow {
		return // stopped: the simulation goes on without a trace
	}
	if rec.maxRows > 0 && len(rec.keys) >= rec.maxRows {
		rec.stop()
		rec.outgrew = true
		return
	}
	if rec.paper {
		row := paperRow{int32(j.Remaining), int32(j.Queued), int16(j.Priority), int16(j.GPUs)}
		if int64(row.rem) != j.Remaining || int64(row.queued) != j.Queued || int(row.u) != j.Priority || int(row.g) != j.GPUs {
			rec.stop()
			return
		}
		rec.rows = append(rec.rows, row)
	} else {
		for _, s := range r.terms {
			rec.vars = append(rec.vars, s.fn(*j, r.unit))
		}
	}
	rec.keys = append(rec.keys, k)
	if !rec.started || j.Now != rec.now {
		if rec.started {
			rec.op++
		}
		rec.started, rec.now = true, j.Now
	}
	if j.Cluster < 0 || j.Cluster >= rec.clusters {
		rec.stop()
		return
	}
	rec.group = append(rec.group, rec.op*uint64(rec.clusters)+uint64(j.Cluster))
}

// NeedsClusterState implements simcore.ClusterAware.
func (r viewRecorder) NeedsClusterState() bool {
	return r.f.NeedsClusterState() || readsClusterState(r.terms)
}

// trace is the recording as an (unsorted) viewTrace, or nil if a view did
// not fit.
func (rec *recording) trace(objective float64, unit float64) *viewTrace {
	if rec.overflow {
		return nil
	}
	t := &viewTrace{vars: rec.vars, rows: rec.rows, keys: rec.keys, group: rec.group, n: len(rec.keys), width: rec.width, objective: objective}
	if rec.paper {
		t.unit = unit
	}
	t.bytes = 8*(cap(t.vars)+cap(t.keys)+cap(t.group)) + 12*cap(t.rows) + // recorded
		8*len(t.vars) + 12*len(t.rows) + t.n/4 // sorted, once checked
	return t
}

// sortedByGroupKey returns the row indices ordered by group, then by key
// in lessKey order (ties in index order): the key order's dense rank and
// the group form one 64-bit radix key when both fit in 32 bits.
func sortedByGroupKey(group []uint64, keys []float64) []int32 {
	byKey := sortedByKey(keys)
	n := len(keys)
	if n == 0 {
		return byKey
	}
	rank := make([]uint64, n)
	r := uint64(0)
	for i, k := range byKey {
		if i > 0 && !tiedKeys(keys[byKey[i-1]], keys[k]) {
			r++
		}
		rank[k] = r
	}
	comp := make([]uint64, n)
	for i := range comp {
		if group[i] >= 1<<32 || rank[i] >= 1<<32 {
			return sortedByComposite(group, rank)
		}
		comp[i] = group[i]<<32 | rank[i]
	}
	return radixOrder(comp)
}

// sortedByComposite orders rows by (group, rank) with a comparison sort:
// the rare fallback for groups or ranks beyond 32 bits.
func sortedByComposite(group, rank []uint64) []int32 {
	order := make([]int32, len(group))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortStableFunc(order, func(a, b int32) int {
		if c := cmp.Compare(group[a], group[b]); c != 0 {
			return c
		}
		return cmp.Compare(rank[a], rank[b])
	})
	return order
}

// sortedByKey returns the indices of keys in lessKey order (ties in index
// order): an LSD radix sort on simcore.KeyBits, 16 bits per pass.
func sortedByKey(keys []float64) []int32 {
	b := make([]uint64, len(keys))
	for i, k := range keys {
		b[i] = simcore.KeyBits(k)
	}
	return radixOrder(b)
}

// radixOrder returns the indices of b in ascending order, ties in index
// order: an LSD radix sort, 16 bits per pass.
func radixOrder(b []uint64) []int32 {
	n := len(b)
	type item struct {
		b uint64
		i int32
	}
	a := make([]item, n)
	for i, x := range b {
		a[i] = item{x, int32(i)}
	}
	if n == 0 {
		return nil
	}
	tmp := make([]item, n)
	var count [1 << 16]int
	for shift := uint(0); shift < 64; shift += 16 {
		clear(count[:])
		for _, it := range a {
			count[(it.b>>shift)&0xffff]++
		}
		if count[(a[0].b>>shift)&0xffff] == n {
			continue // every key has this digit
		}
		sum := 0
		for d := range count {
			c := count[d]
			count[d] = sum
			sum += c
		}
		for _, it := range a {
			d := (it.b >> shift) & 0xffff
			tmp[count[d]] = it
			count[d]++
		}
		a, tmp = tmp, a
	}
	out := make([]int32, n)
	for i, it := range a {
		out[i] = it.i
	}
	return out
}

// tiedKeys reports whether rankCmp compares a and b by the tie-break.
func tiedKeys(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }

// probePairs is how many pairs of one group traceMatches checks, spread
// over the recorded trace, before sorting and walking all of it: a
// candidate that orders views differently usually fails there, at a small
// cost and without sorting the trace.
const probePairs = 64

// traceMatches reports whether program p orders the trace's views exactly
// as the traced candidate did (the condition above). terms gives the
// expr.Op of each column.
func traceMatches(t *viewTrace, p *expr.Program, terms []slot) bool {
	n := t.n
	if n < 2 {
		return n == 1 // one view: every comparison is a tie-break
	}
	w := len(terms)
	var vars expr.Vars
	eval := func(rows []paperRow, generic []float64, i int) float64 {
		if t.unit > 0 {
			r := rows[i]
			vars[terms[0].op] = float64(r.rem) / t.unit
			vars[terms[1].op] = float64(r.queued) / t.unit
			vars[terms[2].op] = float64(r.u)
			vars[terms[3].op] = float64(r.g)
		} else {
			row := generic[i*w : (i+1)*w]
			for c, s := range terms {
				vars[s.op] = row[c]
			}
		}
		return p.EvalVars(&vars)
	}
	// Probe: pairs of rows of one group that are close in evaluation order
	// (row i and the next of its group among the following 8).
	if n > 4*probePairs {
		step := (n - 1) / probePairs
		for i := 0; i+1 < n; i += step {
			j := i + 1
			for j < min(n, i+9) && t.group[j] != t.group[i] {
				j++
			}
			if j == min(n, i+9) {
				continue
			}
			a0, a1 := t.keys[i], t.keys[j]
			b0, b1 := eval(t.rows, t.vars, i), eval(t.rows, t.vars, j)
			switch {
			case tiedKeys(a0, a1):
				if !tiedKeys(b0, b1) {
					return false
				}
			case simcore.KeyLess(a0, a1):
				if tiedKeys(b0, b1) || !simcore.KeyLess(b0, b1) {
					return false
				}
			default:
				if tiedKeys(b0, b1) || !simcore.KeyLess(b1, b0) {
					return false
				}
			}
		}
	}
	t.sort()
	return sortedMatch(t, p, terms)
}

// walkChunk is how many sorted rows sortedMatch evaluates at once.
const walkChunk = 256

// sortedMatch is the full check of traceMatches: it walks the rows sorted
// by (group, recorded key) and evaluates p on them walkChunk at a time
// (expr.Program.EvalColumns, bit for bit the scalar evaluation).
func sortedMatch(t *viewTrace, p *expr.Program, terms []slot) bool {
	n, w := t.n, len(terms)
	var cols expr.Columns
	zero := make([]float64, walkChunk)
	for v := range cols {
		cols[v] = zero // terminals outside the run's set read 0, as in EvalVars
	}
	for _, s := range terms {
		cols[s.op] = make([]float64, walkChunk)
	}
	keys := make([]float64, walkChunk)
	var batch expr.Batch
	var prev float64
	for lo := 0; lo < n; lo += walkChunk {
		m := min(walkChunk, n-lo)
		if t.unit > 0 {
			d, q, u, g := cols[terms[0].op], cols[terms[1].op], cols[terms[2].op], cols[terms[3].op]
			for k, r := range t.srows[lo : lo+m] {
				d[k] = float64(r.rem) / t.unit
				q[k] = float64(r.queued) / t.unit
				u[k] = float64(r.u)
				g[k] = float64(r.g)
			}
		} else {
			for k := range m {
				row := t.svars[(lo+k)*w : (lo+k+1)*w]
				for c, s := range terms {
					cols[s.op][k] = row[c]
				}
			}
		}
		p.EvalColumns(&cols, m, keys, &batch)
		for k, cur := range keys[:m] {
			i := lo + k
			bit := uint64(1) << (i % 64)
			switch {
			case i == 0 || t.start[i/64]&bit != 0: // another group: never compared
			case t.tie[i/64]&bit != 0:
				if !tiedKeys(prev, cur) {
					return false
				}
			case tiedKeys(prev, cur) || !simcore.KeyLess(prev, cur):
				return false
			}
			prev = cur
		}
	}
	return true
}

// traceStore keeps recent traces per training instance, most recently
// used first, within a byte budget (least recently used evicted first).
// Only the generation loop's goroutine changes it, between batches, in
// task order, so its content does not depend on the worker count.
type traceStore struct {
	terms  []slot
	perIns map[int32][]*viewTrace
	tick   map[*viewTrace]int64
	clock  int64
	bytes  int
	budget int
	tries  int           // traces tried per task at most
	hint   map[int32]int // views of the last trace recorded per instance
	byKey  map[cacheKey]*viewTrace
}

// traceBudget bounds the memory held by traces (a trace of a paper-config
// instance holds about 10⁵ views, 2–4 MB; on generations 0–4 of the paper
// config 512 MiB answers the same terms as 1 GiB or 8 GiB).
const traceBudget = 512 << 20

func newTraceStore(terms []slot) *traceStore {
	return &traceStore{terms: terms, perIns: map[int32][]*viewTrace{}, tick: map[*viewTrace]int64{}, budget: traceBudget, tries: 32, hint: map[int32]int{}, byKey: map[cacheKey]*viewTrace{}}
}

// candidates returns the traces to try for instance i: those of the
// candidate's parents on i first (an offspring is most often a variant of
// one), then the most recently used ones.
func (ts *traceStore) candidates(i int32, parents [2]uint64) []*viewTrace {
	var out []*viewTrace
	for _, h := range parents {
		if t, ok := ts.byKey[cacheKey{h, i}]; ok && h != 0 && !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	for _, t := range ts.perIns[i] {
		if len(out) >= ts.tries {
			break
		}
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

// used moves t, which answered term (h, i), to the front of instance i's
// list, unless the store has evicted it (a wave's tasks try the traces
// held when it began; the store may evict one of them while it takes the
// wave's new traces, before it marks the answers).
func (ts *traceStore) used(i int32, t *viewTrace, h uint64) {
	l := ts.perIns[i]
	k := slices.Index(l, t)
	if k < 0 {
		return // evicted since the wave began: the store must not hold it again
	}
	if k > 0 {
		copy(l[1:k+1], l[:k])
		l[0] = t
	}
	ts.clock++
	ts.tick[t] = ts.clock
	ts.own(t, cacheKey{h, i})
}

// own records that trace t gives term k.
func (ts *traceStore) own(t *viewTrace, k cacheKey) {
	if _, ok := ts.byKey[k]; !ok {
		ts.byKey[k] = t
		t.owners = append(t.owners, k)
	}
}

// outgrown notes that a recording on instance i stopped at rows views:
// the next ones there expect at least twice as many.
func (ts *traceStore) outgrown(i int32, rows int) {
	ts.hint[i] = max(ts.hint[i], 2*rows)
}

// add stores a new trace, recorded by term (h, i), and evicts the least
// recently used traces beyond the budget.
func (ts *traceStore) add(i int32, t *viewTrace, h uint64) {
	ts.hint[i] = t.n
	ts.perIns[i] = slices.Insert(ts.perIns[i], 0, t)
	ts.clock++
	ts.tick[t] = ts.clock
	ts.bytes += t.bytes
	ts.own(t, cacheKey{h, i})
	for ts.bytes > ts.budget && len(ts.tick) > 1 {
		var oldest *viewTrace
		var at int32
		for in, l := range ts.perIns {
			if len(l) == 0 {
				continue
			}
			if last := l[len(l)-1]; oldest == nil || ts.tick[last] < ts.tick[oldest] {
				oldest, at = last, in
			}
		}
		if oldest == nil || oldest == t {
			break
		}
		l := ts.perIns[at]
		l[len(l)-1] = nil // the backing array must not keep it reachable
		ts.perIns[at] = l[:len(l)-1]
		delete(ts.tick, oldest)
		for _, k := range oldest.owners {
			if ts.byKey[k] == oldest {
				delete(ts.byKey, k)
			}
		}
		ts.bytes -= oldest.bytes
	}
}

// estimate is the expected size in bytes of a trace of instance i (that
// of the last one recorded, 8 MiB before any).
func (ts *traceStore) estimate(i int32) int {
	if h, ok := ts.hint[i]; ok {
		if isPaperSlots(ts.terms) {
			return 28 * (h + h/4 + 1)
		}
		return 8 * (h + h/4 + 1) * (len(ts.terms) + 2)
	}
	return 8 << 20
}

// covers reports whether every terminal of f is a column of the store's
// traces.
func (ts *traceStore) covers(t *expr.Tree) bool {
	var have expr.Terminals
	for _, s := range ts.terms {
		have |= 1 << s.op
	}
	return t.Terminals().Minus(have) == 0
}

// termSlots is the run's terminal set as feature slots, in expr.Op order
// (unknown names are skipped: CheckTerminals rejects them elsewhere).
func termSlots(names []string) []slot {
	fs := features()
	var out []slot
	for _, v := range expr.Variables() {
		if !slices.Contains(names, v.Name) {
			continue
		}
		if fn, ok := fs[v.Name]; ok {
			op, _ := expr.VariableByName(v.Name)
			out = append(out, slot{op, fn})
		}
	}
	return out
}

// comparesKeysOnly reports whether the scheduler is a list scheduler whose
// allocator uses the ranking only through the list scheduler's key
// comparisons (simcore.KeyOrderOnly: user and mct). EVO and mct-all rank
// member sets in what-if plans of their own (simcore/evo), which this
// argument does not cover.
func comparesKeysOnly(s simcore.Scheduler) bool {
	ls, ok := s.(*simcore.ListScheduler)
	if !ok {
		return false
	}
	k, ok := ls.Allocator.(simcore.KeyOrderOnly)
	return ok && k.KeyOrderOnly()
}

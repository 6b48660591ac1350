package simcore

import (
	"math"
	"slices"
)

// TimeInvariant is implemented by rankings whose Priority depends only on
// the job's fixed fields, its cluster and its remaining work (Remaining):
// not on Now, Queued or the cluster-state fields. A job's remaining work
// changes only while it runs (or when the preemptive mode charges it an
// overhead), so the engine computes such a key once per job and cluster
// and recomputes it only for a job running at the operation; the keys,
// and so every plan, are exactly those of evaluating at every operation
// (TestTimeInvariantKeysExact). FIFO, SJF, Lyra, SRSF and SRTF declare
// it; a learned formula without q or t may.
type TimeInvariant interface {
	TimeInvariant() bool
}

// TimeInvariant implements TimeInvariant.
func (FIFO) TimeInvariant() bool { return true }

// TimeInvariant implements TimeInvariant.
func (SJF) TimeInvariant() bool { return true }

// TimeInvariant implements TimeInvariant.
func (Lyra) TimeInvariant() bool { return true }

// TimeInvariant implements TimeInvariant.
func (SRSF) TimeInvariant() bool { return true }

// TimeInvariant implements TimeInvariant.
func (SRTF) TimeInvariant() bool { return true }

// initKeys enables key reuse for a time-invariant ranking on homogeneous
// instances without estimates (where remaining work is a plain counter).
func (s *sim) initKeys() {
	if s.list == nil || s.aware || s.dur != nil || s.estimated {
		return
	}
	if ti, ok := s.list.Ranking.(TimeInvariant); !ok || !ti.TimeInvariant() {
		return
	}
	s.keyOn = make([]int32, len(s.inst.Jobs))
	for i := range s.keyOn {
		s.keyOn[i] = -1
	}
}

// KeyBatcher is implemented by rankings that evaluate many views at once
// faster than one at a time (a compiled formula over columns of views).
// KeyBatch returns a function that sets keys[i] to exactly the value
// Priority(views[i]) would return, for every i, taking the views in order
// (a ranking that records its views sees the same sequence as one by one).
// The engine calls KeyBatch once per simulation and uses the function from
// that simulation's goroutine only, so it may own scratch memory. The
// engine uses it for the keys of all schedulable jobs at an operation,
// when the ranking is not time-invariant.
type KeyBatcher interface {
	KeyBatch() func(views []JobView, keys []float64)
}

// CoreViews is implemented by KeyBatcher rankings that, when CoreViews
// returns true, read only the Now, Cluster, Remaining, Queued, Priority and
// GPUs fields of the views their batch function is given (the paper's
// terminals d, q, u, g, and what a recorder of them needs). The engine may
// then fill only those fields; the others hold unspecified values.
type CoreViews interface {
	CoreViews() bool
}

// keyBatch is an operation's schedulable jobs, their views and their keys,
// evaluated in one call of a KeyBatcher's function.
type keyBatch struct {
	eval  func(views []JobView, keys []float64)
	core  bool // fill only the core fields (CoreViews)
	jobs  []int
	views []JobView
	out   []float64
}

// initBatch enables batch keys for a KeyBatcher ranking that is evaluated
// at every operation (initKeys left it without key reuse).
func (s *sim) initBatch() {
	if s.list == nil || s.keyOn != nil {
		return
	}
	if kb, ok := s.list.Ranking.(KeyBatcher); ok {
		s.batch = &keyBatch{eval: kb.KeyBatch()}
		// Core views are the plain counters only where remaining time is
		// one (homogeneous, no estimates) and no cluster state is asked.
		if cv, ok := s.list.Ranking.(CoreViews); ok && cv.CoreViews() && s.dur == nil && !s.estimated && !s.aware {
			s.batch.core = true
		}
	}
}

// keys sets the key of every schedulable job (assigned, not fixed), in
// (arrival, id) order: the jobs and order of the one-by-one loop.
func (b *keyBatch) keys(s *sim) {
	if b.core {
		b.coreKeys(s)
		return
	}
	b.jobs = b.jobs[:0]
	for _, j := range s.open {
		if s.assigned[j] >= 0 {
			b.jobs = append(b.jobs, j)
		}
	}
	// view assigns every field of its view, so the views are written once,
	// in place, rather than appended as zero values and then overwritten:
	// the same views, one store of each instead of two.
	n := len(b.jobs)
	if cap(b.views) < n {
		b.views = make([]JobView, n, 2*n)
	}
	b.views = b.views[:n]
	for i, j := range b.jobs {
		s.view(&b.views[i], j, s.assigned[j])
	}
	b.out = slices.Grow(b.out[:0], n)[:n]
	b.eval(b.views, b.out)
	for i, j := range b.jobs {
		s.key[j] = b.out[i]
		s.seedKeyMemo(j, b.out[i])
	}
}

// coreKeys is keys with only the core fields of each view set, to the
// values view gives them on a homogeneous instance without estimates.
func (b *keyBatch) coreKeys(s *sim) {
	b.jobs = b.jobs[:0]
	for _, j := range s.open {
		if s.assigned[j] >= 0 {
			b.jobs = append(b.jobs, j)
		}
	}
	n := len(b.jobs)
	if cap(b.views) < n {
		b.views = make([]JobView, n, 2*n)
	}
	b.views = b.views[:n]
	now := s.now
	for i, j := range b.jobs {
		v, job := &b.views[i], &s.inst.Jobs[j]
		v.Now = now
		v.Cluster = s.assigned[j]
		v.Remaining = s.rem[j]
		v.Queued = now - job.Arrival - s.ranSecs[j]
		v.Priority = job.Priority
		v.GPUs = job.GPUs
	}
	b.out = slices.Grow(b.out[:0], n)[:n]
	b.eval(b.views, b.out)
	for i, j := range b.jobs {
		s.key[j] = b.out[i]
		s.seedKeyMemo(j, b.out[i])
	}
}

// setKey evaluates job j's ranking key on cluster p. For a time-invariant
// ranking it records on the cluster whether a key it already held moved,
// so that planner.reuse can skip its order check when none did.
func (s *sim) setKey(j, p int) {
	if s.keyOn == nil {
		s.key[j] = s.priority(j, p)
		return
	}
	if s.keyOn[j] == int32(p) {
		if s.state[j] != running {
			return
		}
		if k := s.priority(j, p); math.Float64bits(k) != math.Float64bits(s.key[j]) {
			s.key[j] = k
			s.clusters[p].keyMoved = true
		}
		return
	}
	s.key[j] = s.priority(j, p)
	s.keyOn[j] = int32(p)
	if s.assigned[j] == p { // on p's list (an arrival's what-if key is not)
		s.clusters[p].keyMoved = true
	}
}

// staleKey forgets job j's key (its remaining work changed while waiting).
func (s *sim) staleKey(j int) {
	if s.keyOn != nil {
		s.keyOn[j] = -1
		s.stale = append(s.stale, j)
	}
}

// rankCmp is the ranking key order (f, a_j, id) with NaN last, as a
// three-way comparison (rankLess in one call).
func (s *sim) rankCmp(a, b int) int {
	ka, kb := s.key[a], s.key[b]
	if ka != kb && !(math.IsNaN(ka) && math.IsNaN(kb)) {
		if lessKey(ka, kb) {
			return -1
		}
		return 1
	}
	ja, jb := &s.inst.Jobs[a], &s.inst.Jobs[b]
	if ja.Arrival != jb.Arrival {
		return cmpInt64(ja.Arrival, jb.Arrival)
	}
	return cmpInt64(ja.ID, jb.ID)
}

// rankEntry is a job's place in the ranking key order packed for sorting:
// the key as order-preserving bits and the job's (arrival, id) position.
type rankEntry struct {
	k   uint64
	pos int32
	j   int32
}

// KeyBits maps a ranking key to an unsigned integer whose order is the
// ranking's key order (SPEC §4.2): numbers ascending, −0 equal to +0, NaN
// after every number and every NaN equal to every other. Keys that tie map
// to one value.
func KeyBits(f float64) uint64 {
	if f != f {
		return math.MaxUint64
	}
	if f == 0 {
		f = 0 // −0 → +0
	}
	b := math.Float64bits(f)
	if b>>63 != 0 {
		return ^b // negative: larger magnitude first
	}
	return b | 1<<63
}

func cmpRankEntry(a, b rankEntry) int {
	switch {
	case a.k < b.k:
		return -1
	case a.k > b.k:
		return 1
	}
	return int(a.pos - b.pos)
}

// sortRanked sorts jobs in the ranking key order (f, a_j, id), as
// slices.SortFunc(jobs, s.rankCmp) does, on packed entries (buf is
// scratch): no float or NaN tests in the comparisons, and a queue already
// in order costs one pass.
func (s *sim) sortRanked(jobs []int, buf *[]rankEntry) {
	e := slices.Grow((*buf)[:0], len(jobs))
	inOrder := true
	for _, j := range jobs {
		x := rankEntry{k: KeyBits(s.key[j]), pos: s.pos[j], j: int32(j)}
		if n := len(e); n > 0 && cmpRankEntry(x, e[n-1]) < 0 {
			inOrder = false
		}
		e = append(e, x)
	}
	*buf = e
	if inOrder {
		return
	}
	slices.SortFunc(e, cmpRankEntry)
	for i := range e {
		jobs[i] = int(e[i].j)
	}
}

package rule

import (
	"hash"
	"hash/fnv"
	"slices"

	"github.com/evogp/evogp/simcore"
)

// WithQueryLog returns r calling log with a key of every m query it asks
// in scope all (a study hook, for issue 39's "share of m queries asked
// twice": scripts/mshare). Two queries with equal keys ask the same
// what-if — the same time, cluster, Jn jobs on it (job, finish, nodes and
// workers), jobs already assigned there in rank order (job, remaining
// time) and queried job — so they have the same answer whichever
// individual asks (up to hash collisions, 2⁻⁶⁴ per pair). Computing a key
// costs a walk of the cluster's jobs; without the hook nothing is
// computed.
func WithQueryLog(r Rule, log func(key uint64)) Rule { r.queryLog = log; return r }

// queryKey is the key of the query of js[i] on cluster p.
func queryKey(a *simcore.Allocation, af *allFinish, i, p int) uint64 {
	h := fnv.New64a()
	put := func(x int64) { putInt64(h, x) }
	st := a.State()
	now := a.Now()
	put(now)
	put(int64(p))
	fixed := a.FixedOn(p)
	slices.Sort(fixed)
	for _, j := range fixed {
		put(a.Job(j).ID)
		put(now + a.RemainingOn(j, p))
		for _, sl := range st.Placement(j) {
			put(int64(sl.Node)<<32 | int64(sl.Workers))
		}
	}
	put(-1)
	for _, rk := range af.members[p] {
		j := af.order[p][rk]
		put(a.Job(j).ID)
		put(a.RemainingOn(j, p))
	}
	put(-2)
	rk := af.rankOf[p][i]
	k, _ := slices.BinarySearch(af.members[p], rk)
	put(int64(k)) // where j goes among the members
	j := af.order[p][rk]
	put(a.Job(j).ID)
	put(a.RemainingOn(j, p))
	return h.Sum64()
}

// putInt64 writes x to h as 8 little-endian bytes (the study keys' one
// encoding).
func putInt64(h hash.Hash64, x int64) {
	var b [8]byte
	for k := range b {
		b[k] = byte(x >> (8 * k))
	}
	h.Write(b[:])
}

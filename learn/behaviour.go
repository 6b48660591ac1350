package learn

import (
	"context"
	"math"
	"slices"

	"github.com/evogp/evogp/simcore"
)

// A decision is the set of jobs one scheduling operation ranked together on
// one cluster (the JobViews a ranking saw, in the engine's call order). A
// ranking's behaviour on a decision is the order it puts the jobs in: by
// (priority, arrival, id), NaN priorities last — the engine's order
// (SPEC §5.2). Two rankings with the same order on every decision of a
// sample are behaviourally equivalent on it.
type decision []simcore.JobView

// recorder is a ranking that delegates to inner and records every JobView
// it is asked about. It is used by one simulation at a time.
type recorder struct {
	inner simcore.Ranking
	views []simcore.JobView
}

func (r *recorder) Priority(j simcore.JobView) float64 {
	r.views = append(r.views, j)
	return r.inner.Priority(j)
}

// NeedsClusterState asks the engine for the cluster-state fields, so that
// the recorded decisions carry them (simcore.ClusterAware).
func (r *recorder) NeedsClusterState() bool { return true }

// sampleDecisions simulates sched (built around a recording ranking by
// mk) on the instances in order and returns up to n decisions of at least
// two jobs, evenly spaced over all the decisions seen. Consecutive calls
// with the same time and cluster form one decision.
func sampleDecisions(ctx context.Context, insts []simcore.Instance, opts simcore.Options, mk func(simcore.Ranking) (simcore.Scheduler, error), inner simcore.Ranking, n int) ([]decision, error) {
	var all []decision
	for i := range insts {
		rec := &recorder{inner: inner}
		sched, err := mk(rec)
		if err != nil {
			return nil, err
		}
		if _, err := simcore.Simulate(ctx, &insts[i], sched, opts); err != nil {
			return nil, err
		}
		for k := 0; k < len(rec.views); {
			m := k + 1
			for m < len(rec.views) && rec.views[m].Now == rec.views[k].Now && rec.views[m].Cluster == rec.views[k].Cluster {
				m++
			}
			if m-k >= 2 {
				all = append(all, decision(rec.views[k:m]))
			}
			k = m
		}
		if len(all) >= 8*n {
			break // enough to spread the sample over
		}
	}
	if len(all) <= n {
		return all, nil
	}
	out := make([]decision, n)
	for i := range out {
		out[i] = all[i*len(all)/n]
	}
	return out, nil
}

// order returns the permutation that ranking r puts decision d in, written
// into buf (resized as needed); keys is scratch space.
func order(r simcore.Ranking, d decision, buf []int32, keys []float64) ([]int32, []float64) {
	buf, keys = buf[:0], keys[:0]
	for i := range d {
		buf = append(buf, int32(i))
		keys = append(keys, r.Priority(d[i]))
	}
	slices.SortFunc(buf, func(a, b int32) int {
		ka, kb := keys[a], keys[b]
		an, bn := math.IsNaN(ka), math.IsNaN(kb)
		switch {
		case an && !bn:
			return 1
		case bn && !an:
			return -1
		case !an && ka < kb:
			return -1
		case !an && ka > kb:
			return 1
		}
		ja, jb := &d[a], &d[b]
		if ja.Arrival != jb.Arrival {
			if ja.Arrival < jb.Arrival {
				return -1
			}
			return 1
		}
		if ja.ID < jb.ID {
			return -1
		}
		if ja.ID > jb.ID {
			return 1
		}
		return 0
	})
	return buf, keys
}

// phenotype is a 64-bit FNV-1a hash of the orders r puts every sampled
// decision in: rankings with different behaviour on the sample differ
// (up to hash collisions, which only merge two phenotypes).
func phenotype(r simcore.Ranking, ds []decision) uint64 {
	const prime = 1099511628211
	h := uint64(14695981039346656037)
	var buf []int32
	var keys []float64
	for _, d := range ds {
		buf, keys = order(r, d, buf, keys)
		for _, i := range buf {
			h = (h ^ uint64(i)) * prime
		}
		h = (h ^ 0xff) * prime // decision separator
	}
	return h
}

// compareOrders counts, over ds, the decisions on which a orders the
// jobs exactly like ref (same) and those on which a differs from ref only
// among jobs ref's key ties (tied); the rest disagree with ref on some
// strictly ordered pair.
func compareOrders(a, ref simcore.Ranking, ds []decision) (same, tied int) {
	var ba, bb []int32
	var ka, kb []float64
	for _, d := range ds {
		ba, ka = order(a, d, ba, ka)
		bb, kb = order(ref, d, bb, kb)
		if slices.Equal(ba, bb) {
			same++
			continue
		}
		// kb holds ref's key of every job (indexed by position in d).
		ok := true
		for p := 1; p < len(ba) && ok; p++ {
			x, y := kb[ba[p-1]], kb[ba[p]]
			switch xn, yn := math.IsNaN(x), math.IsNaN(y); {
			case xn && !yn:
				ok = false
			case !xn && !yn && x > y:
				ok = false
			}
		}
		if ok {
			tied++
		}
	}
	return same, tied
}

// referenceRankings are the rankings of the baselines and simple rules a
// learned formula is compared with behaviourally, by ranking name; the
// named baselines that use each are given by the policies registry's
// table (spark and liquid use fifo, tiresias srsf, lyra lyra, wait-first
// wait: 0 − u·q).
func referenceRankings() []struct {
	name string
	r    simcore.Ranking
} {
	return []struct {
		name string
		r    simcore.Ranking
	}{
		{"fifo", simcore.FIFO{}}, {"srsf", simcore.SRSF{}}, {"lyra", simcore.Lyra{}},
		{"sjf", simcore.SJF{}}, {"srtf", simcore.SRTF{}}, {"wait", simcore.WeightedWait{}},
	}
}

package simcore

import (
	"fmt"
	"math/big"
	"slices"
)

// CheckInvariants verifies a simulation recorded with RecordSegments
// against §4.4: node capacity is never exceeded at any instant, no job runs
// before it arrives, every job finishes, each job runs exactly its duration
// (work is conserved), and the per-job results agree with the segments.
func CheckInvariants(inst *Instance, res Result) error {
	n := len(inst.Jobs)
	ran := make([]int64, n)
	first := make([]int64, n)
	last := make([]int64, n)
	count := make([]int, n)
	work := make([]*big.Rat, n) // heterogeneous jobs: fraction of work done
	lastWork := make([]*big.Rat, n)
	for i := range first {
		first[i] = -1
	}
	type event struct {
		at    int64
		delta int
		node  int
	}
	events := make([][]event, len(inst.Clusters))
	for _, sg := range res.Segments {
		j := inst.Jobs[sg.Job]
		if sg.Start < j.Arrival {
			return fmt.Errorf("job %d runs at %d before its arrival %d", j.ID, sg.Start, j.Arrival)
		}
		if sg.End <= sg.Start {
			return fmt.Errorf("job %d: empty segment [%d, %d)", j.ID, sg.Start, sg.End)
		}
		workers := 0
		for node, k := range sg.Workers {
			if k > 0 {
				events[sg.Cluster] = append(events[sg.Cluster],
					event{sg.Start, k * j.PerWorker(), node}, event{sg.End, -k * j.PerWorker(), node})
			}
			workers += k
		}
		if workers != j.Workers {
			return fmt.Errorf("job %d: segment places %d workers, want %d", j.ID, workers, j.Workers)
		}
		if !j.FitsOn(inst.Clusters[sg.Cluster]) {
			return fmt.Errorf("job %d runs on cluster %d where it does not fit", j.ID, sg.Cluster)
		}
		ran[sg.Job] += sg.End - sg.Start
		if j.TypeDurations != nil {
			// Work in fractions (SPEC §12): len / d_{j,type}.
			f := big.NewRat(sg.End-sg.Start, j.DurationOn(inst.Clusters[sg.Cluster].GPUType))
			if work[sg.Job] == nil {
				work[sg.Job] = new(big.Rat)
			}
			work[sg.Job].Add(work[sg.Job], f)
			if sg.End >= last[sg.Job] {
				lastWork[sg.Job] = f
			}
		}
		if first[sg.Job] < 0 || sg.Start < first[sg.Job] {
			first[sg.Job] = sg.Start
		}
		last[sg.Job] = max(last[sg.Job], sg.End)
		count[sg.Job]++
	}
	for p, evs := range events {
		// Releases before acquisitions at the same instant: [S, F) intervals.
		slices.SortFunc(evs, func(a, b event) int {
			if a.at != b.at {
				return cmpInt64(a.at, b.at)
			}
			return a.delta - b.delta
		})
		used := make([]int, inst.Clusters[p].Nodes)
		for _, e := range evs {
			used[e.node] += e.delta
			if used[e.node] > inst.Clusters[p].GPUsPerNode {
				return fmt.Errorf("cluster %d node %d holds %d GPUs at %d, capacity %d", p, e.node, used[e.node], e.at, inst.Clusters[p].GPUsPerNode)
			}
		}
	}
	for i, j := range inst.Jobs {
		r := res.Jobs[i]
		if j.TypeDurations != nil {
			// All work done, and not before the last segment: each move
			// between types rounds the remaining time up to a second.
			one := big.NewRat(1, 1)
			if work[i] == nil || work[i].Cmp(one) < 0 || new(big.Rat).Sub(work[i], lastWork[i]).Cmp(one) >= 0 {
				return fmt.Errorf("job %d: work done %v of 1 (last segment %v)", j.ID, work[i], lastWork[i])
			}
		}
		switch {
		case j.TypeDurations == nil && ran[i] != j.Duration:
			return fmt.Errorf("job %d ran %d s, duration %d s", j.ID, ran[i], j.Duration)
		case r.Finish != last[i]:
			return fmt.Errorf("job %d: finish %d, last segment ends %d", j.ID, r.Finish, last[i])
		case r.Start != first[i]:
			return fmt.Errorf("job %d: start %d, first segment starts %d", j.ID, r.Start, first[i])
		case r.Queue != r.Finish-j.Arrival-ran[i] || r.Queue < 0:
			return fmt.Errorf("job %d: queue %d inconsistent", j.ID, r.Queue)
		case count[i] != 1+r.Preemptions+r.Migrations:
			return fmt.Errorf("job %d: %d segments but %d preemptions and %d migrations", j.ID, count[i], r.Preemptions, r.Migrations)
		}
	}
	return nil
}

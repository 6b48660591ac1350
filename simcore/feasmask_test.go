package simcore

import (
	"context"
	"math/rand/v2"
	"testing"
)

// TestFeasibleMaskIsFitsOn: the per-simulation feasibility mask
// (feasmask.go) answers every job and cluster of random homogeneous
// instances — including jobs that fit nowhere but on some clusters, by
// GPUs per worker or by workers — as Job.FitsOn does, and is built (so the
// test cannot pass by never using it).
func TestFeasibleMaskIsFitsOn(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 17))
	for k := range 200 {
		inst := &Instance{Name: "mask"}
		for range 1 + rng.IntN(9) {
			inst.Clusters = append(inst.Clusters, Cluster{Nodes: 1 + rng.IntN(6), GPUsPerNode: []int{1, 2, 4, 8}[rng.IntN(4)]})
		}
		for id := range 1 + rng.IntN(30) {
			w := []int{1, 2, 4, 8, 16}[rng.IntN(5)]
			r := 1 + rng.IntN(12)
			inst.Jobs = append(inst.Jobs, Job{ID: int64(id), Cluster: rng.IntN(len(inst.Clusters)), Duration: 1, Workers: r, GPUs: r * w, Priority: 1})
		}
		s := newSim(context.Background(), inst, NewListScheduler("liquid", MCT{}, FIFO{}, BestFit{}), Options{}, testHooks{})
		if s.feasMask == nil {
			t.Fatalf("instance %d: no mask on a homogeneous instance", k)
		}
		for j, job := range inst.Jobs {
			for p, c := range inst.Clusters {
				if got, want := s.feasible(j, p), job.FitsOn(c); got != want {
					t.Fatalf("instance %d job %d cluster %d: mask says %v, FitsOn %v", k, j, p, got, want)
				}
			}
		}
	}
}

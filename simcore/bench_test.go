package simcore_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/evogp/evogp/datasets"
	"github.com/evogp/evogp/simcore"
)

// benchInstance is the benchmark instance: 10 clusters × 50 nodes ×
// 8 GPUs, 10 jobs per node (5,000 jobs), Table II job mix, Poisson arrivals.
func benchInstance(b *testing.B) *simcore.Instance {
	s := datasets.PaperSettings()
	s.Clusters = [2]int{10, 10}
	s.Nodes = [2]int{50, 50}
	inst, err := datasets.GenerateInstance(s, 42, 0)
	if err != nil {
		b.Fatal(err)
	}
	return &inst
}

func benchSimulate(b *testing.B, spec string, opts simcore.Options) {
	inst := benchInstance(b)
	sched, err := simcore.ParseScheduler(spec, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := simcore.Simulate(context.Background(), inst, sched, opts); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(inst.Jobs)), "jobs")
}

func BenchmarkSimulate(b *testing.B) {
	for _, spec := range []string{"tiresias", "spark"} {
		b.Run(spec, func(b *testing.B) { benchSimulate(b, spec, simcore.Options{}) })
	}
	b.Run("tiresias-completion", func(b *testing.B) {
		benchSimulate(b, "tiresias", simcore.Options{Trigger: simcore.TriggerArrivalCompletion})
	})
	b.Run("tiresias-greedy", func(b *testing.B) {
		benchSimulate(b, "tiresias", simcore.Options{Backfill: simcore.BackfillGreedy})
	})
}

// On generated paper-style instances, plan reuse must give exactly the
// results of replanning every cluster at every operation, and the
// invariants must hold.
func TestGeneratedInstancesReuseAndInvariants(t *testing.T) {
	s := datasets.PaperSettings()
	s.Clusters = [2]int{2, 5}
	s.Nodes = [2]int{4, 12}
	insts, err := datasets.Generate(s, 5, 12)
	if err != nil {
		t.Fatal(err)
	}
	for i := range insts {
		inst := &insts[i]
		for _, spec := range []string{"tiresias", "spark", "lyra", "liquid"} {
			sched, _ := simcore.ParseScheduler(spec, nil)
			assertPlanningExact(t, inst, sched)
		}
	}
}

// Overloaded clusters build long queues, where extending the previous plan
// (rather than rebuilding it) matters most: results must still equal
// replanning every cluster at every operation.
func TestOverloadedIncrementalPlansExact(t *testing.T) {
	s := datasets.PaperSettings()
	s.Clusters = [2]int{1, 3}
	s.Nodes = [2]int{2, 6}
	s.JobsPerNode = 30
	s.LoadMin, s.LoadMax = 1.5, 3
	insts, err := datasets.Generate(s, 9, 10)
	if err != nil {
		t.Fatal(err)
	}
	var qdep simcore.Scheduler = simcore.NewListScheduler("qdep", simcore.MCT{},
		simcore.RankingFunc(func(j simcore.JobView) float64 {
			return float64(j.Remaining) - float64(j.Queued)*float64(j.Queued)/3600
		}), simcore.BestFit{})
	for i := range insts {
		inst := &insts[i]
		for _, spec := range []string{"spark", "liquid", "tiresias", "lyra", "user+fifo+bestfit", "qdep"} {
			sched := qdep
			if spec != "qdep" {
				sched, _ = simcore.ParseScheduler(spec, nil)
			}
			assertPlanningExact(t, inst, sched)
		}
	}
}

// assertPlanningExact simulates inst under sched with both triggers, checks
// the invariants, and requires the result to equal replanning every
// cluster at every operation (plan reuse and extension are exact).
func assertPlanningExact(t *testing.T, inst *simcore.Instance, sched simcore.Scheduler) {
	t.Helper()
	for _, base := range []simcore.Options{{}, {Trigger: simcore.TriggerArrivalCompletion}} {
		base.RecordSegments = true
		a, err := simcore.Simulate(context.Background(), inst, sched, base)
		if err != nil {
			t.Fatal(err)
		}
		if err := simcore.CheckInvariants(inst, a); err != nil {
			t.Fatalf("%s %s: %v", inst.Name, sched.Name(), err)
		}
		b, err := simcore.SimulateReplanning(context.Background(), inst, sched, base)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("%s %s %+v: plan reuse or extension changed the result", inst.Name, sched.Name(), base)
		}
	}
}

package simcore_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/evogp/evogp/simcore"
)

// firstFit is a toy scheduler written only against the public seam: every
// queued job starts now on the first cluster (in index order) with room
// for all its workers, first-fit over nodes; otherwise it waits. Running
// jobs keep running where they are.
type firstFit struct{}

func (firstFit) Name() string        { return "firstfit" }
func (firstFit) OnCompletions() bool { return true }

func (firstFit) Plan(st *simcore.State, pl *simcore.Plan) error {
	inst := st.Instance()
	free := make([][]int, st.Clusters())
	for p, c := range inst.Clusters {
		free[p] = make([]int, c.Nodes)
		for n := range free[p] {
			free[p][n] = c.GPUsPerNode
		}
	}
	for _, j := range st.Active() {
		if st.Running(j) {
			w := st.Job(j).PerWorker()
			for _, sl := range st.Placement(j) {
				free[st.Assigned(j)][sl.Node] -= int(sl.Workers) * w
			}
		}
	}
	for _, j := range st.Schedulable() {
		if st.Running(j) { // off its user cluster: keep it as it is
			pl.Start(j, st.Assigned(j), st.Now(), st.Placement(j))
			continue
		}
		job := st.Job(j)
		w, placed := job.PerWorker(), false
		for p := range free {
			if !st.Feasible(j, p) {
				continue
			}
			room := 0
			for _, f := range free[p] {
				room += f / w
			}
			if room < job.Workers {
				continue
			}
			var slots []simcore.Slot
			left := job.Workers
			for n := range free[p] {
				k := min(free[p][n]/w, left)
				if k > 0 {
					slots = append(slots, simcore.Slot{Node: int32(n), Workers: int32(k)})
					free[p][n] -= k * w
					left -= k
				}
			}
			pl.Start(j, p, st.Now(), slots)
			placed = true
			break
		}
		if !placed {
			pl.Wait(j, job.Cluster)
		}
	}
	return nil
}

// toyInstance draws a small contended instance.
func toyInstance(rng *rand.Rand, name string) *simcore.Instance {
	inst := &simcore.Instance{Name: name}
	for range 1 + rng.IntN(3) {
		inst.Clusters = append(inst.Clusters, simcore.Cluster{Nodes: 1 + rng.IntN(3), GPUsPerNode: []int{2, 4, 8}[rng.IntN(3)]})
	}
	t := int64(0)
	for id := 0; len(inst.Jobs) < 5+id%20; id++ {
		t += int64(rng.IntN(40))
		w := []int{1, 2, 4}[rng.IntN(3)]
		r := 1 + rng.IntN(3)
		j := simcore.Job{ID: int64(id), Arrival: t, Cluster: rng.IntN(len(inst.Clusters)), Duration: 1 + int64(rng.IntN(150)), Workers: r, GPUs: r * w, Priority: 1 + rng.IntN(3)}
		if j.FitsOn(inst.Clusters[j.Cluster]) {
			inst.Jobs = append(inst.Jobs, j)
		}
	}
	return inst
}

// A scheduler registered from outside the engine runs through the seam,
// and the invariants hold on random instances.
func TestToySchedulerThroughTheSeam(t *testing.T) {
	reg := simcore.NewRegistry()
	reg.Scheduler("firstfit", func(string, simcore.Params) (simcore.Scheduler, error) { return firstFit{}, nil })
	sched, err := reg.Parse("firstfit", simcore.Params{})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 8))
	started := 0
	for i := range 200 {
		inst := toyInstance(rng, fmt.Sprintf("toy-%d", i))
		res, err := simcore.Simulate(context.Background(), inst, sched, simcore.Options{RecordSegments: true})
		if err != nil {
			t.Fatalf("%s: %v", inst.Name, err)
		}
		if err := simcore.CheckInvariants(inst, res); err != nil {
			t.Fatalf("%s: %v", inst.Name, err)
		}
		for _, j := range res.Jobs {
			if j.Preemptions+j.Migrations != 0 {
				t.Fatalf("%s: job %d moved under a scheduler that never moves jobs", inst.Name, j.ID)
			}
			if j.Start == j.Arrival {
				started++
			}
		}
		if res.Scheduler != "firstfit" {
			t.Fatalf("result labelled %q", res.Scheduler)
		}
	}
	if started == 0 {
		t.Fatal("no job ever started at its arrival: the toy did not run")
	}
}

// badPlan starts every schedulable job now on node 0 of its user cluster:
// two 4-GPU jobs on one 4-GPU node overfill it.
type badPlan struct{ mode string }

func (b badPlan) Name() string { return "bad-" + b.mode }

func (b badPlan) Plan(st *simcore.State, pl *simcore.Plan) error {
	for k, j := range st.Schedulable() {
		job := st.Job(j)
		switch {
		case b.mode == "forget" && k == 1:
			continue
		case b.mode == "early":
			pl.Start(j, job.Cluster, st.Now()-1, []simcore.Slot{{Node: 0, Workers: int32(job.Workers)}})
		case b.mode == "workers":
			pl.Start(j, job.Cluster, st.Now(), []simcore.Slot{{Node: 0, Workers: int32(job.Workers + 1)}})
		default:
			pl.Start(j, job.Cluster, st.Now(), []simcore.Slot{{Node: 0, Workers: int32(job.Workers)}})
		}
	}
	return nil
}

func TestEngineRejectsBadPlans(t *testing.T) {
	inst := &simcore.Instance{Name: "two", Clusters: []simcore.Cluster{{Nodes: 2, GPUsPerNode: 4}}, Jobs: []simcore.Job{
		{ID: 7, Arrival: 0, Duration: 100, Workers: 1, GPUs: 4, Priority: 1},
		{ID: 8, Arrival: 0, Duration: 100, Workers: 1, GPUs: 4, Priority: 1},
	}}
	for mode, want := range map[string]string{
		"overfill": "job 8: node 0 of cluster 0 would hold 8 GPUs at t=0, capacity 4",
		"forget":   "job 8: in Js but the plan neither starts it nor makes it wait",
		"early":    "job 7: planned to start at -1, before the operation time",
		"workers":  "job 7: placement holds 2 workers, the job has 1",
	} {
		_, err := simcore.Simulate(context.Background(), inst, badPlan{mode}, simcore.Options{})
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), `scheduler "bad-`+mode+`"`) {
			t.Errorf("%s: got %v, want an error naming the scheduler and %q", mode, err, want)
		}
	}
}

// fixedMover tries to move a job that runs on its user cluster (Jn).
type fixedMover struct{ firstFit }

func (fixedMover) Name() string { return "mover" }

func (f fixedMover) Plan(st *simcore.State, pl *simcore.Plan) error {
	for _, j := range st.Active() {
		if st.IsFixed(j) {
			pl.Wait(j, st.Assigned(j))
		}
	}
	return f.firstFit.Plan(st, pl)
}

func TestEngineKeepsJnUntouched(t *testing.T) {
	inst := &simcore.Instance{Name: "jn", Clusters: []simcore.Cluster{{Nodes: 1, GPUsPerNode: 4}}, Jobs: []simcore.Job{
		{ID: 1, Arrival: 0, Duration: 100, Workers: 1, GPUs: 2, Priority: 1},
		{ID: 2, Arrival: 10, Duration: 100, Workers: 1, GPUs: 2, Priority: 1},
	}}
	_, err := simcore.Simulate(context.Background(), inst, fixedMover{}, simcore.Options{})
	if err == nil || !strings.Contains(err.Error(), "job 1 runs on its user cluster (Jn)") {
		t.Fatalf("got %v", err)
	}
}

// Validating the list scheduler's own plans (CheckPlans) finds nothing
// wrong and changes no result.
func TestListSchedulerPlansValidate(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for i := range 60 {
		inst := toyInstance(rng, fmt.Sprint(i))
		for _, spec := range []string{"spark", "tiresias", "lyra", "user+fifo+bestfit"} {
			for _, opts := range []simcore.Options{{}, {Backfill: simcore.BackfillConservative}, {Backfill: simcore.BackfillGreedy}, {Trigger: simcore.TriggerArrivalCompletion}} {
				sched, _ := simcore.ParseScheduler(spec, nil)
				a, err := simcore.Simulate(context.Background(), inst, sched, opts)
				if err != nil {
					t.Fatal(err)
				}
				opts.CheckPlans = true
				b, err := simcore.Simulate(context.Background(), inst, sched, opts)
				if err != nil {
					t.Fatalf("%s %s %+v: %v", inst.Name, spec, opts, err)
				}
				if fmt.Sprint(a.Jobs) != fmt.Sprint(b.Jobs) {
					t.Fatalf("%s %s: CheckPlans changed the result", inst.Name, spec)
				}
			}
		}
	}
}

// OnOperation reports every operation with monotone progress that ends
// with every job finished.
func TestOnOperationProgress(t *testing.T) {
	inst := toyInstance(rand.New(rand.NewPCG(1, 2)), "progress")
	calls, lastT, lastDone := 0, int64(-1), -1
	sched, _ := simcore.ParseScheduler("tiresias", nil)
	res, err := simcore.Simulate(context.Background(), inst, sched, simcore.Options{OnOperation: func(t int64, arrived, finished int) {
		calls++
		if t < lastT || finished < lastDone || finished > arrived || arrived > len(inst.Jobs) {
			panic(fmt.Sprintf("progress went backwards or out of range: t=%d arrived=%d finished=%d", t, arrived, finished))
		}
		lastT, lastDone = t, finished
	}})
	if err != nil {
		t.Fatal(err)
	}
	if calls != res.Operations || lastDone != len(inst.Jobs) {
		t.Fatalf("%d calls for %d operations; finished %d of %d at the end", calls, res.Operations, lastDone, len(inst.Jobs))
	}
}

package hydra

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/evogp/evogp/simcore"
)

// Hydra's own simulator (iscas-system/Hydra) keeps time and progress as
// floats and moves its clock in steps of at least one second: each step
// goes to the nearest completion or submission but is never shorter than
// 1 s, and a running job's progress is a remaining ratio reduced by
// step/duration at every step. When rounding leaves a completing job a
// tiny positive ratio, the step that completes it is 1 s long: its finish
// is recorded at the exact float time, but its GPU is handed out only at
// the end of that step. evogp's engine (integer seconds, exact
// completions) never shows that delay, so on Hydra's own cases its
// figures differ slightly from the published ones. FloatClockSJFFastest
// re-implements that time model, from its description, for the
// sjf-fastest rule ("Gavel" in Hydra's evaluation), to reproduce those
// figures; it is a compatibility path, not the engine.

// FloatJob is one job's outcome under the float clock (seconds).
type FloatJob struct {
	ID      int64
	Type    string  // the GPU type it ran on
	Start   float64 // when its GPU was handed out
	Finish  float64 // the recorded finish time
	JCT     float64 // Finish − arrival
	Tardy   float64 // max(0, Finish − deadline); 0 without deadline
	Missed  bool    // Tardy > 0
	Arrival int64
}

// FloatResult is a float-clock run: the jobs in instance order and their
// averages.
type FloatResult struct {
	Jobs           []FloatJob
	AvgJCT         float64
	TotalTardiness float64
	Misses         int
}

// floatRunning is a busy GPU: its job and that job's remaining ratio.
type floatRunning struct {
	job   int // index in inst.Jobs, −1 when idle
	full  float64
	ratio float64
}

// FloatClockSJFFastest simulates sjf-fastest on a Hydra-model instance
// (single-GPU jobs, one GPU type per cluster, its nodes × GPUs per node
// GPUs of that type) with Hydra's float clock:
//   - one waiting list per GPU type, sorted by the job's duration on that
//     type; a new job goes before the jobs of equal duration (so among
//     equals the later row comes first);
//   - at every submission and every step that completes a job, while some
//     GPU is idle and some job waits, the head of the type list with an
//     idle GPU and the smallest duration starts there (among equal heads
//     the first type in sorted name order; Hydra iterates a Go map there,
//     so its own choice among equal heads is unspecified);
//   - the clock steps to min(max(nearest completion, 1 s), next
//     submission); running jobs lose step/duration of their ratio, and a
//     job whose ratio would reach 0 finishes at step start + ratio ×
//     duration.
func FloatClockSJFFastest(ctx context.Context, inst *simcore.Instance) (FloatResult, error) {
	typeOf := map[string]bool{}
	var gpus []string // the type of every GPU, in Hydra's GPU id order
	for _, c := range inst.Clusters {
		typeOf[c.GPUType] = true
	}
	types := make([]string, 0, len(typeOf))
	for t := range typeOf {
		types = append(types, t)
	}
	sort.Strings(types)
	for _, t := range types {
		for _, c := range inst.Clusters {
			if c.GPUType == t {
				for range c.GPUs() {
					gpus = append(gpus, t)
				}
			}
		}
	}
	if len(gpus) == 0 {
		return FloatResult{}, fmt.Errorf("hydra float clock: instance %s has no GPUs", inst.Name)
	}
	dur := func(j int, t string) float64 {
		d := inst.Jobs[j].DurationOn(t)
		if d <= 0 {
			return math.Inf(1)
		}
		return float64(d)
	}
	for j := range inst.Jobs {
		job := inst.Jobs[j]
		if job.GPUs != 1 {
			return FloatResult{}, fmt.Errorf("hydra float clock: job %d uses %d GPUs; Hydra's model has single-GPU jobs", job.ID, job.GPUs)
		}
		runnable := false
		for _, t := range types {
			runnable = runnable || !math.IsInf(dur(j, t), 1)
		}
		if !runnable {
			return FloatResult{}, fmt.Errorf("hydra float clock: job %d can run on no GPU type of the instance", job.ID)
		}
	}
	// Submissions in (arrival, row) order, grouped by second.
	order := make([]int, len(inst.Jobs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmpI64(inst.Jobs[a].Arrival, inst.Jobs[b].Arrival) })

	waiting := make(map[string][]int, len(types))
	gpu := make([]floatRunning, len(gpus))
	for i := range gpu {
		gpu[i].job = -1
	}
	res := FloatResult{Jobs: make([]FloatJob, len(inst.Jobs))}
	started := make([]bool, len(inst.Jobs))
	clusterNow := 0.0

	insert := func(j int) {
		for _, t := range types {
			d := dur(j, t)
			ls := waiting[t]
			i := sort.Search(len(ls), func(i int) bool { return dur(ls[i], t) >= d })
			waiting[t] = slices.Insert(ls, i, j)
		}
	}
	remove := func(j int) {
		for _, t := range types {
			waiting[t] = slices.DeleteFunc(waiting[t], func(x int) bool { return x == j })
		}
	}
	schedule := func() {
		for {
			best, bestGPU := -1, -1
			bestDur := math.Inf(1)
			for _, t := range types {
				ls := waiting[t]
				if len(ls) == 0 || math.IsInf(dur(ls[0], t), 1) {
					continue
				}
				g := slices.IndexFunc(gpus, func(x string) bool { return x == t })
				for g >= 0 && g < len(gpus) && (gpus[g] != t || gpu[g].job >= 0) {
					g++
				}
				if g < 0 || g >= len(gpus) || gpus[g] != t {
					continue
				}
				if d := dur(ls[0], t); best < 0 || d < bestDur {
					best, bestGPU, bestDur = ls[0], g, d
				}
			}
			if best < 0 {
				return
			}
			remove(best)
			started[best] = true
			gpu[bestGPU] = floatRunning{job: best, full: bestDur, ratio: 1}
			res.Jobs[best] = FloatJob{ID: inst.Jobs[best].ID, Type: gpus[bestGPU], Start: clusterNow, Arrival: inst.Jobs[best].Arrival}
		}
	}
	// pass advances the clock to target (forever when noMore), as Hydra's
	// passDuration: one step at a time, rescheduling after a step that
	// completes a job.
	pass := func(duration float64, noMore bool) error {
		curr := clusterNow
		target := curr + duration
		if noMore {
			target = 1e38
		}
		for curr < target || noMore {
			if err := ctx.Err(); err != nil {
				return err
			}
			closest := math.Inf(1)
			for _, g := range gpu {
				if g.job >= 0 {
					closest = math.Min(closest, g.ratio*g.full)
				}
			}
			if math.IsInf(closest, 1) && noMore {
				return nil
			}
			step := math.Min(math.Max(closest, 1), target-curr)
			from := clusterNow
			clusterNow += step
			// A GPU runs its job for (from + step) − from, which is not
			// always step in floating point (Hydra's queues measure it so).
			ran := clusterNow - from
			finished := false
			for i := range gpu {
				g := &gpu[i]
				if g.job < 0 {
					continue
				}
				if g.ratio-ran/g.full <= 0 {
					fj := &res.Jobs[g.job]
					fj.Finish = from + g.ratio*g.full
					g.job = -1
					finished = true
				} else {
					g.ratio -= ran / g.full
				}
			}
			curr += step
			if finished {
				schedule()
			}
		}
		return nil
	}
	for k := 0; k < len(order); {
		at := float64(inst.Jobs[order[k]].Arrival)
		for clusterNow < at {
			if err := pass(at-clusterNow, false); err != nil {
				return FloatResult{}, err
			}
		}
		for ; k < len(order) && float64(inst.Jobs[order[k]].Arrival) == at; k++ {
			insert(order[k])
		}
		schedule()
	}
	if err := pass(0, true); err != nil {
		return FloatResult{}, err
	}
	for j := range res.Jobs {
		if !started[j] {
			return FloatResult{}, fmt.Errorf("hydra float clock: job %d never started", inst.Jobs[j].ID)
		}
		fj := &res.Jobs[j]
		fj.JCT = fj.Finish - float64(inst.Jobs[j].Arrival)
		if dl := inst.Jobs[j].Deadline; dl > 0 {
			fj.Tardy = math.Max(fj.Finish-float64(dl), 0)
			fj.Missed = fj.Tardy > 0
		}
		res.AvgJCT += fj.JCT
		res.TotalTardiness += fj.Tardy
		if fj.Missed {
			res.Misses++
		}
	}
	res.AvgJCT /= float64(len(res.Jobs))
	return res, nil
}

func cmpI64(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

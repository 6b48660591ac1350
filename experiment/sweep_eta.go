package experiment

import (
	"math"

	"github.com/evogp/evogp/configs"
)

// pointCost estimates the work of learning and testing one sweep point,
// in simulated jobs, so that the sweep's progress (and its ETA) weighs a
// point of population 2048 more than one of 64: the training simulations
// (population × (generations + 1) fitness evaluations of gp.subset
// instances), the validation of the best every gp.validate_every
// generations, and the test of the learned formula and the baselines,
// each times the jobs per generated instance.
func pointCost(cfg configs.Config) float64 {
	gp := cfg.GP
	gens := float64(max(gp.Generations, 0) + 1)
	train := float64(max(gp.Population, 1)) * gens * float64(max(gp.Subset, 1))
	every := float64(max(gp.ValidateEvery, 1))
	val := float64(cfg.Data.Validation) * (math.Floor(gens/every) + 1)
	test := float64(cfg.Data.Test) * 6 // the formula and the five named baselines
	return (train + val + test) * jobsPerInstance(cfg.Generator)
}

// jobsPerInstance is the mean number of jobs the generator draws per
// instance: Jobs when set, otherwise JobsPerNode × the mean nodes per
// cluster × the mean number of clusters.
func jobsPerInstance(g configs.Generator) float64 {
	if g.Jobs > 0 {
		return float64(g.Jobs)
	}
	mean := func(r [2]int) float64 { return float64(r[0]+r[1]) / 2 }
	return max(1, g.JobsPerNode*mean(g.Nodes)*mean(g.Clusters))
}

// workUnits is the scale the sweep's progress counts in: per mille of the
// estimated work of the points still to run.
const workUnits = 1000

// weightedProgress turns finished points into progress units in
// proportion to their estimated cost. Points already finished before the
// sweep started have no weight, so their instant completion does not make
// the remaining ones look fast.
type weightedProgress struct {
	weights  []float64 // by task index; 0 for a point already done
	total    float64
	done     float64
	reported int
}

func newWeightedProgress(weights []float64) *weightedProgress {
	w := &weightedProgress{weights: weights}
	for _, x := range weights {
		w.total += x
	}
	return w
}

// finish records task i as done and returns the progress units to add;
// the units sum to workUnits once every weighted task is done.
func (w *weightedProgress) finish(i int) int {
	if w.total == 0 || w.weights[i] == 0 {
		return 0
	}
	w.done += w.weights[i]
	w.weights[i] = 0
	now := int(math.Round(workUnits * w.done / w.total))
	add := now - w.reported
	w.reported = now
	return add
}

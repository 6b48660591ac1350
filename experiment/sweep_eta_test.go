package experiment

import (
	"testing"
	"time"

	"github.com/evogp/evogp/configs"
)

// Hand-computed: population 10, 4 generations (5 evaluations), subset 2:
// 100 training simulations; 3 validation instances every 2 generations:
// 3 × (⌊5/2⌋ + 1) = 9; 2 test instances × 6 schedulers (the formula and
// the five named baselines, wait-first included) = 12; 121 in all, times 50
// jobs per instance.
func TestPointCostHandComputed(t *testing.T) {
	var cfg configs.Config
	cfg.GP.Population, cfg.GP.Generations, cfg.GP.Subset, cfg.GP.ValidateEvery = 10, 4, 2, 2
	cfg.Data.Validation, cfg.Data.Test = 3, 2
	cfg.Generator.Jobs = 50
	if got := pointCost(cfg); got != 121*50 {
		t.Fatalf("cost %v, want %v", got, 121*50)
	}
	cfg.Generator.Jobs = 0
	cfg.Generator.JobsPerNode, cfg.Generator.Nodes, cfg.Generator.Clusters = 2, [2]int{4, 8}, [2]int{1, 3}
	if got := jobsPerInstance(cfg.Generator); got != 2*6*2 {
		t.Fatalf("jobs per instance %v, want 24", got)
	}
	// Doubling the population about doubles the cost.
	big := cfg
	big.GP.Population = 20
	if r := pointCost(big) / pointCost(cfg); r < 1.8 || r > 2 {
		t.Errorf("population ×2 gives cost ×%v", r)
	}
}

// The ETA a progress bar derives from units (elapsed ÷ done × left) is
// right for points of very different cost: after the cheap point (cost 1
// of 10) took 10 s, 90 s remain — a count of points would say 10 s.
func TestWeightedProgressETA(t *testing.T) {
	wp := newWeightedProgress([]float64{1, 9})
	u := wp.finish(0)
	if u != 100 {
		t.Fatalf("cheap point gives %d units, want 100", u)
	}
	elapsed := 10 * time.Second
	eta := time.Duration(float64(elapsed) / float64(u) * float64(workUnits-u))
	if eta != 90*time.Second {
		t.Fatalf("ETA %v, want 90s", eta)
	}
	if u2 := wp.finish(1); u+u2 != workUnits {
		t.Fatalf("units sum to %d", u+u2)
	}
	if wp.finish(1) != 0 {
		t.Error("a task counted twice")
	}
	// Already-finished points (weight 0) add nothing; rounding never
	// loses units over many points.
	ws := []float64{0, 0.3, 0.3, 0.3, 0, 2.1}
	wp = newWeightedProgress(ws)
	sum := 0
	for i := range ws {
		sum += wp.finish(i)
	}
	if sum != workUnits {
		t.Fatalf("units %d, want %d", sum, workUnits)
	}
}

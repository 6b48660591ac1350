package simcore

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
)

// The early-stop bound is a true lower bound: a run never stops below its
// own final objective, and whenever it stops, the bound it reports is at
// most the objective the full run ends with.
func TestStopAboveBoundIsValid(t *testing.T) {
	rng := rand.New(rand.NewPCG(131, 137))
	stops := 0
	objectives := []Objective{DefaultObjective(), {Kind: SingleCluster, Omega: 0.5}, {Kind: MultiCluster, Weights: [3]float64{0.2, 1, 3}}}
	for i := range 150 {
		inst := randomInstance(rng, fmt.Sprintf("bound-%d", i))
		for _, spec := range allSchedulerSpecs() {
			for m, mode := range goldenModes() {
				mode.Objective = objectives[(i+m)%len(objectives)]
				full, err := Simulate(context.Background(), inst, schedulerFor(t, spec), mode)
				if err != nil {
					t.Fatal(err)
				}
				o := full.Metrics.Objective
				for _, f := range []float64{1, 0.9, 0.6, 0.3} {
					opts := mode
					opts.StopAbove = o * f
					if opts.StopAbove <= 0 {
						continue
					}
					res, err := Simulate(context.Background(), inst, schedulerFor(t, spec), opts)
					var be *BoundExceeded
					switch {
					case err == nil:
						if res.Metrics.Objective != o {
							t.Fatalf("%s %s: a run that did not stop ended at %v, not %v", inst.Name, spec, res.Metrics.Objective, o)
						}
					case errors.As(err, &be):
						stops++
						if f == 1 {
							t.Fatalf("%s %s mode %d: stopped at its own objective %v (bound %v)", inst.Name, spec, m, o, be.LowerBound)
						}
						if be.LowerBound > o*(1+1e-9)+1e-12 {
							t.Fatalf("%s %s mode %d: bound %v above the final objective %v", inst.Name, spec, m, be.LowerBound, o)
						}
					default:
						t.Fatal(err)
					}
				}
			}
		}
	}
	if stops == 0 {
		t.Fatal("no run ever stopped early: the bound is never useful")
	}
	t.Logf("%d early stops", stops)
}

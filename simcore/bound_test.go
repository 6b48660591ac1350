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

// The deadline objective is ω·avg JCT + (1−ω)·mean tardiness, by hand: two
// jobs, JCT 1 h and 3 h, tardiness 0 and 2 h → 0.5·2 + 0.5·1 = 1.5.
func TestDeadlineObjective(t *testing.T) {
	m := Metrics{Jobs: 2, AvgJCT: 2, TotalTardiness: 2}
	if v := (Objective{Kind: DeadlineAware, Omega: 0.5}).Value(m); v != 1.5 {
		t.Fatalf("deadline objective %v, want 1.5", v)
	}
	if k, err := ParseObjectiveKind("deadline"); err != nil || k != DeadlineAware {
		t.Fatal(k, err)
	}
	if _, err := ParseObjectiveKind("both"); err == nil {
		t.Fatal("unknown kind accepted")
	}
}

// The bound stays valid under the deadline objective on instances with
// deadlines.
func TestStopAboveDeadlineBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(139, 149))
	stops := 0
	for i := range 100 {
		inst := randomInstance(rng, fmt.Sprintf("dl-%d", i))
		for k := range inst.Jobs {
			if rng.IntN(2) == 0 {
				inst.Jobs[k].Deadline = inst.Jobs[k].Arrival + inst.Jobs[k].Duration + int64(rng.IntN(300))
			}
		}
		for _, spec := range allSchedulerSpecs() {
			opts := Options{Objective: Objective{Kind: DeadlineAware, Omega: 0.3}}
			full, err := Simulate(context.Background(), inst, schedulerFor(t, spec), opts)
			if err != nil {
				t.Fatal(err)
			}
			o := full.Metrics.Objective
			for _, f := range []float64{1, 0.7, 0.4} {
				opts.StopAbove = o * f
				if opts.StopAbove <= 0 {
					continue
				}
				_, err := Simulate(context.Background(), inst, schedulerFor(t, spec), opts)
				var be *BoundExceeded
				if errors.As(err, &be) {
					stops++
					if f == 1 || be.LowerBound > o*(1+1e-9)+1e-12 {
						t.Fatalf("%s %s: bound %v, final %v (f=%v)", inst.Name, spec, be.LowerBound, o, f)
					}
				} else if err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	if stops == 0 {
		t.Fatal("never stopped")
	}
}

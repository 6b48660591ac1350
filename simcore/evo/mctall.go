package evo

import (
	"errors"

	"github.com/evogp/evogp/simcore"
)

// MCTAll is MCT with EVO's scope: at every operation it re-decides the
// cluster of every schedulable job (Js), not only the arrivals. Starting
// from the Jn jobs alone, it takes the Js jobs in (arrival, id) order and
// puts each on the feasible cluster where the plan of the jobs placed so
// far finishes it earliest (ties → user cluster, then lowest index) — the
// pure-MCT assignment that seeds EVO. This is one reading of the paper's
// "MCT-X" (MCT in place of EVO); the default MCT assigns arrivals only.
type MCTAll struct{}

// Allocate implements simcore.Allocator.
func (MCTAll) Allocate(a *simcore.Allocation) error {
	if err := (simcore.MCT{}).Allocate(a); err != nil { // arrivals need a cluster first
		return err
	}
	js := a.Schedulable()
	if len(js) == 0 || a.Clusters() == 1 {
		return nil
	}
	op := newEVOOp(a, Params{Workers: 1}, js)
	genes, err := op.pureMCT()
	if err != nil {
		return err
	}
	for g, j := range op.js {
		a.Assign(j, int(genes[g]))
	}
	return nil
}

// CheckBackfill implements simcore.BackfillChecker.
func (MCTAll) CheckBackfill(b simcore.Backfill) error {
	if b == simcore.BackfillStrict || b == simcore.BackfillPreemptive {
		return errors.New("the mct-all allocator plans with EVO's what-if planners and does not support backfill strict or preemptive")
	}
	return nil
}

package simcore

// MCTAll is MCT with EVO's scope: at every operation it re-decides the
// cluster of every schedulable job (Js), not only the arrivals. Starting
// from the Jn jobs alone, it takes the Js jobs in (arrival, id) order and
// puts each on the feasible cluster where the plan of the jobs placed so
// far finishes it earliest (ties → user cluster, then lowest index) — the
// pure-MCT assignment that seeds EVO. This is one reading of the paper's
// "MCT-X" (MCT in place of EVO); the default MCT assigns arrivals only.
type MCTAll struct{}

// Allocate implements Allocator.
func (MCTAll) Allocate(a *Allocation) error {
	s := a.s
	if err := (MCT{}).Allocate(a); err != nil { // arrivals need a cluster first
		return err
	}
	js := a.Schedulable()
	if len(js) == 0 || len(s.inst.Clusters) == 1 {
		return nil
	}
	op := newEVOOp(s, EVOParams{Workers: 1}, js)
	genes, err := op.pureMCT()
	if err != nil {
		return err
	}
	for g, j := range js {
		a.Assign(j, int(genes[g]))
	}
	return nil
}

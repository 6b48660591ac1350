package simcore

// FIFO ranks by arrival time: f = a_j.
type FIFO struct{}

// Priority returns a_j.
func (FIFO) Priority(j JobView) float64 { return float64(j.Arrival) }

// SRSF is Tiresias with known durations, shortest remaining service first:
// f = g_j · rem_j.
type SRSF struct{}

// Priority returns g_j · rem_j.
func (SRSF) Priority(j JobView) float64 { return float64(j.GPUs) * float64(j.Remaining) }

// Lyra is best-fit decreasing: the larger per-worker demand first, f = −w_j.
type Lyra struct{}

// Priority returns −w_j.
func (Lyra) Priority(j JobView) float64 { return -float64(j.PerWorker) }

// SJF is shortest job first on the total duration: f = d_j.
type SJF struct{}

// Priority returns d_j.
func (SJF) Priority(j JobView) float64 { return float64(j.Duration) }

// SRTF is shortest remaining time first: f = rem_j.
type SRTF struct{}

// Priority returns rem_j.
func (SRTF) Priority(j JobView) float64 { return float64(j.Remaining) }

// WeightedWait is "largest weighted wait first": f = 0 − u_j·q_j, q_j in
// hours (the ranking of the wait-first baseline, this project's own rule,
// SPEC §5.3). Its value is bit-identical to the formula 0 − u*q compiled
// by package formula in hours, so wait-first and
// rule+formula+bestfit --priority "0-u*q" give identical schedules
// (TestWaitFirstIsTheFormulaRule in simcore/rule).
type WeightedWait struct{}

// Priority returns 0 − u_j·q_j (hours).
func (WeightedWait) Priority(j JobView) float64 {
	return 0 - float64(j.Priority)*Hours(j.Queued)
}

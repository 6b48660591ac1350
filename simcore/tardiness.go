package simcore

// Tardiness is max(0, f − deadline) in seconds for a job finishing at f, 0
// without a deadline (SPEC §13). It is the one definition that the
// objective, its lower bound (bound.go) and EVO's fitness at t share.
func Tardiness(job *Job, f int64) float64 {
	if job.Deadline <= 0 || f <= job.Deadline {
		return 0
	}
	return float64(f - job.Deadline)
}

// tardiness is Tardiness.
func tardiness(job *Job, f int64) float64 { return Tardiness(job, f) }

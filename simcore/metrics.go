package simcore

import "math"

// Metrics are the §6 measures of one finished simulation. Times are hours.
type Metrics struct {
	Jobs           int
	CQAvg          float64 // (1/|J|) Σ u_j q_j          (Eq. 2)
	CQMax          float64 // max u_j q_j                (Eq. 3)
	Util           float64 // Σ g_j d_j / (Σ_p G_p N_p · (max F − min a))  (Eq. 4)
	Objective      float64 // per Options.Objective
	AvgJCT         float64
	MaxQT          float64 // max q_j (unweighted)
	Makespan       float64 // max F − min a
	TotalTardiness float64 // Σ max(0, F − deadline) over jobs with a deadline
	DeadlineMisses int
}

// ComputeMetrics evaluates §6 over per-job results on the given clusters.
func ComputeMetrics(clusters []Cluster, jobs []JobResult, obj Objective) Metrics {
	m := Metrics{Jobs: len(jobs)}
	if len(jobs) == 0 {
		return m
	}
	var sumCQ, sumJCT, work float64
	minA, maxF := jobs[0].Arrival, jobs[0].Finish
	for _, j := range jobs {
		q := Hours(j.Queue)
		cq := float64(j.Priority) * q
		sumCQ += cq
		m.CQMax = math.Max(m.CQMax, cq)
		m.MaxQT = math.Max(m.MaxQT, q)
		sumJCT += Hours(j.JCT())
		work += float64(j.GPUs) * float64(j.Duration)
		minA = min(minA, j.Arrival)
		maxF = max(maxF, j.Finish)
		if t := Tardiness(j.Deadline, j.Finish); t > 0 {
			m.TotalTardiness += Hours(t)
			m.DeadlineMisses++
		}
	}
	n := float64(len(jobs))
	m.CQAvg = sumCQ / n
	m.AvgJCT = sumJCT / n
	m.Makespan = Hours(maxF - minA)
	capacity := 0
	for _, c := range clusters {
		capacity += c.GPUs()
	}
	if span := maxF - minA; span > 0 && capacity > 0 {
		m.Util = work / (float64(capacity) * float64(span))
	}
	m.Objective = obj.Value(m)
	return m
}

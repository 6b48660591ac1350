package simcore

import (
	"fmt"
	"math"
)

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

// ObjectiveKind selects the scalarisation.
type ObjectiveKind int

const (
	// MultiCluster is Eq. 5: ω1·cq_avg + ω2·cq_max + ω3·(1 − util).
	MultiCluster ObjectiveKind = iota
	// SingleCluster is Eq. 16: ω·avg_jct + (1−ω)·max_qt.
	SingleCluster
	// DeadlineAware is ω·avg_jct + (1−ω)·mean tardiness (hours; the
	// tardiness of a job without a deadline is 0): the trade-off of
	// deadline-aware scheduling on heterogeneous GPUs (SPEC §12), not an
	// equation of the EVO-GP paper.
	DeadlineAware
)

// ParseObjectiveKind reads "multi" (Eq. 5), "single" (Eq. 16) or
// "deadline".
func ParseObjectiveKind(s string) (ObjectiveKind, error) {
	switch s {
	case "", "multi":
		return MultiCluster, nil
	case "single":
		return SingleCluster, nil
	case "deadline":
		return DeadlineAware, nil
	}
	return 0, fmt.Errorf("unknown objective kind %q: want multi (Eq. 5), single (Eq. 16) or deadline", s)
}

// Objective is a scalar objective over Metrics (smaller is better).
type Objective struct {
	Kind    ObjectiveKind
	Weights [3]float64 // ω1, ω2, ω3 for MultiCluster
	Omega   float64    // ω for SingleCluster
}

// DefaultObjective is Eq. 5 with ω = (1, 1, 1).
func DefaultObjective() Objective {
	return Objective{Kind: MultiCluster, Weights: [3]float64{1, 1, 1}, Omega: 0.5}
}

// Value evaluates the objective on m.
func (o Objective) Value(m Metrics) float64 {
	switch o.Kind {
	case SingleCluster:
		return o.Omega*m.AvgJCT + (1-o.Omega)*m.MaxQT
	case DeadlineAware:
		mean := 0.0
		if m.Jobs > 0 {
			mean = m.TotalTardiness / float64(m.Jobs)
		}
		return o.Omega*m.AvgJCT + (1-o.Omega)*mean
	}
	return o.Weights[0]*m.CQAvg + o.Weights[1]*m.CQMax + o.Weights[2]*(1-m.Util)
}

// Validate rejects weights that are negative or not finite.
func (o Objective) Validate() error {
	for i, w := range o.Weights {
		if w < 0 || math.IsNaN(w) || math.IsInf(w, 0) {
			return fmt.Errorf("objective weight ω%d = %v: must be a finite number ≥ 0", i+1, w)
		}
	}
	if o.Kind != MultiCluster && !(o.Omega >= 0 && o.Omega <= 1) {
		return fmt.Errorf("objective omega = %v: must be in [0, 1]", o.Omega)
	}
	return nil
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
		if j.Deadline > 0 && j.Finish > j.Deadline {
			m.TotalTardiness += Hours(j.Finish - j.Deadline)
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

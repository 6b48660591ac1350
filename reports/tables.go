package reports

import (
	"errors"
	"fmt"
	"math"

	"github.com/evogp/evogp/internal/runlog"
	"github.com/evogp/evogp/internal/tablefile"
)

// ResultRow is one row of results.parquet: the outcome of one scheduler on
// one instance (and seed). Times are hours, util is a fraction in [0, 1]
// (SPEC §6). Seed is 0 when the run has no seed of its own.
type ResultRow struct {
	Instance       string  `parquet:"instance,dict"`
	Scheduler      string  `parquet:"scheduler,dict"`
	Seed           int64   `parquet:"seed"`
	Jobs           int64   `parquet:"jobs"`
	CQAvg          float64 `parquet:"cq_avg"`
	CQMax          float64 `parquet:"cq_max"`
	Util           float64 `parquet:"util"`
	Objective      float64 `parquet:"objective"`
	AvgJCT         float64 `parquet:"avg_jct"`
	MaxQT          float64 `parquet:"max_qt"`
	Makespan       float64 `parquet:"makespan"`
	TotalTardiness float64 `parquet:"total_tardiness"`
	DeadlineMisses int64   `parquet:"deadline_misses"`
}

// JobRow is one row of jobs.parquet: one job of one instance under one
// scheduler (SPEC §4.5). Times are integer seconds; Queue = Finish −
// Arrival − Duration (total time not running). Cluster is the last
// assigned cluster, UserCluster the submitting cluster s_j.
type JobRow struct {
	Instance    string `parquet:"instance,dict"`
	Scheduler   string `parquet:"scheduler,dict"`
	Job         int64  `parquet:"job"`
	Cluster     int64  `parquet:"cluster"`
	UserCluster int64  `parquet:"user_cluster"`
	Priority    int64  `parquet:"priority"`
	GPUs        int64  `parquet:"gpus"`
	Arrival     int64  `parquet:"arrival"`
	Duration    int64  `parquet:"duration"`
	Start       int64  `parquet:"start"`
	Finish      int64  `parquet:"finish"`
	Queue       int64  `parquet:"queue"`
	Preemptions int64  `parquet:"preemptions"`
	Migrations  int64  `parquet:"migrations"`
}

// GenerationRow is one row of generations.parquet, written by the GP
// learner once per generation (internal/runlog, shared with learn).
type GenerationRow = runlog.GenerationRow

// SweepRow is one row of sweep.parquet: the learned policy of one sweep
// point (e.g. one ω of the single-cluster objective, Eq. 16) trained with
// one seed and evaluated on the test set. AvgJCT and MaxQT are hours.
// Overrides records the config overrides of the point ("gp.omega=0.3").
type SweepRow struct {
	Point     string  `parquet:"point,dict"`
	Omega     float64 `parquet:"omega"`
	Seed      int64   `parquet:"seed"`
	AvgJCT    float64 `parquet:"avg_jct"`
	MaxQT     float64 `parquet:"max_qt"`
	Objective float64 `parquet:"objective"`
	Overrides string  `parquet:"overrides"`
}

// PressureRow is one row of pressure.parquet: one scheduler on one
// load-pressure instance (uniform inter-arrival interval Interval, in
// seconds) generated with one seed (paper §IV-D, Fig. 9a). Times are hours.
type PressureRow struct {
	Interval  float64 `parquet:"interval"`
	Scheduler string  `parquet:"scheduler,dict"`
	Seed      int64   `parquet:"seed"`
	Jobs      int64   `parquet:"jobs"`
	CQAvg     float64 `parquet:"cq_avg"`
	CQMax     float64 `parquet:"cq_max"`
	Util      float64 `parquet:"util"`
	Objective float64 `parquet:"objective"`
	AvgJCT    float64 `parquet:"avg_jct"`
	MaxQT     float64 `parquet:"max_qt"`
}

// utilSlack tolerates rounding above 1 in a utilisation computed as a
// ratio of float sums.
const utilSlack = 1e-9

func (r ResultRow) check() error {
	switch {
	case r.Instance == "":
		return errors.New("instance is empty")
	case r.Scheduler == "":
		return errors.New("scheduler is empty")
	case r.Jobs < 0:
		return fmt.Errorf("jobs = %d is negative", r.Jobs)
	case r.DeadlineMisses < 0:
		return fmt.Errorf("deadline_misses = %d is negative", r.DeadlineMisses)
	}
	if err := tablefile.NonNegative(
		"cq_avg", r.CQAvg, "cq_max", r.CQMax, "util", r.Util, "objective", r.Objective,
		"avg_jct", r.AvgJCT, "max_qt", r.MaxQT, "makespan", r.Makespan,
		"total_tardiness", r.TotalTardiness); err != nil {
		return err
	}
	if r.Util > 1+utilSlack {
		return fmt.Errorf("util = %v is above 1", r.Util)
	}
	return nil
}

func (r JobRow) check() error {
	switch {
	case r.Instance == "":
		return errors.New("instance is empty")
	case r.Scheduler == "":
		return errors.New("scheduler is empty")
	case r.Job < 0:
		return fmt.Errorf("job = %d is negative", r.Job)
	case r.Cluster < 0 || r.UserCluster < 0:
		return fmt.Errorf("job %d: cluster %d / user_cluster %d is negative", r.Job, r.Cluster, r.UserCluster)
	case r.GPUs < 1:
		return fmt.Errorf("job %d: gpus = %d, need ≥ 1", r.Job, r.GPUs)
	case r.Duration < 1:
		return fmt.Errorf("job %d: duration = %d, need ≥ 1 s", r.Job, r.Duration)
	case r.Arrival < 0:
		return fmt.Errorf("job %d: arrival = %d is negative", r.Job, r.Arrival)
	case r.Start < r.Arrival:
		return fmt.Errorf("job %d: start %d before arrival %d", r.Job, r.Start, r.Arrival)
	case r.Finish < r.Start+r.Duration:
		return fmt.Errorf("job %d: finish %d before start %d + duration %d", r.Job, r.Finish, r.Start, r.Duration)
	case r.Queue != r.Finish-r.Arrival-r.Duration:
		return fmt.Errorf("job %d: queue = %d, want finish − arrival − duration = %d", r.Job, r.Queue, r.Finish-r.Arrival-r.Duration)
	case r.Preemptions < 0 || r.Migrations < 0:
		return fmt.Errorf("job %d: negative preemptions/migrations", r.Job)
	}
	return nil
}

func (r SweepRow) check() error {
	if r.Point == "" {
		return errors.New("point is empty")
	}
	if err := tablefile.Finite("omega", r.Omega); err != nil {
		return err
	}
	return tablefile.NonNegative("avg_jct", r.AvgJCT, "max_qt", r.MaxQT, "objective", r.Objective)
}

func (r PressureRow) check() error {
	if r.Scheduler == "" {
		return errors.New("scheduler is empty")
	}
	if !(r.Interval > 0) || math.IsInf(r.Interval, 0) {
		return fmt.Errorf("interval = %v, need a finite value > 0", r.Interval)
	}
	if r.Jobs < 0 {
		return fmt.Errorf("jobs = %d is negative", r.Jobs)
	}
	if err := tablefile.NonNegative("cq_avg", r.CQAvg, "cq_max", r.CQMax, "util", r.Util,
		"objective", r.Objective, "avg_jct", r.AvgJCT, "max_qt", r.MaxQT); err != nil {
		return err
	}
	if r.Util > 1+utilSlack {
		return fmt.Errorf("util = %v is above 1", r.Util)
	}
	return nil
}

// row is a table row type that validates itself.
type row interface {
	ResultRow | JobRow | SweepRow | PressureRow | OpsRow
	check() error
}

// WriteResults writes rows to path atomically, as Parquet (".parquet") or
// CSV (".csv") by extension. Every row is validated first; a bad row is an
// error and nothing is written.
func WriteResults(path string, rows []ResultRow) error { return writeTable(path, rows) }

// ReadResults reads and validates a results table written by WriteResults
// (or by any tool producing the documented columns), and rejects duplicate
// (instance, seed, scheduler) keys.
func ReadResults(path string) ([]ResultRow, error) {
	rows, err := readTable[ResultRow](path)
	if err != nil {
		return nil, err
	}
	seen := make(map[resultKey]int, len(rows))
	for i, r := range rows {
		k := resultKey{r.Instance, r.Seed, r.Scheduler}
		if j, dup := seen[k]; dup {
			return nil, fmt.Errorf("%s: row %d: duplicate of row %d (instance %q, seed %d, scheduler %q)", path, i+1, j+1, r.Instance, r.Seed, r.Scheduler)
		}
		seen[k] = i
	}
	return rows, nil
}

type resultKey struct {
	instance string
	seed     int64
	sched    string
}

// WriteJobs writes per-job rows atomically (Parquet or CSV by extension).
func WriteJobs(path string, rows []JobRow) error { return writeTable(path, rows) }

// ReadJobs reads and validates a per-job table and rejects duplicate
// (instance, scheduler, job) keys.
func ReadJobs(path string) ([]JobRow, error) {
	rows, err := readTable[JobRow](path)
	if err != nil {
		return nil, err
	}
	type key struct {
		inst, sched string
		job         int64
	}
	seen := make(map[key]int, len(rows))
	for i, r := range rows {
		k := key{r.Instance, r.Scheduler, r.Job}
		if j, dup := seen[k]; dup {
			return nil, fmt.Errorf("%s: row %d: duplicate of row %d (instance %q, scheduler %q, job %d)", path, i+1, j+1, r.Instance, r.Scheduler, r.Job)
		}
		seen[k] = i
	}
	return rows, nil
}

// WriteGenerations writes a GP run's per-generation log atomically.
func WriteGenerations(path string, rows []GenerationRow) error { return runlog.Write(path, rows) }

// ReadGenerations reads and validates a per-generation log.
func ReadGenerations(path string) ([]GenerationRow, error) { return runlog.Read(path) }

// WriteSweep writes an ω (or any parameter) sweep table atomically.
func WriteSweep(path string, rows []SweepRow) error { return writeTable(path, rows) }

// ReadSweep reads and validates a sweep table.
func ReadSweep(path string) ([]SweepRow, error) { return readTable[SweepRow](path) }

// WritePressure writes a load-pressure table atomically.
func WritePressure(path string, rows []PressureRow) error { return writeTable(path, rows) }

// ReadPressure reads and validates a load-pressure table.
func ReadPressure(path string) ([]PressureRow, error) { return readTable[PressureRow](path) }

func writeTable[T row](path string, rows []T) error {
	return tablefile.Write(path, rows, func(r T) error { return r.check() })
}

func readTable[T row](path string) ([]T, error) {
	return tablefile.Read(path, func(r T) error { return r.check() })
}

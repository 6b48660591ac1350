package reports

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"
)

// resultJSON is one line of WriteResultsJSON: the SPEC §6 metrics of one
// instance (hours; util a fraction), the deadline ones always included.
type resultJSON struct {
	Instance       string  `json:"instance"`
	Scheduler      string  `json:"scheduler"`
	CQAvg          float64 `json:"cq_avg"`
	CQMax          float64 `json:"cq_max"`
	Util           float64 `json:"util"`
	Objective      float64 `json:"objective"`
	AvgJCT         float64 `json:"avg_jct"`
	MaxQT          float64 `json:"max_qt"`
	Makespan       float64 `json:"makespan"`
	TotalTardiness float64 `json:"total_tardiness"`
	DeadlineMisses int64   `json:"deadline_misses"`
}

// WriteResultsJSON prints one JSON object per row (JSON lines) with the
// instance, the scheduler and the SPEC §6 metrics, total_tardiness (hours)
// and deadline_misses included (0 on instances without deadlines).
func WriteResultsJSON(w io.Writer, rows []ResultRow) error {
	enc := json.NewEncoder(w)
	for _, r := range rows {
		if err := enc.Encode(resultJSON{r.Instance, r.Scheduler, r.CQAvg, r.CQMax, r.Util, r.Objective, r.AvgJCT, r.MaxQT, r.Makespan,
			r.TotalTardiness, r.DeadlineMisses}); err != nil {
			return err
		}
	}
	return nil
}

// WriteResultsTable prints the rows of one scheduler as a table, one line
// per instance and, for more than one, a mean line (its jobs column is the
// total). With deadlines it adds total_tardiness (hours) and
// deadline_misses.
func WriteResultsTable(w io.Writer, rows []ResultRow, deadlines bool) error {
	if len(rows) > 0 {
		fmt.Fprintf(w, "scheduler: %s\n", rows[0].Scheduler)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := "instance\tjobs\tcq_avg h\tcq_max h\tutil\tobjective\tavg_jct h\tmax_qt h\tmakespan h\t"
	if deadlines {
		head += "total_tardiness h\tdeadline_misses\t"
	}
	fmt.Fprintln(tw, head)
	var mean ResultRow
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%d\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\t%.3f\t",
			r.Instance, r.Jobs, r.CQAvg, r.CQMax, r.Util, r.Objective, r.AvgJCT, r.MaxQT, r.Makespan)
		if deadlines {
			fmt.Fprintf(tw, "%.4f\t%d\t", r.TotalTardiness, r.DeadlineMisses)
		}
		fmt.Fprintln(tw)
		mean.Jobs += r.Jobs
		mean.CQAvg += r.CQAvg
		mean.CQMax += r.CQMax
		mean.Util += r.Util
		mean.Objective += r.Objective
		mean.AvgJCT += r.AvgJCT
		mean.MaxQT += r.MaxQT
		mean.Makespan += r.Makespan
		mean.TotalTardiness += r.TotalTardiness
		mean.DeadlineMisses += r.DeadlineMisses
	}
	if n := float64(len(rows)); n > 1 {
		fmt.Fprintf(tw, "mean\t%d\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\t%.3f\t",
			mean.Jobs, mean.CQAvg/n, mean.CQMax/n, mean.Util/n, mean.Objective/n, mean.AvgJCT/n, mean.MaxQT/n, mean.Makespan/n)
		if deadlines {
			fmt.Fprintf(tw, "%.4f\t%.2f\t", mean.TotalTardiness/n, float64(mean.DeadlineMisses)/n)
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}

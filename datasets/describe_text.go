package datasets

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/evogp/evogp/internal/texttable"
)

// WriteDescribeJSON prints one summary per line as JSON (JSON lines).
func WriteDescribeJSON(w io.Writer, sums []Summary) error {
	enc := json.NewEncoder(w)
	for _, s := range sums {
		if err := enc.Encode(s); err != nil {
			return err
		}
	}
	return nil
}

// WriteDescribeTable prints the summary of the dataset in dir: a head line
// from its meta, one row per instance and a total row (ntypes job types
// listed per row), then the heterogeneity lines of WriteHeterogeneity.
func WriteDescribeTable(w io.Writer, dir string, m Meta, sums []Summary, ntypes int) error {
	head := fmt.Sprintf("dataset %s: %d instances, %d clusters, %d jobs, %s", dir, m.Instances, m.Clusters, m.Jobs, m.Format)
	if m.Split != "" {
		head += ", split " + m.Split
	}
	if m.Source != "" {
		head += ", source " + m.Source
	}
	if m.Config != "" {
		head += ", config " + m.Config
	}
	if m.Seed != nil {
		head += fmt.Sprintf(", seed %d", *m.Seed)
	}
	if _, err := fmt.Fprintln(w, head); err != nil {
		return err
	}
	rows := [][]string{{"instance", "clusters", "nodes", "GPUs", "jobs", "GPU-h", "span-h", "load", "cl-load", "top job types (workers x GPUs: share of jobs)"}}
	row := func(s Summary) []string {
		return []string{s.Instance, fmt.Sprint(s.Clusters), fmt.Sprint(s.Nodes), fmt.Sprint(s.GPUs), fmt.Sprint(s.Jobs),
			fmt.Sprintf("%.1f", s.GPUHours), fmt.Sprintf("%.1f", s.SpanH), formatLoad(s.Load), formatLoad(s.ClusterLoad), topTypes(s, ntypes)}
	}
	for _, s := range sums {
		rows = append(rows, row(s))
	}
	rows = append(rows, row(Totals(sums)))
	if err := texttable.Write(w, rows); err != nil {
		return err
	}
	return WriteHeterogeneity(w, sums)
}

// WriteHeterogeneity prints the GPU types of the summarised instances, the
// spread of the per-job speed ratio slowest/fastest type and the fraction
// of jobs with a deadline (SPEC §12). It prints nothing for homogeneous
// instances without deadlines.
func WriteHeterogeneity(w io.Writer, sums []Summary) error {
	t := Totals(sums)
	if len(t.GPUTypes) == 0 && t.Speed == nil && t.Deadlines == 0 {
		return nil
	}
	var b strings.Builder
	if len(t.GPUTypes) > 0 {
		parts := make([]string, len(t.GPUTypes))
		for i, g := range t.GPUTypes {
			parts[i] = fmt.Sprintf("%s %d", g.Type, g.GPUs)
		}
		fmt.Fprintf(&b, "GPU types (GPUs over all instances): %s\n", strings.Join(parts, ", "))
	}
	if s := t.Speed; s != nil {
		fmt.Fprintf(&b, "speed ratio slowest/fastest type per job: min %.2f, median %.2f, max %.2f (%d jobs with per-type durations)\n",
			s.Min, s.Median, s.Max, s.N)
	}
	fmt.Fprintf(&b, "jobs with a deadline: %.1f%% (%d of %d)\n", 100*t.DeadlineFraction(), t.Deadlines, t.Jobs)
	_, err := io.WriteString(w, b.String())
	return err
}

// formatLoad is a load with two decimals, or n/a when undefined.
func formatLoad(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "n/a"
	}
	return fmt.Sprintf("%.2f", x)
}

// topTypes lists the n most frequent job types with their share of jobs.
func topTypes(s Summary, n int) string {
	var parts []string
	for i, t := range s.Types {
		if i == n {
			parts = append(parts, fmt.Sprintf("+%d more", len(s.Types)-n))
			break
		}
		parts = append(parts, fmt.Sprintf("%s: %.0f%%", t, 100*float64(t.Jobs)/float64(max(s.Jobs, 1))))
	}
	return strings.Join(parts, ", ")
}

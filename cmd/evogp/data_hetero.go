package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/evogp/evogp/datasets"
)

// dataDescribeHetero prints, below the describe table, the GPU types of the
// dataset, the spread of the per-job speed ratio slowest/fastest type and
// the fraction of jobs with a deadline (SPEC §12). It prints nothing for a
// homogeneous dataset without deadlines.
func dataDescribeHetero(w io.Writer, sums []datasets.Summary) error {
	t := datasets.Totals(sums)
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

package philly

import (
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/evogp/evogp/internal/texttable"
)

// WriteCounts prints what happened to the rows of in: a head line (rows,
// kept, skipped, the input's SHA-256), one line per skip reason with its
// first line, and the durations raised to 1 s.
func (res Result) WriteCounts(w io.Writer, in string) error {
	c := res.Counts
	head := fmt.Sprintf("read %s: %d rows, %d kept as jobs, %d skipped", in, c.Rows, c.Kept, c.SkippedTotal())
	if res.SHA256 != "" {
		head += " (sha256 " + res.SHA256 + ")"
	}
	if _, err := fmt.Fprintln(w, head); err != nil {
		return err
	}
	rows := [][]string{{"skipped", "rows", "first line", "why"}}
	for r := Reason(0); r < NumReasons; r++ {
		first := "-"
		if c.FirstLine[r] > 0 {
			first = strconv.Itoa(c.FirstLine[r])
		}
		rows = append(rows, []string{r.String(), strconv.Itoa(c.Skipped[r]), first, r.Describe()})
	}
	rows = append(rows, []string{"total", strconv.Itoa(c.SkippedTotal()), "-", "all reasons"})
	if err := texttable.Write(w, rows); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "%d kept jobs had a duration below 1 s and were given 1 s\n", c.RaisedToOneSecond)
	return err
}

// WriteReport prints the outcome of an import of in written to out as
// format with gpn GPUs per node: WriteCounts, then one line per cluster
// (size, jobs, GPU-hours, load, VCs and capacity rule) and one per split
// (instances, empty spans, jobs, window and directory: out/<split>, or out
// itself without splits).
func (res Result) WriteReport(w io.Writer, in, out, format string, gpn int) error {
	if err := res.WriteCounts(w, in); err != nil {
		return err
	}
	rows := [][]string{{"cluster", "nodes", "GPUs", "jobs", "GPU-h", "load", "VC (capacity rule)"}}
	for p, c := range res.Clusters {
		nodes, gpus := strconv.Itoa(c.Nodes), strconv.Itoa(c.Nodes*gpn)
		if c.MinNodes > 0 { // sized per instance: the range over instances
			nodes, gpus = strconv.Itoa(c.MinNodes)+"–"+nodes, strconv.Itoa(c.MinNodes*gpn)+"–"+gpus
		}
		rows = append(rows, []string{strconv.Itoa(p), nodes, gpus, strconv.Itoa(c.Jobs),
			fmt.Sprintf("%.1f", c.GPUSeconds/3600), fmt.Sprintf("%.2f", c.Load), strings.Join(c.VCs, "+") + " (" + c.Rule + ")"})
	}
	if err := texttable.Write(w, rows); err != nil {
		return err
	}
	rows = [][]string{{"split", "instances", "empty spans", "jobs", "window → directory"}}
	for _, s := range res.Splits {
		name, dir := s.Name, out
		if name == "" {
			name = "(all)"
		} else {
			dir = filepath.Join(out, s.Name)
		}
		rows = append(rows, []string{name, strconv.Itoa(len(s.Dataset.Instances)), strconv.Itoa(s.EmptySpans), strconv.Itoa(s.Jobs),
			s.Window.String() + " → " + dir})
	}
	if err := texttable.Write(w, rows); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "wrote %d dataset(s) as %s to %s\n", len(res.Splits), format, out)
	return err
}

package learn

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// WriteText prints the front as a table: each member's validation
// objectives (÷ SRSF's; size in nodes), the ω interval it wins, the
// baselines it dominates and its simplified formula; then the
// hypervolume, the baselines' objectives and any warning.
func (f *Front) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "front of %d formulas (validation, objectives ÷ SRSF's; %d candidates scored: %d in the archive, %d retired from it), hypervolume %.6g (reference %s)\n",
		len(f.Members), f.Archive, f.Archive-f.Retired, f.Retired, f.Hypervolume, vec(f.Reference))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	head := []string{"member"}
	head = append(head, f.Objectives...)
	head = append(head, "ω wins", "dominates", "formula")
	fmt.Fprintln(tw, strings.Join(head, "\t"))
	for i, m := range f.Members {
		row := []string{m.Label}
		if i == f.Pick {
			row[0] += " *"
		}
		for k, v := range m.Validation {
			if f.Objectives[k] == "size" {
				row = append(row, fmt.Sprintf("%d", int(v)))
			} else {
				row = append(row, fmt.Sprintf("%.4f", v))
			}
		}
		om := "—"
		if m.OmegaLo != nil {
			om = fmt.Sprintf("%.3f–%.3f", *m.OmegaLo, *m.OmegaHi)
		}
		dom := strings.Join(m.Dominates, ",")
		if dom == "" {
			dom = "—"
		}
		row = append(row, om, dom, m.SimplifiedFormula())
		fmt.Fprintln(tw, strings.Join(row, "\t"))
	}
	for _, b := range f.Baselines {
		row := []string{b.Name}
		for k, v := range b.Validation {
			if f.Objectives[k] == "size" {
				row = append(row, "—")
			} else {
				row = append(row, fmt.Sprintf("%.4f", v))
			}
		}
		row = append(row, "", "", "(baseline)")
		fmt.Fprintln(tw, strings.Join(row, "\t"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "* the member for the config's weights %s (the run's formula; evogp export RUN --omega W picks another)\n", vec(f.Weights))
	for _, warn := range f.Warnings {
		fmt.Fprintf(w, "WARNING: %s\n", warn)
	}
	return nil
}

func vec(v []float64) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprintf("%.4g", x)
	}
	return "(" + strings.Join(s, ", ") + ")"
}

package texttable

import (
	"io"
	"strings"
	"unicode/utf8"
)

// Write prints rows (the first is usually the header) as aligned columns
// and returns the first write error. Every row has the same number of
// cells as the first; an empty rows prints nothing.
func Write(w io.Writer, rows [][]string) error {
	if len(rows) == 0 {
		return nil
	}
	width := make([]int, len(rows[0]))
	for _, r := range rows {
		for k, cell := range r {
			width[k] = max(width[k], utf8.RuneCountInString(cell))
		}
	}
	var b strings.Builder
	for _, r := range rows {
		for k, cell := range r {
			pad := strings.Repeat(" ", width[k]-utf8.RuneCountInString(cell))
			switch {
			case k == 0:
				b.WriteString(cell + pad)
			case k == len(r)-1:
				b.WriteString("  " + cell)
			default:
				b.WriteString("  " + pad + cell)
			}
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

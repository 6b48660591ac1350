package latex

import (
	"fmt"
	"strings"
)

// Line is one row of a display: LHS = RHS, both math-mode LaTeX.
type Line struct{ LHS, RHS string }

// PdivCommand is how expr's LaTeX writes protected division.
const PdivCommand = `\operatorname{pdiv}`

// pdivDefinition is the row that defines protected division in a display
// whose formulas use it, so that the block needs no comment to be read.
const pdivDefinition = `\operatorname{pdiv}(x, y) &= \begin{cases} x & \text{if } y = 0,\\ x / y & \text{otherwise} \end{cases}`

// Display returns the lines as one displayed block: an equation
// environment for a single line without protected division, else an
// align environment with one row per line, aligned at "=". When a line
// uses \operatorname{pdiv}, a last, unnumbered row defines it.
func Display(lines ...Line) string {
	usesPdiv := false
	for _, l := range lines {
		usesPdiv = usesPdiv || strings.Contains(l.RHS, PdivCommand)
	}
	if len(lines) == 1 && !usesPdiv {
		return "\\begin{equation}\n  " + lines[0].LHS + " = " + lines[0].RHS + "\n\\end{equation}\n"
	}
	var b strings.Builder
	b.WriteString("\\begin{align}\n")
	for i, l := range lines {
		fmt.Fprintf(&b, "  %s &= %s", l.LHS, l.RHS)
		if i < len(lines)-1 || usesPdiv {
			b.WriteString(` \\`)
		}
		b.WriteString("\n")
	}
	if usesPdiv {
		b.WriteString("  " + pdivDefinition + " \\nonumber\n")
	}
	b.WriteString("\\end{align}\n")
	return b.String()
}

// Standalone wraps body (displays, tables) in a document that compiles
// with pdflatex from Debian's texlive-latex-base and
// texlive-latex-recommended (article, amsmath, booktabs).
func Standalone(body string) string {
	return "\\documentclass{article}\n\\usepackage{amsmath}\n\\usepackage{booktabs}\n\\begin{document}\n" +
		body + "\\end{document}\n"
}

// Column is one column of a Table: its header (text mode) and its
// alignment, "l", "r" or "c".
type Column struct {
	Header, Align string
}

// Table is a booktabs table. Cells are LaTeX as they are (text mode; put
// math in $…$). Caption, if set, makes it a table float with a caption.
type Table struct {
	Columns []Column
	Rows    [][]string
	Caption string
}

// String lays the table out with \toprule, \midrule and \bottomrule; a
// row with the wrong number of cells is a programming error and panics.
func (t Table) String() string {
	var b strings.Builder
	if t.Caption != "" {
		b.WriteString("\\begin{table}\n  \\centering\n  \\caption{" + t.Caption + "}\n")
	}
	spec, head := "", make([]string, len(t.Columns))
	for i, c := range t.Columns {
		spec += c.Align
		head[i] = c.Header
	}
	b.WriteString("\\begin{tabular}{" + spec + "}\n  \\toprule\n  " + strings.Join(head, " & ") + ` \\` + "\n  \\midrule\n")
	for _, r := range t.Rows {
		if len(r) != len(t.Columns) {
			panic(fmt.Sprintf("latex: row of %d cells in a table of %d columns", len(r), len(t.Columns)))
		}
		b.WriteString("  " + strings.Join(r, " & ") + ` \\` + "\n")
	}
	b.WriteString("  \\bottomrule\n\\end{tabular}\n")
	if t.Caption != "" {
		b.WriteString("\\end{table}\n")
	}
	return b.String()
}

// EscapeText escapes the characters LaTeX treats specially in text mode.
func EscapeText(s string) string {
	r := strings.NewReplacer(`\`, `\textbackslash{}`, "&", `\&`, "%", `\%`, "$", `\$`, "#", `\#`, "_", `\_`,
		"{", `\{`, "}", `\}`, "~", `\textasciitilde{}`, "^", `\textasciicircum{}`)
	return r.Replace(s)
}

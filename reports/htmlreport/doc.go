// Package htmlreport writes a run's report as one self-contained HTML file
// (SPEC §18): summary tables that sort when a header is clicked, figures
// inline as SVG (with <title> tooltips and optional links on marks),
// formulas as infix and LaTeX with a copy button, provenance, warnings and
// collapsible per-instance or per-point sections. The file makes no
// network request: its one style sheet and its one small script are
// inline and written here (plain DOM, no framework), and everything reads
// without JavaScript (tables unsorted, details opened by hand).
//
// A report is a list of Sections of Blocks (Paragraph, Table, Figure,
// Formula, Pre, KeyValues, Details, LinkList). Callers build the sections
// from their own data; a new kind of result (for example a Pareto front,
// whose scatter links each point to its formula's section through
// Figure.Marks) adds a Section without changing this package.
//
// It imports nothing of evogp: it knows HTML, not schedulers. Callers in
// experiment turn an output directory into a Report.
package htmlreport

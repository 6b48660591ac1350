package htmlreport

import (
	"bytes"
	"fmt"
	"html"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// Report is one HTML report.
type Report struct {
	Title    string
	Subtitle string // what and where, e.g. "eval of 10 instances in out/eval"
	Headline string // the summary sentence a reader can trust
	Warnings []string
	Sections []Section
}

// Section is a top-level part of the report with an anchor (ID) listed in
// the table of contents. A Collapsible section is a <details> element,
// open when Open is set.
type Section struct {
	ID          string
	Title       string
	Collapsible bool
	Open        bool
	Blocks      []Block
}

// Block is one element of a section. The kinds are this package's types.
type Block interface {
	write(w *writer)
}

// Paragraph is a paragraph of plain text.
type Paragraph struct{ Text string }

// Column is a table column. Numeric columns sort by Cell.Value (NaN last)
// and are right-aligned; others sort by text.
type Column struct {
	Name    string
	Title   string // tooltip of the header (e.g. the unit or definition)
	Numeric bool
}

// Cell is a table cell: its text, its sort value in a numeric column, and
// an optional link (an anchor "#id" within the report).
type Cell struct {
	Text  string
	Value float64
	Href  string
}

// Num returns a numeric cell showing v with format (fmt verb, e.g. "%.4g").
func Num(format string, v float64) Cell {
	if math.IsNaN(v) {
		return Cell{Text: "–", Value: v}
	}
	return Cell{Text: fmt.Sprintf(format, v), Value: v}
}

// Str returns a text cell.
func Str(s string) Cell { return Cell{Text: s, Value: math.NaN()} }

// Table is a table that sorts by a column when its header is clicked.
type Table struct {
	ID      string
	Caption string
	Columns []Column
	Rows    [][]Cell
}

// Mark is a rectangle over an inline figure, in the SVG's user units
// (points, origin top left), with a tooltip and an optional link: the
// tooltip of a bar or a point, or a front point linking to its formula.
type Mark struct {
	X, Y, W, H float64
	Title      string
	Href       string
}

// Figure is an inline SVG figure, as rendered for its file (Name.svg).
type Figure struct {
	Name    string // file stem, also the anchor "fig-Name"
	Caption string
	SVG     []byte
	Marks   []Mark
}

// Formula is a formula as infix and LaTeX source, each with a copy button.
type Formula struct {
	ID    string // anchor; also the prefix of the copy targets
	Label string
	Infix string
	LaTeX string
	Note  string
}

// Pre is preformatted text (a config, a JSON manifest) under a heading.
type Pre struct {
	Title string
	Text  string
}

// KeyValues is a two-column list of facts.
type KeyValues struct {
	Pairs [][2]string
}

// Link is a link to an anchor of the report.
type Link struct {
	Text, Href string
}

// LinkList is a list of links.
type LinkList struct {
	Links []Link
}

// Details is a collapsible block (a drill-down): closed unless Open.
type Details struct {
	ID      string
	Summary string
	Open    bool
	Blocks  []Block
}

// writer accumulates the HTML.
type writer struct {
	b bytes.Buffer
}

func (w *writer) s(s string)                { w.b.WriteString(s) }
func (w *writer) esc(s string)              { w.b.WriteString(html.EscapeString(s)) }
func (w *writer) f(format string, a ...any) { fmt.Fprintf(&w.b, format, a...) }
func attr(s string) string                  { return html.EscapeString(s) }

func (p Paragraph) write(w *writer) {
	w.s("<p>")
	w.esc(p.Text)
	w.s("</p>\n")
}

func (t Table) write(w *writer) {
	w.s(`<div class="scroll"><table class="sortable"`)
	if t.ID != "" {
		w.f(` id="%s"`, attr(t.ID))
	}
	w.s(">")
	if t.Caption != "" {
		w.s("<caption>")
		w.esc(t.Caption)
		w.s("</caption>")
	}
	w.s("\n<thead><tr>")
	for _, c := range t.Columns {
		w.s("<th")
		if c.Numeric {
			w.s(` class="num" data-num=""`)
		}
		if c.Title != "" {
			w.f(` title="%s"`, attr(c.Title))
		}
		w.s(">")
		w.esc(c.Name)
		w.s("</th>")
	}
	w.s("</tr></thead>\n<tbody>\n")
	for _, row := range t.Rows {
		w.s("<tr>")
		for i, c := range row {
			numeric := i < len(t.Columns) && t.Columns[i].Numeric
			w.s("<td")
			if numeric {
				w.s(` class="num"`)
				if !math.IsNaN(c.Value) && !math.IsInf(c.Value, 0) {
					w.f(` data-v="%s"`, strconv.FormatFloat(c.Value, 'g', -1, 64))
				}
			}
			w.s(">")
			if c.Href != "" {
				w.f(`<a href="%s">`, attr(c.Href))
			}
			w.esc(c.Text)
			if c.Href != "" {
				w.s("</a>")
			}
			w.s("</td>")
		}
		w.s("</tr>\n")
	}
	w.s("</tbody></table></div>\n")
}

// svgProlog matches what precedes the <svg element of a rendered file
// (XML declaration, comments); svgNS matches namespace declarations, which
// an SVG inside HTML does not need.
var (
	svgProlog = regexp.MustCompile(`(?s)\A.*?(<svg\b)`)
	svgNS     = regexp.MustCompile(`\s+xmlns(:\w+)?="[^"]*"`)
	svgOpen   = regexp.MustCompile(`(?s)<svg\b[^>]*>`)
)

// InlineSVG turns a standalone SVG file into an element for an HTML page:
// no prolog, no namespace declarations, a role, a <title> (the tooltip of
// the whole figure) and the marks as transparent rectangles with their own
// titles (and links) on top.
func InlineSVG(svg []byte, title string, marks []Mark) []byte {
	s := string(svg)
	s = svgProlog.ReplaceAllString(s, "$1")
	open := svgOpen.FindStringIndex(s)
	if open == nil {
		return []byte(html.EscapeString(s))
	}
	tag := svgNS.ReplaceAllString(s[:open[1]], "")
	tag = strings.TrimSuffix(tag, ">") + ` role="img">`
	var b strings.Builder
	b.WriteString(tag)
	b.WriteString("<title>")
	b.WriteString(html.EscapeString(title))
	b.WriteString("</title>")
	rest := s[open[1]:]
	end := strings.LastIndex(rest, "</svg>")
	if end < 0 {
		end = len(rest)
	}
	b.WriteString(rest[:end])
	if len(marks) > 0 {
		b.WriteString(`<g class="marks">`)
		for _, m := range marks {
			if m.Href != "" {
				fmt.Fprintf(&b, `<a href="%s">`, attr(m.Href))
			}
			fmt.Fprintf(&b, `<rect x="%.2f" y="%.2f" width="%.2f" height="%.2f"><title>%s</title></rect>`,
				m.X, m.Y, max(m.W, 1), max(m.H, 1), html.EscapeString(m.Title))
			if m.Href != "" {
				b.WriteString("</a>")
			}
		}
		b.WriteString("</g>")
	}
	b.WriteString("</svg>")
	return []byte(b.String())
}

func (f Figure) write(w *writer) {
	w.f(`<figure id="fig-%s">`, attr(f.Name))
	title := f.Caption
	if title == "" {
		title = f.Name
	}
	w.b.Write(InlineSVG(f.SVG, title, f.Marks))
	w.s("<figcaption>")
	if f.Caption != "" {
		w.esc(f.Caption)
		w.s(" — ")
	}
	w.s("<code>")
	w.esc(f.Name)
	w.s("</code></figcaption></figure>\n")
}

func (f Formula) write(w *writer) {
	w.f(`<div class="formula" id="%s">`, attr(f.ID))
	if f.Label != "" {
		w.s("<h4>")
		w.esc(f.Label)
		w.s("</h4>")
	}
	for _, part := range []struct{ kind, text string }{{"infix", f.Infix}, {"LaTeX", f.LaTeX}} {
		if part.text == "" {
			continue
		}
		id := f.ID + "-" + strings.ToLower(part.kind)
		w.s(`<div class="code"><span class="kind">`)
		w.esc(part.kind)
		w.f(`</span><code id="%s">`, attr(id))
		w.esc(part.text)
		w.f(`</code><button type="button" class="copy" data-target="%s" title="copy the %s source">copy</button></div>`, attr(id), attr(part.kind))
	}
	if f.Note != "" {
		w.s(`<p class="note">`)
		w.esc(f.Note)
		w.s("</p>")
	}
	w.s("</div>\n")
}

func (p Pre) write(w *writer) {
	if p.Title != "" {
		w.s("<h4>")
		w.esc(p.Title)
		w.s("</h4>")
	}
	w.s("<pre>")
	w.esc(p.Text)
	w.s("</pre>\n")
}

func (kv KeyValues) write(w *writer) {
	w.s("<dl>")
	for _, p := range kv.Pairs {
		w.s("<dt>")
		w.esc(p[0])
		w.s("</dt><dd>")
		w.esc(p[1])
		w.s("</dd>")
	}
	w.s("</dl>\n")
}

func (l LinkList) write(w *writer) {
	w.s(`<ul class="links">`)
	for _, k := range l.Links {
		w.f(`<li><a href="%s">`, attr(k.Href))
		w.esc(k.Text)
		w.s("</a></li>")
	}
	w.s("</ul>\n")
}

func (d Details) write(w *writer) {
	w.s("<details")
	if d.ID != "" {
		w.f(` id="%s"`, attr(d.ID))
	}
	if d.Open {
		w.s(" open")
	}
	w.s("><summary>")
	w.esc(d.Summary)
	w.s("</summary>\n")
	for _, b := range d.Blocks {
		b.write(w)
	}
	w.s("</details>\n")
}

// Write writes the report as one HTML document.
func (r Report) Write(out io.Writer) error {
	_, err := out.Write(r.Bytes())
	return err
}

// Bytes returns the report as one HTML document.
func (r Report) Bytes() []byte {
	var w writer
	w.s("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
	w.s(`<meta name="viewport" content="width=device-width, initial-scale=1">` + "\n")
	w.s("<title>")
	w.esc(r.Title)
	w.s("</title>\n<style>\n")
	w.s(styleSheet)
	w.s("</style>\n</head>\n<body>\n<header>\n<h1>")
	w.esc(r.Title)
	w.s("</h1>\n")
	if r.Subtitle != "" {
		w.s(`<p class="sub">`)
		w.esc(r.Subtitle)
		w.s("</p>\n")
	}
	if r.Headline != "" {
		// One line of the headline per sentence group: a learn run's
		// validation, test and test-statistics lines.
		w.s(`<p class="headline">`)
		for i, line := range strings.Split(r.Headline, "\n") {
			if i > 0 {
				w.s("<br>")
			}
			w.esc(line)
		}
		w.s("</p>\n")
	}
	if len(r.Warnings) > 0 {
		w.s(`<div class="warnings" id="warnings"><strong>Warnings the run printed</strong><ul>`)
		for _, m := range r.Warnings {
			w.s("<li>")
			w.esc(m)
			w.s("</li>")
		}
		w.s("</ul></div>\n")
	}
	w.s("<nav><ul>")
	for _, s := range r.Sections {
		w.f(`<li><a href="#%s">`, attr(s.ID))
		w.esc(s.Title)
		w.s("</a></li>")
	}
	w.s("</ul></nav>\n</header>\n<main>\n")
	for _, s := range r.Sections {
		if s.Collapsible {
			w.f(`<section><details id="%s"`, attr(s.ID))
			if s.Open {
				w.s(" open")
			}
			w.s("><summary><h2>")
			w.esc(s.Title)
			w.s("</h2></summary>\n")
		} else {
			w.f(`<section id="%s"><h2>`, attr(s.ID))
			w.esc(s.Title)
			w.s("</h2>\n")
		}
		for _, b := range s.Blocks {
			b.write(&w)
		}
		if s.Collapsible {
			w.s("</details>")
		}
		w.s("</section>\n")
	}
	w.s("</main>\n<script>\n")
	w.s(script)
	w.s("</script>\n</body>\n</html>\n")
	return w.b.Bytes()
}

// Anchor turns s into an id usable as an anchor: letters, digits, '-',
// '_' and '.' are kept, anything else becomes '_'.
func Anchor(prefix, s string) string {
	var b strings.Builder
	b.WriteString(prefix)
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	return b.String()
}

package latex

import (
	"fmt"
	"slices"
	"strings"
)

// knownCommands are the control words evogp's LaTeX may contain: layout
// (this package) and the math expr writes. Anything else is reported, so
// that a misspelt command fails a test rather than a reader's build.
var knownCommands = []string{
	"documentclass", "usepackage", "begin", "end", "centering", "caption", "label",
	"toprule", "midrule", "bottomrule", "nonumber", "text", "textbackslash", "textasciitilde", "textasciicircum",
	"operatorname", "frac", "left", "right", "cdot", "times", "min", "max", "log", "exp", "sqrt", "mathrm", "mathit",
	"le", "ge", "leq", "geq", "neq", "equiv", "approx", "pm", "quad", "qquad", "ldots", "cdots", "dots",
	"omega", "alpha", "beta", "gamma", "lambda", "mu", "sigma", "tau", "infty", "mid",
}

// environments are the environments Check accepts, with whether they
// take a column specification argument.
var environments = map[string]bool{"document": false, "equation": false, "align": false, "cases": false, "table": false, "tabular": true}

// Check parses doc as LaTeX of the kind this package writes and returns
// the first structural error: a comment line, an unknown control word,
// unbalanced braces or $, a \begin without its \end (or the reverse), a
// table row whose cell count differs from its column specification, an
// align row with more than one alignment point, or, in a standalone
// document, a missing \begin{document} or a package it needs but does not
// load. It is no TeX engine: it proves that the output is well formed,
// and CI compiles it with pdflatex besides where texlive is installed.
func Check(doc string) error {
	for i, line := range strings.Split(doc, "\n") {
		if t := strings.TrimSpace(line); strings.HasPrefix(t, "%") || strings.HasPrefix(t, "#") {
			return fmt.Errorf("line %d: a comment line %q", i+1, t)
		}
	}
	type env struct {
		name      string
		cols, amp int // columns of a tabular; & seen in the current row
		line      int
	}
	var stack []env
	depth, line, dollars := 0, 1, 0
	used := map[string]bool{}
	readArg := func(s string, i int) (string, int, error) { // {…} at s[i:]
		if i >= len(s) || s[i] != '{' {
			return "", i, fmt.Errorf("line %d: expected {", line)
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			return "", i, fmt.Errorf("line %d: unclosed {", line)
		}
		return s[i+1 : i+j], i + j + 1, nil
	}
	for i := 0; i < len(doc); {
		c := doc[i]
		switch {
		case c == '\n':
			line++
			i++
		case c == '%':
			return fmt.Errorf("line %d: an unescaped %% starts a comment", line)
		case c == '$':
			dollars++
			i++
		case c == '{':
			depth++
			i++
		case c == '}':
			if depth--; depth < 0 {
				return fmt.Errorf("line %d: } without {", line)
			}
			i++
		case c == '&':
			if len(stack) == 0 {
				return fmt.Errorf("line %d: & outside a table or alignment", line)
			}
			stack[len(stack)-1].amp++
			top := stack[len(stack)-1]
			if top.name == "align" && top.amp > 1 {
				return fmt.Errorf("line %d: align row with more than one &", line)
			}
			i++
		case c == '\\':
			if i+1 >= len(doc) {
				return fmt.Errorf("line %d: a lone backslash at the end", line)
			}
			n := doc[i+1]
			if n == '\\' { // end of a row
				if len(stack) > 0 {
					top := &stack[len(stack)-1]
					if top.name == "tabular" && top.amp != top.cols-1 {
						return fmt.Errorf("line %d: table row of %d cells, want %d", line, top.amp+1, top.cols)
					}
					top.amp = 0
				}
				i += 2
				continue
			}
			if !isLetter(n) { // a control symbol: \, \{ \} \& \% \$ \# \_ \;
				if !strings.ContainsRune(`,{}&%$#_; !|`, rune(n)) {
					return fmt.Errorf("line %d: unknown control symbol \\%c", line, n)
				}
				i += 2
				continue
			}
			j := i + 1
			for j < len(doc) && isLetter(doc[j]) {
				j++
			}
			word := doc[i+1 : j]
			if !slices.Contains(knownCommands, word) {
				return fmt.Errorf("line %d: unknown command \\%s", line, word)
			}
			used[word] = true
			i = j
			switch word {
			case "begin":
				name, k, err := readArg(doc, i)
				if err != nil {
					return err
				}
				takesSpec, ok := environments[name]
				if !ok {
					return fmt.Errorf("line %d: unknown environment %q", line, name)
				}
				used["env:"+name] = true
				e := env{name: name, line: line}
				if takesSpec {
					spec, k2, err := readArg(doc, k)
					if err != nil {
						return err
					}
					for _, r := range spec {
						if !strings.ContainsRune("lrc", r) {
							return fmt.Errorf("line %d: column spec %q: want l, r and c only", line, spec)
						}
					}
					e.cols, k = len(spec), k2
				}
				stack = append(stack, e)
				i = k
			case "end":
				name, k, err := readArg(doc, i)
				if err != nil {
					return err
				}
				if len(stack) == 0 || stack[len(stack)-1].name != name {
					return fmt.Errorf("line %d: \\end{%s} does not close the open environment", line, name)
				}
				top := stack[len(stack)-1]
				if top.name == "tabular" && top.amp != 0 {
					return fmt.Errorf("line %d: unfinished table row", line)
				}
				stack = stack[:len(stack)-1]
				i = k
			}
		default:
			i++
		}
	}
	if depth != 0 {
		return fmt.Errorf("%d unclosed {", depth)
	}
	if len(stack) > 0 {
		return fmt.Errorf("line %d: \\begin{%s} is never closed", stack[len(stack)-1].line, stack[len(stack)-1].name)
	}
	if dollars%2 != 0 {
		return fmt.Errorf("unbalanced $")
	}
	if used["documentclass"] {
		if !used["env:document"] {
			return fmt.Errorf("a \\documentclass without \\begin{document}")
		}
		pkg := func(name string) bool { return strings.Contains(doc, `\usepackage{`+name+`}`) }
		if (used["toprule"] || used["midrule"] || used["bottomrule"]) && !pkg("booktabs") {
			return fmt.Errorf("booktabs rules without \\usepackage{booktabs}")
		}
		if (used["env:align"] || used["env:cases"] || used["operatorname"] || used["text"]) && !pkg("amsmath") {
			return fmt.Errorf("amsmath commands without \\usepackage{amsmath}")
		}
	}
	return nil
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evogp/evogp/expr"
)

func TestExportFormats(t *testing.T) {
	const infix = "(g + 0*q) * d % u"
	run := writeBest(t, `{"infix": "`+infix+`", "size": 9}`)
	tree := expr.MustParse(infix)
	for _, format := range expr.Formats() {
		want, err := expr.Format(tree, format)
		if err != nil {
			t.Fatal(err)
		}
		for _, src := range []string{run, filepath.Join(run, "best.json")} {
			out, _, err := runApp(t, "export", src, "--format", format)
			if err != nil {
				t.Fatalf("%s %s: %v", src, format, err)
			}
			if strings.TrimSuffix(out, "\n") != strings.TrimSuffix(want, "\n") {
				t.Fatalf("%s: got %q, want %q", format, out, want)
			}
		}
	}
	// --simplify prints the simplified tree; --out writes a file.
	want, _ := expr.Format(expr.Simplify(tree), "latex")
	path := filepath.Join(t.TempDir(), "f.tex")
	if _, _, err := runApp(t, "export", run, "--format", "latex", "--simplify", "--out", path); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.TrimSuffix(string(b), "\n") != strings.TrimSuffix(want, "\n") {
		t.Fatalf("simplified latex %q, want %q", b, want)
	}
}

func TestExportBadInput(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.txt")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{writeBest(t, `{"infix": `)}, "not valid JSON"},
		{[]string{writeBest(t, `{"simplified": "d"}`)}, `no "infix"`},
		{[]string{writeBest(t, `{"infix": "d +"}`)}, "column"},
		{[]string{writeBest(t, `{"infix": "d"}`), "--format", "yaml"}, "yaml"},
		{[]string{filepath.Join(dir, "absent")}, "absent"},
		{[]string{}, "give one"},
	} {
		_, _, err := runApp(t, append([]string{"export", "--out", out}, c.args...)...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: err = %v, want %q", c.args, err, c.want)
		}
		assertAbsent(t, out)
	}
	help, _, err := runApp(t, "export", "--help")
	if err != nil || !strings.Contains(help, "Examples:") {
		t.Fatalf("help: %v", err)
	}
}

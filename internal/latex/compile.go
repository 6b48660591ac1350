package latex

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// Compile runs pdflatex on the standalone document doc in a temporary
// directory and returns its log on failure. ok is false, with no error,
// when pdflatex is not installed (Debian: texlive-latex-base and
// texlive-latex-recommended, which .ci/run installs).
func Compile(ctx context.Context, doc string) (ok bool, err error) {
	bin, lerr := exec.LookPath("pdflatex")
	if lerr != nil {
		return false, nil
	}
	dir, err := os.MkdirTemp("", "evogp-latex-")
	if err != nil {
		return true, err
	}
	defer os.RemoveAll(dir)
	if err := os.WriteFile(filepath.Join(dir, "doc.tex"), []byte(doc), 0o644); err != nil {
		return true, err
	}
	cmd := exec.CommandContext(ctx, bin, "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape", "doc.tex")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		return true, fmt.Errorf("pdflatex: %w\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "doc.pdf")); err != nil {
		return true, fmt.Errorf("pdflatex wrote no PDF:\n%s", out)
	}
	return true, nil
}

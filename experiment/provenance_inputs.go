package experiment

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/evogp/evogp/runfile"
)

// InputHash is one input of a run and its content hash (runfile.InputHash).
type InputHash = runfile.InputHash

// WithInputs returns p with the content hash of every non-empty path
// (HashInput) appended to its inputs.
func WithInputs(p Provenance, paths ...string) (Provenance, error) {
	p.Inputs = append([]InputHash(nil), p.Inputs...)
	for _, path := range paths {
		if path == "" {
			continue
		}
		h, err := HashInput(path)
		if err != nil {
			return p, err
		}
		p.Inputs = append(p.Inputs, h)
	}
	return p, nil
}

// HashInput hashes the file or directory tree at path as InputHash says.
func HashInput(path string) (InputHash, error) {
	h := sha256.New()
	err := filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() {
			return nil
		}
		rel, err := filepath.Rel(path, p)
		if err != nil {
			return err
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		st, err := f.Stat()
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s\x00%d\x00", filepath.ToSlash(rel), st.Size())
		_, err = io.Copy(h, f)
		return err
	})
	if err != nil {
		return InputHash{}, fmt.Errorf("provenance: hash %s: %w", path, err)
	}
	return InputHash{Path: path, SHA256: hex.EncodeToString(h.Sum(nil))}, nil
}

// cpuInfoFile is where Linux describes the processors.
const cpuInfoFile = "/proc/cpuinfo"

// cpuModel returns the first "model name" (x86) or "Model"/"Hardware"
// (ARM) of a /proc/cpuinfo-format file, "" when it is absent or has none.
func cpuModel(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	fallback := ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		key, val, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		key, val = strings.TrimSpace(key), strings.TrimSpace(val)
		switch key {
		case "model name":
			return val
		case "Model", "Hardware":
			if fallback == "" {
				fallback = val
			}
		}
	}
	return fallback
}

// gitRevision returns the commit checked out in dir ("" = the working
// directory) and whether its tracked files have uncommitted changes; ok
// is false without git, outside a checkout, or in a checkout of another
// module than module (its top-level go.mod must declare it), so that a
// run started inside a paper's repository does not record that one.
func gitRevision(dir, module string) (rev string, dirty, ok bool) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	run := func(args ...string) (string, error) {
		cmd := exec.CommandContext(ctx, "git", args...)
		cmd.Dir = dir
		out, err := cmd.Output()
		return strings.TrimSpace(string(out)), err
	}
	out, err := run("rev-parse", "--show-toplevel", "HEAD")
	top, rev, found := strings.Cut(out, "\n")
	if err != nil || !found || rev == "" {
		return "", false, false
	}
	if module == "" || goModModule(filepath.Join(top, "go.mod")) != module {
		return "", false, false
	}
	status, err := run("status", "--porcelain", "--untracked-files=no")
	if err != nil {
		return rev, false, true
	}
	return rev, status != "", true
}

// goModModule is the module path a go.mod declares, "" when unreadable.
func goModModule(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(b), "\n") {
		if m, ok := strings.CutPrefix(strings.TrimSpace(line), "module "); ok {
			return strings.Trim(strings.TrimSpace(m), `"`)
		}
	}
	return ""
}

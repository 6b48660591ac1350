// Package atomicio writes files and directories so that a reader never sees
// a half-written result: content goes to a temporary sibling and is renamed
// into place only when complete. It imports no other evogp package.
package atomicio

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// WriteFile creates path atomically with the bytes that write produces.
// On any error nothing is left at path (an existing file is kept intact).
func WriteFile(path string, write func(w io.Writer) error) (err error) {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	bw := bufio.NewWriterSize(tmp, 1<<16)
	if err = write(bw); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = bw.Flush(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = tmp.Chmod(0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// WriteBytes creates path atomically with data.
func WriteBytes(path string, data []byte) error {
	return WriteFile(path, func(w io.Writer) error { _, err := w.Write(data); return err })
}

// Dir builds a directory atomically: fill is called with a temporary sibling
// directory; when it succeeds the directory is renamed to path. path must not
// exist yet (or be an empty directory). On error the temporary directory is
// removed and nothing appears at path.
func Dir(path string, fill func(tmpDir string) error) (err error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("create %s: %w", path, err)
	}
	if entries, statErr := os.ReadDir(path); statErr == nil {
		if len(entries) > 0 {
			return fmt.Errorf("create %s: directory exists and is not empty", path)
		}
		if err := os.Remove(path); err != nil {
			return fmt.Errorf("create %s: %w", path, err)
		}
	}
	tmp, err := os.MkdirTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("create %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			os.RemoveAll(tmp)
		}
	}()
	if err = fill(tmp); err != nil {
		return err
	}
	if err = os.Chmod(tmp, 0o755); err != nil {
		return fmt.Errorf("create %s: %w", path, err)
	}
	if err = os.Rename(tmp, path); err != nil {
		return fmt.Errorf("create %s: %w", path, err)
	}
	return nil
}

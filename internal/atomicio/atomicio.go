package atomicio

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
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

// Dir builds a new directory atomically: WriteDir with no options. path
// must not exist yet (or be an empty directory).
func Dir(path string, fill func(tmpDir string) error) error {
	return WriteDir(path, DirOptions{}, fill)
}

// DirOptions adjust WriteDir.
type DirOptions struct {
	// Replace, when set, is asked whether an existing non-empty directory
	// at path may be replaced; it returns nil to allow it or the reason to
	// refuse. Without it a non-empty directory at path is an error.
	Replace func(path string) error
	// KeepOn, when set, is asked about fill's error: if it returns true
	// the partial directory is still put at path (for example a learning
	// run stopped by Ctrl-C, whose checkpoint must survive) and fill's
	// error is returned.
	KeepOn func(err error) bool
}

// WriteDir is the one routine that builds directories atomically. fill is
// called with a fresh temporary sibling of path (".BASE.tmp-*", mode 0755);
// when fill succeeds the directory is renamed to path. An existing empty
// directory at path is replaced; a non-empty one only if o.Replace allows
// it, in which case the old directory is moved aside, the new one renamed
// into place, and the old one removed, so at every instant path is either
// the complete old or the complete new directory. On error the temporary
// directory is removed, path is unchanged, and a parent directory that
// WriteDir created is removed again if it is empty.
func WriteDir(path string, o DirOptions, fill func(tmpDir string) error) (err error) {
	parent, base := filepath.Dir(path), filepath.Base(path)
	_, parentErr := os.Stat(parent)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return fmt.Errorf("create %s: %w", path, err)
	}
	defer func() {
		if err != nil && parentErr != nil {
			os.Remove(parent) // created here; removed only if empty
		}
	}()
	if err := checkTarget(path, o); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(parent, "."+base+".tmp-*")
	if err != nil {
		return fmt.Errorf("create %s: %w", path, err)
	}
	published := false
	defer func() {
		if !published {
			os.RemoveAll(tmp)
		}
	}()
	if err := os.Chmod(tmp, 0o755); err != nil {
		return fmt.Errorf("create %s: %w", path, err)
	}
	if ferr := fill(tmp); ferr != nil {
		if o.KeepOn == nil || !o.KeepOn(ferr) {
			return ferr
		}
		if perr := publish(tmp, path, o); perr != nil {
			return fmt.Errorf("%w; moving the partial directory into place failed, it stays in %s: %w", ferr, tmp, perr)
		}
		published = true
		return ferr
	}
	if err := publish(tmp, path, o); err != nil {
		return err
	}
	published = true
	return nil
}

// checkTarget says whether path may receive a new directory.
func checkTarget(path string, o DirOptions) error {
	entries, err := os.ReadDir(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("create %s: %w", path, err)
	}
	if len(entries) == 0 {
		return nil
	}
	if o.Replace == nil {
		return fmt.Errorf("create %s: directory exists and is not empty", path)
	}
	return o.Replace(path)
}

// publish renames the finished tmp to path (see WriteDir).
func publish(tmp, path string, o DirOptions) error {
	if err := checkTarget(path, o); err != nil {
		return err
	}
	entries, err := os.ReadDir(path)
	if errors.Is(err, fs.ErrNotExist) {
		if err := os.Rename(tmp, path); err != nil {
			return fmt.Errorf("create %s: %w", path, err)
		}
		return nil
	}
	if err != nil {
		return fmt.Errorf("create %s: %w", path, err)
	}
	if len(entries) == 0 {
		if err := os.Remove(path); err != nil {
			return fmt.Errorf("create %s: %w", path, err)
		}
		if err := os.Rename(tmp, path); err != nil {
			return fmt.Errorf("create %s: %w", path, err)
		}
		return nil
	}
	// Replace: move the old directory aside, put the new one in place,
	// then remove the old one.
	old, err := os.MkdirTemp(filepath.Dir(path), "."+filepath.Base(path)+".old-*")
	if err == nil {
		err = os.Remove(old)
	}
	if err == nil {
		err = os.Rename(path, old)
	}
	if err != nil {
		return fmt.Errorf("replace %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Rename(old, path)
		return fmt.Errorf("replace %s: %w", path, err)
	}
	if err := os.RemoveAll(old); err != nil {
		return fmt.Errorf("%s written, but the previous one is left at %s: %w", path, old, err)
	}
	return nil
}

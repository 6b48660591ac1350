package experiment

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/evogp/evogp/internal/atomicio"
	"github.com/evogp/evogp/runfile"
)

// MarkerFile marks an output directory written by evogp eval or pressure;
// it holds the run's manifest (runfile.EvalManifest or PressureManifest).
const MarkerFile = runfile.ManifestFile

// CheckOutDir says whether out may receive a new eval or pressure
// directory: it may if it does not exist or is empty. An existing evogp
// output directory (holding MarkerFile) may be replaced only with force;
// any other non-empty directory never.
func CheckOutDir(out string, force bool) error {
	entries, err := os.ReadDir(out)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("output %s: %w", out, err)
	}
	if len(entries) == 0 {
		return nil
	}
	if _, err := os.Stat(filepath.Join(out, MarkerFile)); err != nil {
		return fmt.Errorf("output %s exists, is not empty and has no %s (not written by evogp); refusing to replace it", out, MarkerFile)
	}
	if !force {
		return fmt.Errorf("output %s holds an earlier evogp result; give --force to replace it, or choose another --out", out)
	}
	return nil
}

// writeOutDir builds out with fill in a temporary sibling and puts it in
// place atomically (atomicio.WriteDir); an earlier evogp directory is
// replaced only with force (see CheckOutDir). On error nothing changes at
// out.
func writeOutDir(out string, force bool, fill func(tmp string) error) error {
	return atomicio.WriteDir(out, atomicio.DirOptions{Replace: func(p string) error { return CheckOutDir(p, force) }}, fill)
}

// LatestLink is the name of the symbolic link, beside run directories,
// to the newest of them (runs/latest).
const LatestLink = "latest"

// LinkLatest points the LatestLink beside dir (in dir's parent) at dir,
// replacing an earlier link atomically (a temporary link renamed over
// it). The link is relative, so the runs directory may be moved. An
// existing LatestLink that is not a symbolic link is left alone and is an
// error.
func LinkLatest(dir string) error {
	parent, base := filepath.Dir(dir), filepath.Base(dir)
	link := filepath.Join(parent, LatestLink)
	if st, err := os.Lstat(link); err == nil && st.Mode()&os.ModeSymlink == 0 {
		return fmt.Errorf("%s exists and is not a symbolic link; not replacing it", link)
	}
	tmp := filepath.Join(parent, "."+LatestLink+".tmp-"+base)
	os.Remove(tmp)
	if err := os.Symlink(base, tmp); err != nil {
		return fmt.Errorf("link %s: %w", link, err)
	}
	if err := os.Rename(tmp, link); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("link %s: %w", link, err)
	}
	return nil
}

// FreshDir returns dir if nothing exists there, else the first of dir-2,
// dir-3, … that does not exist, so that two runs started within the same
// second get their own directories.
func FreshDir(dir string) string {
	if _, err := os.Lstat(dir); errors.Is(err, fs.ErrNotExist) {
		return dir
	}
	for i := 2; ; i++ {
		d := fmt.Sprintf("%s-%d", dir, i)
		if _, err := os.Lstat(d); errors.Is(err, fs.ErrNotExist) {
			return d
		}
	}
}

package datasets

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
)

// CheckFormat refuses a table format other than FormatParquet and
// FormatCSV, naming the --format flag that gives it.
func CheckFormat(format string) error {
	if format != FormatParquet && format != FormatCSV {
		return fmt.Errorf("--format %q: must be %s or %s", format, FormatParquet, FormatCSV)
	}
	return nil
}

// ValidSplit reports whether s is a usable split label: letters, digits,
// and after the first character '.', '_' or '-'.
func ValidSplit(s string) bool {
	for i, r := range s {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || i > 0 && strings.ContainsRune("._-", r)
		if !ok {
			return false
		}
	}
	return s != ""
}

// CheckNewDir refuses an output (--out) that exists and is not an empty
// directory, before any work is done (Write checks again, atomically).
func CheckNewDir(path string) error {
	st, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("--out: %w", err)
	}
	if !st.IsDir() {
		return fmt.Errorf("--out %s: exists and is not a directory", path)
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		return fmt.Errorf("--out: %w", err)
	}
	if len(entries) > 0 {
		return fmt.Errorf("--out %s: directory exists and is not empty; refusing to overwrite it (choose a new directory)", path)
	}
	return nil
}

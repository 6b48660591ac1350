package runfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/evogp/evogp/internal/atomicio"
)

// config.yaml is the run's config as resolved, in YAML; configs parses it
// (configs.Parse, configs.Load on ConfigPath), which runfile may not
// import, so runfile moves its bytes only.

// ConfigPath is the config.yaml of the run directory dir.
func ConfigPath(dir string) string { return filepath.Join(dir, ConfigFile) }

// WriteConfig writes the resolved config's YAML as dir/config.yaml,
// atomically.
func WriteConfig(dir string, yaml []byte) error {
	return atomicio.WriteBytes(ConfigPath(dir), yaml)
}

// ReadConfig reads dir/config.yaml: nil, nil when it does not exist (a
// directory that is not a learn run).
func ReadConfig(dir string) ([]byte, error) {
	data, err := os.ReadFile(ConfigPath(dir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", ConfigFile, err)
	}
	return data, nil
}

package experiment

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"go.yaml.in/yaml/v3"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/datasets"
)

// DatasetObjective is the objective section of the embedded config a
// generated dataset names in its dataset.yaml ("config: hetero"), when
// that config sets one other than the default (Eq. 5): the objective a
// command on the dataset should report unless the user chooses another.
// ok is false for a dataset without dataset.yaml, an imported one, a
// config that is not embedded, or one with the default objective.
func DatasetObjective(dir string) (obj configs.Objective, config string, ok bool, err error) {
	path := filepath.Join(dir, datasets.MetaFile)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return obj, "", false, nil
	}
	if err != nil {
		return obj, "", false, err
	}
	var meta struct {
		Config string `yaml:"config"`
	}
	if err := yaml.Unmarshal(data, &meta); err != nil {
		return obj, "", false, fmt.Errorf("%s: %w", path, err)
	}
	if meta.Config == "" || !slices.Contains(configs.Names(), meta.Config) {
		return obj, "", false, nil
	}
	cfg, err := configs.Load(meta.Config)
	if err != nil {
		return obj, "", false, err
	}
	rec, err := cfg.Objective.Record()
	if err != nil {
		return obj, "", false, fmt.Errorf("config %s: %w", meta.Config, err)
	}
	if def, _ := configs.Default().Objective.Record(); rec.Equal(def) {
		return obj, "", false, nil
	}
	return cfg.Objective, meta.Config, true, nil
}

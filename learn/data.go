package learn

import (
	"fmt"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/datasets"
	"github.com/evogp/evogp/simcore"
)

// Split names used to derive the seeds of generated data (datasets.SplitSeed).
const (
	SplitTrain      = "train"
	SplitValidation = "validation"
)

// LoadData returns the training and validation instances of a config: the
// datasets in data.train_dir / data.validation_dir when set, otherwise
// data.train / data.validation instances drawn with the config's generator
// and the seeds datasets.SplitSeed(seed, "train") and (seed,
// "validation"), so the two splits never share a stream and
// `evogp data gen` with the same seed and split produces the same files.
func LoadData(cfg configs.Config) (train, val []simcore.Instance, err error) {
	n := 0
	if cfg.Data.TrainDir == "" {
		n += cfg.Data.Train
	}
	if cfg.Data.ValDir == "" {
		n += cfg.Data.Validation
	}
	if err := cfg.Generator.CheckInstances(n, "data.train + data.validation"); err != nil {
		return nil, nil, fmt.Errorf("learn: %w", err)
	}
	train, err = split(cfg, SplitTrain, cfg.Data.TrainDir, cfg.Data.Train)
	if err != nil {
		return nil, nil, err
	}
	val, err = split(cfg, SplitValidation, cfg.Data.ValDir, cfg.Data.Validation)
	if err != nil {
		return nil, nil, err
	}
	return train, val, nil
}

func split(cfg configs.Config, name, dir string, n int) ([]simcore.Instance, error) {
	if dir != "" {
		ds, err := datasets.Read(dir)
		if err != nil {
			return nil, fmt.Errorf("%s set: %w", name, err)
		}
		return ds.Instances, nil
	}
	insts, err := datasets.Generate(cfg.Generator.Settings(), datasets.SplitSeed(cfg.DataSeed(), name), n)
	if err != nil {
		return nil, fmt.Errorf("generate %s set: %w", name, err)
	}
	return insts, nil
}

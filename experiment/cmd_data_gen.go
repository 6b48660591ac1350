package experiment

import (
	"context"
	"fmt"
	"io"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/datasets"
)

// DataGenCommand is what `evogp data gen` was given. Instances and Seed
// count only when given (InstancesGiven, SeedGiven); otherwise the
// config's size for the split and its data seed apply.
type DataGenCommand struct {
	Overrides      []string // the key=value arguments
	Config         string   // embedded config name or YAML file
	Instances      int
	InstancesGiven bool
	Seed           uint64
	SeedGiven      bool
	Out            string // the new dataset directory (required)
	Format         string // datasets.FormatParquet or datasets.FormatCSV
	Split          string // the split name recorded in dataset.yaml
}

// RunDataGenCommand checks o, generates the dataset into o.Out (see
// GenerateDataset) and writes a one-line account of it to w.
func RunDataGenCommand(ctx context.Context, o DataGenCommand, w io.Writer) error {
	if o.Out == "" {
		return fmt.Errorf("data gen: --out DIR is required")
	}
	cfg, err := configs.Load(o.Config)
	if err != nil {
		return err
	}
	if cfg, err = cfg.Override(o.Overrides...); err != nil {
		return err
	}
	if err := datasets.CheckFormat(o.Format); err != nil {
		return err
	}
	if !datasets.ValidSplit(o.Split) {
		return fmt.Errorf("--split %q: use letters, digits, '.', '_' or '-'", o.Split)
	}
	n, err := o.instances(cfg)
	if err != nil {
		return err
	}
	seed := cfg.DataSeed()
	if o.SeedGiven {
		seed = o.Seed
	}
	if err := datasets.CheckNewDir(o.Out); err != nil {
		return err
	}
	g, err := GenerateDataset(ctx, GenerateSettings{
		Config: cfg, ConfigName: o.Config, Overrides: o.Overrides, Split: o.Split, Seed: seed,
		Instances: n, Format: o.Format, Out: o.Out,
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "wrote %d instances (%d clusters, %d jobs) to %s as %s (split %s, config %s, seed %d)\n",
		g.Instances, g.Clusters, g.Jobs, o.Out, o.Format, o.Split, o.Config, seed)
	return nil
}

// instances is the number of instances to generate: o.Instances when
// given, else cfg's size for o.Split.
func (o DataGenCommand) instances(cfg configs.Config) (int, error) {
	if o.InstancesGiven {
		if o.Instances < 1 {
			return 0, fmt.Errorf("--instances %d: must be ≥ 1", o.Instances)
		}
		return o.Instances, nil
	}
	n := map[string]int{"train": cfg.Data.Train, "validation": cfg.Data.Validation, "test": cfg.Data.Test}[o.Split]
	if n < 1 {
		return 0, fmt.Errorf("split %q: the config gives no size (data.train/validation/test); pass --instances", o.Split)
	}
	return n, nil
}

// DataGenHelp ends the usage text of `evogp data gen`: where the
// overrides may stand and the generator seed each split draws from.
const DataGenHelp = "   Flags may come before or after the overrides. Instances are drawn from the generator seed\n" +
	"   SplitSeed(seed, split), so train, validation and test generated from one config\n" +
	"   seed never share instances; dataset.yaml records both seeds and the settings."

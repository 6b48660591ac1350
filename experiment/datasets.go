package experiment

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/datasets"
	"github.com/evogp/evogp/internal/atomicio"
)

// GenerateSettings describe one generated dataset (evogp data gen).
type GenerateSettings struct {
	Config     configs.Config // its generator section sets the workload
	ConfigName string         // recorded in dataset.yaml
	Overrides  []string       // recorded in dataset.yaml
	Split      string         // train, validation, test, …
	Seed       uint64         // the experiment seed; instances use SplitSeed(Seed, Split)
	Instances  int
	Format     string // datasets.FormatParquet or datasets.FormatCSV
	Out        string // new directory
}

// GeneratedDataset summarises what GenerateDataset wrote.
type GeneratedDataset struct {
	Instances, Clusters, Jobs int
}

// GenerateDataset draws s.Instances instances with the Table II generator
// from the generator seed SplitSeed(s.Seed, s.Split), so that splits drawn
// from one experiment seed never share instances, and writes them with a
// dataset.yaml that records both seeds, the settings and the overrides.
func GenerateDataset(ctx context.Context, s GenerateSettings) (GeneratedDataset, error) {
	if err := s.Config.Generator.CheckInstances(s.Instances, "--instances"); err != nil {
		return GeneratedDataset{}, err
	}
	settings := genSettings(s.Config)
	genSeed := datasets.SplitSeed(s.Seed, s.Split)
	insts, err := datasets.GenerateContext(ctx, settings, genSeed, s.Instances)
	if err != nil {
		return GeneratedDataset{}, err
	}
	seed := s.Seed
	meta := datasets.Meta{
		Split: s.Split, Source: "generator", Config: s.ConfigName,
		Seed: &seed, GenerateSeed: &genSeed, Generator: &settings,
	}
	if len(s.Overrides) > 0 {
		meta.Options = map[string]string{"overrides": strings.Join(s.Overrides, " ")}
	}
	if err := datasets.WriteContext(ctx, s.Out, &datasets.Dataset{Instances: insts, Meta: meta}, s.Format); err != nil {
		return GeneratedDataset{}, err
	}
	g := GeneratedDataset{Instances: len(insts)}
	for _, in := range insts {
		g.Clusters += len(in.Clusters)
		g.Jobs += len(in.Jobs)
	}
	return g, nil
}

// NamedDataset is a dataset with the name of its subdirectory.
type NamedDataset struct {
	Name    string
	Dataset *datasets.Dataset
}

// WriteSplits writes each dataset into out/NAME, all of them atomically:
// out appears with every split or not at all.
func WriteSplits(out string, splits []NamedDataset, format string) error {
	err := atomicio.Dir(out, func(tmp string) error {
		for _, s := range splits {
			if err := datasets.Write(filepath.Join(tmp, s.Name), s.Dataset, format); err != nil {
				return fmt.Errorf("split %s: %w", s.Name, err)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("write %s: %w", out, err)
	}
	return nil
}

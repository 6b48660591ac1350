package experiment

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/reports"
	"github.com/evogp/evogp/runfile"
)

// convergenceRef reads what a learn run directory's convergence figure
// draws besides generations.parquet, so that a redraw (evogp report, a
// sweep's overlay) plots the quantity learn plotted: the training subset
// size α from config.yaml (fitness ÷ α is the per-instance mean), and
// from best.json the best individual's validation curve and the best
// baseline's validation score. A file that is absent leaves its part
// zero (a run still going has no best.json); a file that is present but
// unreadable is an error.
func convergenceRef(dir string) (reports.ConvergenceRef, error) {
	var ref reports.ConvergenceRef
	read := func(name string) ([]byte, error) {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return data, err
	}
	data, err := runfile.ReadConfig(dir)
	if err != nil {
		return ref, fmt.Errorf("report: %w", err)
	}
	if data != nil {
		cfg, err := configs.Parse(runfile.ConfigPath(dir), data)
		if err != nil {
			return ref, fmt.Errorf("report: %w", err)
		}
		ref.Subset = cfg.GP.Subset
	}
	if data, err = read(runfile.BestFile); err != nil {
		return ref, fmt.Errorf("report: %w", err)
	}
	if data == nil || ref.Subset == 0 {
		return ref, nil // validation scores are per-instance means: only beside α
	}
	best, err := runfile.DecodeBest(filepath.Join(dir, runfile.BestFile), data)
	if err != nil {
		return ref, fmt.Errorf("report: %w", err)
	}
	for _, c := range best.ValidationCurve {
		ref.Validation = append(ref.Validation, reports.ValidationPoint{Generation: c.Generation, Score: c.Score})
	}
	for _, b := range best.ValidationBaselines {
		if b.Name == best.BestBaseline {
			ref.Baseline, ref.Level = b.Name, b.Score
		}
	}
	return ref, nil
}

package experiment

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/internal/progress"
	"github.com/evogp/evogp/learn"
	"github.com/evogp/evogp/runfile"
)

// LearnSettings describe one learning run started from the command line.
type LearnSettings struct {
	Config     configs.Config
	Out        string // run directory; it must not exist or be empty
	Progress   progress.Options
	Provenance Provenance
	// ReduceTolerance (percent, 0 = off): learn.Settings.ReduceTolerance.
	ReduceTolerance float64
}

// Learn loads the config's data, runs the learner into s.Out and records
// the provenance in the run directory (also when the run was interrupted
// and left a checkpoint there).
func Learn(ctx context.Context, s LearnSettings) (*learn.Result, int, error) {
	if err := learn.CheckRunDir(s.Out); err != nil { // before the data is generated
		return nil, 0, err
	}
	train, val, err := learn.LoadData(s.Config)
	if err != nil {
		return nil, 0, err
	}
	res, err := learn.Run(ctx, learn.Settings{Config: s.Config, Train: train, Validation: val, Out: s.Out, Progress: s.Progress, ReduceTolerance: s.ReduceTolerance})
	return res, len(val), reportRun(s.Out, recordRun(s.Out, s.Config, s.Provenance, err))
}

// ResumeLearn continues the interrupted run in dir with cfg (the run's
// config, possibly overridden), or extends a finished one when cfg has a
// larger gp.generations (learn.Resume), and records the provenance.
func ResumeLearn(ctx context.Context, dir string, cfg configs.Config, pr progress.Options, prov Provenance) (*learn.Result, int, error) {
	train, val, err := learn.LoadData(cfg)
	if err != nil {
		return nil, 0, err
	}
	res, err := learn.Resume(ctx, dir, learn.Settings{Config: cfg, Train: train, Validation: val, Progress: pr})
	return res, len(val), reportRun(dir, recordRun(dir, cfg, prov, err))
}

// recordRun appends the provenance, with the hashes of cfg and of its
// dataset directories, to a run directory that exists after the run
// (finished, or interrupted with its checkpoint) and returns the run's
// error, joined with a failure to record.
func recordRun(dir string, cfg configs.Config, prov Provenance, runErr error) error {
	var intr *learn.InterruptedError
	if runErr != nil && !errors.As(runErr, &intr) {
		return runErr
	}
	if _, err := os.Stat(dir); err != nil {
		return runErr
	}
	prov, err := configProvenance(prov, cfg)
	if err == nil {
		err = AppendProvenance(dir, prov)
	}
	if err != nil {
		return errors.Join(runErr, err)
	}
	return runErr
}

// configProvenance is prov with the hash of cfg and of the dataset
// directories it reads.
func configProvenance(prov Provenance, cfg configs.Config) (Provenance, error) {
	prov, err := prov.WithConfig(cfg)
	if err != nil {
		return prov, err
	}
	return WithInputs(prov, cfg.Data.TrainDir, cfg.Data.ValDir, cfg.Data.TestDir)
}

// learnedTree returns the best tree of the run in dir, running or resuming
// the run as needed.
func learnedTree(ctx context.Context, dir string, cfg configs.Config, pr progress.Options, prov Provenance) (*expr.Tree, error) {
	if b, err := os.ReadFile(filepath.Join(dir, runfile.BestFile)); err == nil {
		best, err := runfile.DecodeBest(filepath.Join(dir, runfile.BestFile), b)
		if err != nil {
			return nil, err
		}
		if err := best.Check(); err != nil {
			return nil, fmt.Errorf("%s: %w", filepath.Join(dir, runfile.BestFile), err)
		}
		return best.Tree, nil
	}
	var res *learn.Result
	var err error
	if _, statErr := os.Stat(filepath.Join(dir, runfile.CheckpointDir)); statErr == nil {
		res, _, err = ResumeLearn(ctx, dir, cfg, pr, prov)
	} else {
		res, _, err = Learn(ctx, LearnSettings{Config: cfg, Out: dir, Progress: pr, Provenance: prov})
	}
	if err != nil {
		return nil, err
	}
	return res.Best, nil
}

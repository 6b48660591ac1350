package experiment

import (
	"context"
	"fmt"
	"io"

	"github.com/evogp/evogp/simcore"
)

// EstimatesChoice is the command-line choice of the job durations
// schedulers see (SPEC §14): the source (ParseEstimateSource's syntax), the
// seed of its draws and whether recurring jobs reuse an error.
type EstimatesChoice struct {
	Source string
	Seed   uint64
	Reuse  bool
	Quiet  bool // no summary line
}

// ApplyEstimates sets Job.Estimate on every instance as o says (see
// FillEstimates: none clears any estimate; column keeps the dataset's and
// fails when no job has one; the error models draw d̂ = max(1, round(d·f)))
// and writes the draws' summary line to errw unless o.Quiet.
func ApplyEstimates(ctx context.Context, o EstimatesChoice, insts []simcore.Instance, errw io.Writer) error {
	src, err := ParseEstimateSource(o.Source)
	if err != nil {
		return err
	}
	summary, err := FillEstimates(ctx, src, o.Seed, o.Reuse, insts)
	if err != nil {
		return err
	}
	if summary != "" && !o.Quiet {
		fmt.Fprintln(errw, summary)
	}
	return nil
}

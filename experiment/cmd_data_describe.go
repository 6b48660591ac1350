package experiment

import (
	"context"
	"fmt"
	"io"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/datasets"
	"github.com/evogp/evogp/learn"
)

// DataDescribeCommand is what `evogp data describe` was given.
type DataDescribeCommand struct {
	Args  []string // the positional arguments: the dataset directory
	JSON  bool     // one JSON object per instance instead of the table
	Types int      // job types listed per instance in the table
}

// RunDataDescribeCommand writes to w the summary of every instance of the
// dataset (datasets.Describe, as a table or JSON lines), and to errw a
// warning when the baselines cannot tell its instances apart
// (learn.FlatBaselines).
func RunDataDescribeCommand(ctx context.Context, o DataDescribeCommand, w, errw io.Writer) error {
	if len(o.Args) != 1 {
		return fmt.Errorf("data describe: want one dataset directory, got %d arguments", len(o.Args))
	}
	dir := o.Args[0]
	ds, err := datasets.Read(dir)
	if err != nil {
		return err
	}
	sums := make([]datasets.Summary, len(ds.Instances))
	for i, in := range ds.Instances {
		sums[i] = datasets.Describe(in)
	}
	opts, err := configs.SimOptions(configs.Default())
	if err != nil {
		return err
	}
	flat, err := learn.FlatBaselines(ctx, dir, ds.Instances, opts, 0)
	if err != nil {
		return fmt.Errorf("data describe %s: %w", dir, err)
	}
	if o.JSON {
		err = datasets.WriteDescribeJSON(w, sums)
	} else {
		err = datasets.WriteDescribeTable(w, dir, ds.Meta, sums, o.Types)
	}
	if err == nil && flat != "" {
		fmt.Fprintf(errw, "warning: %s\n", flat)
	}
	return err
}

// DataDescribeHelp ends the usage text of `evogp data describe`: what
// the columns of its table are and what --json prints.
const DataDescribeHelp = "   GPU-h is Σ g·d / 3600; span-h the arrival span (last − first arrival) in hours;\n" +
	"   load the offered load GPU-h / (GPUs × span-h) (n/a when the span is 0);\n" +
	"   cl-load the mean over clusters of the same ratio per user cluster, each over\n" +
	"   its own arrival span (≈ (load_min+load_max)/2 for generated data).\n" +
	"   --json prints one JSON object per instance, one per line."

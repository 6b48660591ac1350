package experiment

import (
	"fmt"
	"io"
	"os"

	"github.com/evogp/evogp/datasets"
	"github.com/evogp/evogp/datasets/philly"
)

// DataImportPhillyCommand is what `evogp data import philly` was given:
// the import's command line (its In is the trace CSV) and where and how
// the datasets are written.
type DataImportPhillyCommand struct {
	philly.CommandLine
	Out    string // the new output directory: one dataset, or one per split
	Format string // datasets.FormatParquet or datasets.FormatCSV
}

// RunDataImportPhillyCommand imports the Philly trace into o.Out (one
// dataset, or out/<split> per split window, all written atomically) and
// writes the import report to w (philly.Result.WriteReport); when nothing
// could be imported it writes the row counts before failing.
func RunDataImportPhillyCommand(o DataImportPhillyCommand, w io.Writer) error {
	if err := datasets.CheckFormat(o.Format); err != nil {
		return err
	}
	in, out := o.In, o.Out
	if err := datasets.CheckNewDir(out); err != nil {
		return err
	}
	// The trace first: the VC file is looked up beside it, and a wrong
	// --in must not be reported as a missing VC file.
	if st, err := os.Stat(in); err != nil {
		return fmt.Errorf("--in: %w", err)
	} else if st.IsDir() {
		return fmt.Errorf("--in %s: is a directory, want the trace CSV", in)
	}
	opts, err := o.CommandLine.Options()
	if err != nil {
		return err
	}
	res, err := philly.ImportFile(in, opts)
	if err != nil {
		if res.Counts.Rows > 0 {
			// Show why nothing was kept before failing.
			_ = res.WriteCounts(w, in)
		}
		return err
	}
	if len(opts.Splits) == 0 {
		if err := datasets.Write(out, &res.Splits[0].Dataset, o.Format); err != nil {
			return err
		}
	} else {
		splits := make([]NamedDataset, len(res.Splits))
		for i := range res.Splits {
			splits[i] = NamedDataset{Name: res.Splits[i].Name, Dataset: &res.Splits[i].Dataset}
		}
		if err := WriteSplits(out, splits, o.Format); err != nil {
			return err
		}
	}
	return res.WriteReport(w, in, out, o.Format, opts.GPUsPerNode)
}

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

// DataImportPhillyHelp ends the usage text of `evogp data import philly`:
// examples, and how rows become jobs, instances and splits and how node
// counts are chosen (philly.CommandLine).
const DataImportPhillyHelp = "   Examples:\n" +
	"   evogp data import philly --in ../shared/traces/philly/philly.csv --out data/philly-multi \\\n" +
	"       --train 2017-10-01..2017-10-15 --validation 2017-10-15..2017-10-22 --test 2017-10-22..2017-11-05\n" +
	"   evogp data import philly --in ../shared/traces/philly/philly.csv --out data/philly-single \\\n" +
	"       --single-cluster --nodes 100 --train 2017-10-01..2017-10-15 --test 2017-10-15..2017-10-29\n\n" +
	"   Every data row is a job whose id is its 0-based row in the file; priority is --priority\n" +
	"   (the trace has none). Jobs are grouped into instances of --instance-span from each window's\n" +
	"   start (arrivals relative to the span start), one every --instance-stride (default: the span;\n" +
	"   shorter strides give overlapping instances, a job in each whose span holds its submit time).\n" +
	"   With split windows DIR/<split> is written for\n" +
	"   each; otherwise DIR is one dataset. Rows that cannot be used are counted by reason and\n" +
	"   printed; a corrupt file (header, field count, quoting) is an error naming the line.\n" +
	"   Capacities: helios = the VC file's node counts (default; beside --in); VC=N,... explicit;\n" +
	"   load:RHO = per VC the smallest node count with offered load Σ g·d / (N·G·window) ≤ RHO,\n" +
	"   never below what its largest job needs; --capacity-scale S multiplies fixed counts\n" +
	"   (ceil) and raises them so every job fits; --capacity-per-instance (with load:RHO) sizes every\n" +
	"   instance by its own jobs over its own span. --single-cluster merges the kept VCs into one\n" +
	"   cluster of --nodes nodes (or the helios sum, or load:RHO). See `go doc datasets/philly`."

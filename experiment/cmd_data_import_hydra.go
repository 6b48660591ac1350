package experiment

import (
	"fmt"
	"io"

	"github.com/evogp/evogp/datasets"
	"github.com/evogp/evogp/datasets/hydracase"
)

// DataImportHydraCommand is what `evogp data import hydra` was given.
type DataImportHydraCommand struct {
	In     string // the case CSV file
	Out    string // the new dataset directory
	GPUs   string // TYPE=N,TYPE=N,… (hydracase.ParseGPUs)
	Jobs   int    // import the first Jobs rows; 0 = all
	DDL    string // hydracase.DDLRelative or hydracase.DDLAbsolute
	Format string // datasets.FormatParquet or datasets.FormatCSV
}

// RunDataImportHydraCommand imports a test case of Hydra's evaluation as
// a one-instance dataset in o.Out (SPEC §13, hydracase.ImportFile) and
// writes a one-line account of it to w.
func RunDataImportHydraCommand(o DataImportHydraCommand, w io.Writer) error {
	if err := datasets.CheckFormat(o.Format); err != nil {
		return err
	}
	gpus, err := hydracase.ParseGPUs(o.GPUs)
	if err != nil {
		return err
	}
	if o.Jobs < 0 {
		return fmt.Errorf("--jobs %d: must be ≥ 1", o.Jobs)
	}
	if err := datasets.CheckNewDir(o.Out); err != nil {
		return err
	}
	ds, err := hydracase.ImportFile(o.In, hydracase.Options{GPUs: gpus, Jobs: o.Jobs, DDL: o.DDL})
	if err != nil {
		return err
	}
	if err := datasets.Write(o.Out, ds, o.Format); err != nil {
		return err
	}
	in := ds.Instances[0]
	_, err = fmt.Fprintf(w, "wrote instance %s (%d jobs, %d with a deadline; %d clusters) to %s as %s\n",
		in.Name, len(in.Jobs), datasets.CountDeadlines(in), len(in.Clusters), o.Out, o.Format)
	return err
}

// DataImportHydraHelp ends the usage text of `evogp data import hydra`:
// how the rows of a Hydra test case become jobs, clusters and one
// instance.
const DataImportHydraHelp = "   Every data row is a single-GPU job (id = its 0-based row): arrival ⌊norm_job_submit_time⌋,\n" +
	"   deadline ddl after the submit time (--ddl relative, the default) or at ddl (absolute),\n" +
	"   `inf` = none; its duration on each --gpus type is that type column (s; inf, empty or 0 =\n" +
	"   cannot run there). One cluster per --gpus entry, of that many 1-GPU nodes. --jobs N\n" +
	"   takes the first N rows. The result is one instance named after the file, with a\n" +
	"   durations table. See `go doc ./datasets/hydracase`."

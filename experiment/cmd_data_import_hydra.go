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

package runreport

import (
	"encoding/json"
	"time"

	"github.com/evogp/evogp/reports"
)

// Env is what the report needs to know about an output directory beyond
// its tables, the learner's files and the figures: the names and readers
// of the files the command layer (experiment) writes there. The report
// reads the files itself, in a fixed order, and calls Env to decode them,
// so that their types keep one definition where they are written.
type Env struct {
	// ManifestFile is the directory's manifest, shown verbatim.
	ManifestFile string
	// ProvenanceFile is the directory's provenance record.
	ProvenanceFile string
	// Provenance decodes the provenance record's bytes.
	Provenance func(data []byte) ([]Invocation, error)
	// FigureDefaults reads, for a report drawn from the files on disk,
	// what the directory's manifest records of the reference scheduler,
	// the per-instance figure's instance and the best baseline chosen on
	// other data (empty strings when it has no manifest).
	FigureDefaults func(dir string) (FigureDefaults, error)
	// Formulas decodes the manifest's "schedulers" entry into the
	// labelled formulas the report shows.
	Formulas func(raw json.RawMessage) ([]LabelledFormula, error)
	// PointDir is the run directory of a sweep row inside the sweep
	// directory dir.
	PointDir func(dir string, row reports.SweepRow) string
}

// FigureDefaults are the drawing choices a manifest records.
type FigureDefaults struct {
	Reference, Instance             string
	BestBaseline, BestBaselineBasis string
}

// LabelledFormula is a scheduler of an eval and the formula it ranks
// with ("" for a scheduler without one).
type LabelledFormula struct {
	Label, Scheduler, Infix string
}

// Invocation is one command that wrote into the directory, as the
// provenance section shows it.
type Invocation struct {
	Command                         []string
	Version, Revision, RevisionFrom string
	Modified                        bool
	GoVersion                       string
	Start, End                      time.Time
	DurationSeconds                 float64
	Host                            string
	GOMAXPROCS, NumCPU              int
	CPUModel, ConfigSHA256          string
	Inputs                          []Input
}

// Input is an input file of an invocation and its content hash.
type Input struct{ Path, SHA256 string }

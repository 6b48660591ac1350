package runfile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/evogp/evogp/internal/atomicio"
)

// Commands that write a manifest (its "command").
const (
	CommandEval     = "eval"
	CommandPressure = "pressure"
)

// SchedulerRecord is one scheduler of an eval or pressure run as its manifest
// records it: the entry as given, the resolved scheduler and, for a
// learned formula, the formula and the unit of its time terminals.
type SchedulerRecord struct {
	Label    string     `json:"label"`
	Spec     string     `json:"spec"`              // the entry as given
	Name     string     `json:"scheduler"`         // the resolved scheduler
	Source   string     `json:"formula,omitempty"` // the formula of a LABEL=SOURCE entry
	TimeUnit string     `json:"time_unit,omitempty"`
	EVO      *EVORecord `json:"evo,omitempty"` // the evo allocator's parameters, for a scheduler that uses it
}

// EVORecord are the evo allocator's parameters a scheduler ran with.
type EVORecord struct {
	Population  int     `json:"population"`
	Generations int     `json:"generations"`
	Mutation    float64 `json:"mutation"`
	Stall       int     `json:"stall"`
	Budget      int     `json:"budget"`
	Init        string  `json:"init"`
	Seed        uint64  `json:"seed"`
}

// EVOPair pairs an EVO scheduler with its MCT counterpart (paper
// Fig. 11b) by label.
type EVOPair struct {
	EVO string `json:"evo"`
	MCT string `json:"mct"`
}

// FrontSet is a LABEL=RUN entry of an eval expanded into its front's
// members (SPEC §17).
type FrontSet struct {
	Label      string           `json:"label"`
	Run        string           `json:"run"`
	Objectives []string         `json:"objectives"`
	Members    []FrontSetMember `json:"members"`
}

// FrontSetMember is one member of a FrontSet: its scheduler label,
// formula, size and the validation ω interval it won (nil: none).
type FrontSetMember struct {
	Label   string   `json:"label"`
	Formula string   `json:"formula"`
	Size    int      `json:"size"`
	OmegaLo *float64 `json:"omega_lo,omitempty"`
	OmegaHi *float64 `json:"omega_hi,omitempty"`
}

// EvalManifest is the ManifestFile of an eval directory.
type EvalManifest struct {
	Command    string            `json:"command"`
	Dataset    string            `json:"dataset"`
	Instances  int               `json:"instances"`
	Schedulers []SchedulerRecord `json:"schedulers"`
	Reference  string            `json:"reference"`
	Instance   string            `json:"instance,omitempty"`
	// Objective is the objective the schedulers were scored under.
	// Manifests written before the record existed stored the kind in
	// "objective", the weights as text in "weights" and ω in "omega";
	// DecodeEvalManifest reads those into a record holding both
	// parameters (Legacy says so).
	Objective Objective `json:"objective_record"`
	Trigger   string    `json:"trigger"`
	Backfill  string    `json:"backfill"`
	TimeUnit  string    `json:"time_unit"`
	// Estimates describes the durations schedulers saw (empty: the truth).
	Estimates string `json:"estimates,omitempty"`
	// EVOPairs pairs every EVO scheduler with its MCT counterpart.
	EVOPairs []EVOPair `json:"evo_pairs,omitempty"`
	// Fronts are the LABEL=RUN entries expanded into their front's
	// members, for the test-set trade-off plot.
	Fronts []FrontSet `json:"fronts,omitempty"`
	// BestBaseline is the summary's best baseline when it was chosen on
	// other data than this, and BestBaselineBasis says on which.
	BestBaseline      string `json:"best_baseline,omitempty"`
	BestBaselineBasis string `json:"best_baseline_basis,omitempty"`
	// Legacy is true for a manifest read from the old layout (no
	// "objective_record"); it is never written.
	Legacy bool `json:"-"`
}

// PressureManifest is the ManifestFile of a pressure directory.
type PressureManifest struct {
	Command    string            `json:"command"`
	Config     string            `json:"config"`
	Seed       uint64            `json:"seed"`
	Clusters   int               `json:"clusters"`
	Nodes      int               `json:"nodes"`
	Jobs       int               `json:"jobs"`
	Seeds      int               `json:"seeds"`
	Intervals  []float64         `json:"intervals"`
	Schedulers []SchedulerRecord `json:"schedulers"`
	// Objective as in EvalManifest (old files: an array in "weights").
	Objective Objective `json:"objective_record"`
	Legacy    bool      `json:"-"`
}

// Manifest is a decoded ManifestFile: exactly one of Eval and Pressure
// is set, as its "command" says.
type Manifest struct {
	Eval     *EvalManifest
	Pressure *PressureManifest
}

// legacyObjective is how manifests written before the objective record
// stored the objective: the kind, the weights (text "1,1,1" in an eval
// manifest, an array in a pressure manifest) and ω, whatever the kind
// reads.
type legacyObjective struct {
	Kind    *string         `json:"objective"`
	Weights json.RawMessage `json:"weights"`
	Omega   *float64        `json:"omega"`
	Record  *Objective      `json:"objective_record"`
}

// record is the objective of a manifest: its "objective_record", else
// the old fields as a record holding both parameters (legacy = true).
func (l legacyObjective) record() (rec Objective, legacy bool, err error) {
	if l.Record != nil {
		if err := l.Record.Validate(); err != nil {
			return Objective{}, false, fieldErr("objective_record", err)
		}
		return *l.Record, false, nil
	}
	if l.Kind == nil {
		return Objective{}, false, fieldErr("objective_record", fmt.Errorf("missing"))
	}
	rec = Objective{Kind: *l.Kind, Omega: l.Omega}
	if len(l.Weights) > 0 && !bytes.Equal(l.Weights, []byte("null")) {
		var w [3]float64
		var text string
		if err := json.Unmarshal(l.Weights, &text); err == nil {
			if w, err = ParseWeights(text); err != nil {
				return Objective{}, false, fieldErr("weights", err)
			}
		} else if err := json.Unmarshal(l.Weights, &w); err != nil {
			return Objective{}, false, fieldErr("weights", fmt.Errorf("want \"ω1,ω2,ω3\" or [ω1, ω2, ω3]: %w", err))
		}
		rec.Weights = &w
	}
	if err := rec.Validate(); err != nil {
		return Objective{}, false, fieldErr("objective", err)
	}
	return rec, true, nil
}

func fieldErr(field string, err error) error { return fmt.Errorf("field %q: %w", field, err) }

// DecodeManifest reads a ManifestFile's content; name is its path, for
// errors. A manifest whose "command" is neither eval nor pressure is an
// error.
func DecodeManifest(name string, data []byte) (*Manifest, error) {
	var head struct {
		Command string `json:"command"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	var leg legacyObjective
	if err := json.Unmarshal(data, &leg); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	rec, legacy, err := leg.record()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	switch head.Command {
	case CommandEval:
		var m EvalManifest
		if err := json.Unmarshal(data, &noObjective[EvalManifest]{&m}); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		m.Objective, m.Legacy = rec, legacy
		return &Manifest{Eval: &m}, nil
	case CommandPressure:
		var m PressureManifest
		if err := json.Unmarshal(data, &noObjective[PressureManifest]{&m}); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		m.Objective, m.Legacy = rec, legacy
		return &Manifest{Pressure: &m}, nil
	}
	return nil, fmt.Errorf("%s: field \"command\" = %q: want %s or %s", name, head.Command, CommandEval, CommandPressure)
}

// noObjective decodes a manifest into *T with its objective fields
// ignored (legacyObjective reads them): an old manifest's "objective" is
// a string and its "weights" text or an array.
type noObjective[T any] struct{ m *T }

func (n *noObjective[T]) UnmarshalJSON(data []byte) error {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		return err
	}
	for _, k := range []string{"objective", "weights", "omega", "objective_record"} {
		delete(fields, k)
	}
	rest, err := json.Marshal(fields)
	if err != nil {
		return err
	}
	return json.Unmarshal(rest, n.m)
}

// ReadManifest reads dir's ManifestFile (DecodeManifest). A missing file
// is an error that wraps fs.ErrNotExist.
func ReadManifest(dir string) (*Manifest, error) {
	path := filepath.Join(dir, ManifestFile)
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return DecodeManifest(path, data)
}

// WriteEvalManifest writes m as dir's ManifestFile, atomically.
func WriteEvalManifest(dir string, m *EvalManifest) error {
	m.Command = CommandEval
	return writeManifest(dir, m.Objective, m)
}

// WritePressureManifest writes m as dir's ManifestFile, atomically.
func WritePressureManifest(dir string, m *PressureManifest) error {
	m.Command = CommandPressure
	return writeManifest(dir, m.Objective, m)
}

// writeManifest writes v (indented JSON and a newline) after checking
// its objective record.
func writeManifest(dir string, rec Objective, v any) error {
	path := filepath.Join(dir, ManifestFile)
	if err := rec.Validate(); err != nil {
		return fmt.Errorf("write %s: %w", path, fieldErr("objective_record", err))
	}
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return atomicio.WriteBytes(path, append(data, '\n'))
}

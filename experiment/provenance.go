package experiment

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"time"

	"github.com/evogp/evogp/internal/atomicio"
	"github.com/evogp/evogp/runfile"
)

// ProvenanceFile lists, in every output directory (learn run, sweep, eval,
// pressure), the provenance of each invocation that wrote to it (a run that
// was resumed has two entries). It is the one file that differs between
// two runs with identical inputs: it holds the start time and the host, so
// MarkerFile and the tables stay byte-identical.
const ProvenanceFile = runfile.ProvenanceFile

// Provenance says which program made an output, how and where.
type Provenance struct {
	Version  string `json:"version"`            // module version, "(devel)" for a local build
	Revision string `json:"revision,omitempty"` // VCS commit the binary was built from
	Modified bool   `json:"modified,omitempty"` // the working tree had uncommitted changes
	// RevisionFrom says where Revision came from: "build" (the build
	// information the Go toolchain embeds) or "git" (git rev-parse in the
	// working directory, for a binary built with -buildvcs=false or by go
	// run/go test inside a checkout). Empty when there is no revision.
	RevisionFrom string    `json:"revision_from,omitempty"`
	GoVersion    string    `json:"go_version"`
	Command      []string  `json:"command"` // the full command line, program name first
	Start        time.Time `json:"start"`   // UTC
	// End and DurationSeconds are set when the provenance is recorded
	// (AppendProvenance), at the end of the invocation's work.
	End             time.Time `json:"end,omitzero"`
	DurationSeconds float64   `json:"duration_seconds,omitempty"`
	Host            string    `json:"host"`
	GOMAXPROCS      int       `json:"gomaxprocs"`
	NumCPU          int       `json:"num_cpu"`
	CPUModel        string    `json:"cpu_model,omitempty"` // from /proc/cpuinfo when present
	// ConfigSHA256 is the SHA-256 of the resolved config (or eval
	// settings) as canonical JSON (WithConfig).
	ConfigSHA256 string `json:"config_sha256,omitempty"`
	// Inputs are the input datasets with their content hashes (WithInputs).
	Inputs []InputHash `json:"inputs,omitempty"`
}

// NewProvenance describes the running program invoked with args, started
// at start. Version and revision come from the build information the Go
// toolchain embeds (debug.ReadBuildInfo); a binary built without VCS
// information takes the revision and the dirty flag from git when the
// working directory is inside a checkout, and has none otherwise.
func NewProvenance(args []string, start time.Time) Provenance {
	p := buildProvenance(args, start)
	if p.Revision == "" {
		if rev, dirty, ok := gitRevision("", mainModule()); ok {
			p.Revision, p.Modified, p.RevisionFrom = rev, dirty, "git"
		}
	}
	return p
}

// mainModule is the path of the running program's main module, "" when
// the binary has no build information.
func mainModule() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		return bi.Main.Path
	}
	return ""
}

// buildProvenance is NewProvenance from the build information only, with
// no look at the working directory: what identifies the binary itself.
func buildProvenance(args []string, start time.Time) Provenance {
	p := Provenance{Version: "(devel)", GoVersion: runtime.Version(), Command: append([]string(nil), args...), Start: start.UTC(),
		GOMAXPROCS: runtime.GOMAXPROCS(0), NumCPU: runtime.NumCPU(), CPUModel: cpuModel(cpuInfoFile)}
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Version != "" {
			p.Version = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				p.Revision, p.RevisionFrom = s.Value, "build"
			case "vcs.modified":
				p.Modified = s.Value == "true"
			}
		}
	}
	if h, err := os.Hostname(); err == nil {
		p.Host = h
	}
	return p
}

// VersionString is the one-line version `evogp --version` prints.
func (p Provenance) VersionString() string {
	s := p.Version
	if p.Revision != "" {
		s += " (revision " + p.Revision
		if p.Modified {
			s += ", modified"
		}
		s += ")"
	}
	return s + " " + p.GoVersion
}

// AppendProvenance adds p to dir's ProvenanceFile, atomically. An entry
// without an end time gets the current time as its end, and its duration.
func AppendProvenance(dir string, p Provenance) error {
	if p.End.IsZero() {
		p = p.Finished(time.Now())
	}
	path := filepath.Join(dir, ProvenanceFile)
	var all []Provenance
	b, err := os.ReadFile(path)
	switch {
	case err == nil:
		if err := json.Unmarshal(b, &all); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	case !errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("provenance: %w", err)
	}
	return writeJSON(path, append(all, p))
}

// writeJSON writes v as indented JSON, atomically.
func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return atomicio.WriteBytes(path, append(b, '\n'))
}

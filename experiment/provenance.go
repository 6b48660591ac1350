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
)

// ProvenanceFile lists, in every output directory (learn run, sweep, eval,
// pressure), the provenance of each invocation that wrote to it (a run that
// was resumed has two entries). It is the one file that differs between
// two runs with identical inputs: it holds the start time and the host, so
// MarkerFile and the tables stay byte-identical.
const ProvenanceFile = "provenance.json"

// Provenance says which program made an output, how and where.
type Provenance struct {
	Version   string    `json:"version"`            // module version, "(devel)" for a local build
	Revision  string    `json:"revision,omitempty"` // VCS revision the binary was built from
	Modified  bool      `json:"modified,omitempty"` // the working tree had uncommitted changes
	GoVersion string    `json:"go_version"`
	Command   []string  `json:"command"` // the full command line, program name first
	Start     time.Time `json:"start"`   // UTC
	Host      string    `json:"host"`
}

// NewProvenance describes the running program invoked with args, started
// at start. Version and revision come from the build information the Go
// toolchain embeds (debug.ReadBuildInfo); a binary built without VCS
// information has no revision.
func NewProvenance(args []string, start time.Time) Provenance {
	p := Provenance{Version: "(devel)", GoVersion: runtime.Version(), Command: append([]string(nil), args...), Start: start.UTC()}
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Version != "" {
			p.Version = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				p.Revision = s.Value
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

// AppendProvenance adds p to dir's ProvenanceFile, atomically.
func AppendProvenance(dir string, p Provenance) error {
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

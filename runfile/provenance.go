package runfile

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/evogp/evogp/internal/atomicio"
)

// Provenance says which program made an output, how and where. One entry
// per invocation that wrote to a directory is kept in its ProvenanceFile.
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
	// Inputs are the input datasets with their content hashes.
	Inputs []InputHash `json:"inputs,omitempty"`
}

// InputHash is one input of a run (a dataset directory or file) and the
// SHA-256 of its content: for a directory, of every regular file below it
// in lexical path order, each as its slash-separated relative path, a NUL,
// its size in decimal, a NUL and its bytes, so a renamed, added or changed
// file changes the hash.
type InputHash struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
}

// Finished returns p with end as its end time and the duration since its
// start.
func (p Provenance) Finished(end time.Time) Provenance {
	p.End = end.UTC()
	if !p.Start.IsZero() {
		p.DurationSeconds = end.Sub(p.Start).Seconds()
	}
	return p
}

// WithConfig returns p with the hash of the resolved config v (any value
// encoding/json marshals deterministically, such as configs.Config or the
// eval settings).
func (p Provenance) WithConfig(v any) (Provenance, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return p, fmt.Errorf("provenance: config hash: %w", err)
	}
	sum := sha256.Sum256(b)
	p.ConfigSHA256 = hex.EncodeToString(sum[:])
	return p, nil
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

// DecodeProvenance decodes the bytes of a ProvenanceFile named name (for
// errors). An entry must not end before it starts nor have a negative
// duration; fields may be empty (a test's zero Provenance).
func DecodeProvenance(name string, data []byte) ([]Provenance, error) {
	var all []Provenance
	if err := json.Unmarshal(data, &all); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	for i, p := range all {
		switch {
		case !p.Start.IsZero() && !p.End.IsZero() && p.End.Before(p.Start):
			return nil, fmt.Errorf("%s: entry %d: field end: %s is before start %s", name, i, p.End, p.Start)
		case p.DurationSeconds < 0:
			return nil, fmt.Errorf("%s: entry %d: field duration_seconds: negative (%g)", name, i, p.DurationSeconds)
		}
	}
	return all, nil
}

// ReadProvenance reads the ProvenanceFile at path.
func ReadProvenance(path string) ([]Provenance, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("provenance: %w", err)
	}
	return DecodeProvenance(path, b)
}

// WriteProvenance writes all to path as indented JSON, atomically.
func WriteProvenance(path string, all []Provenance) error {
	b, err := json.MarshalIndent(all, "", "  ")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return atomicio.WriteBytes(path, append(b, '\n'))
}

// AppendProvenance adds p to dir's ProvenanceFile, atomically. An entry
// without an end time gets the current time as its end, and its duration.
func AppendProvenance(dir string, p Provenance) error {
	if p.End.IsZero() {
		p = p.Finished(time.Now())
	}
	path := filepath.Join(dir, ProvenanceFile)
	all, err := ReadProvenance(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return WriteProvenance(path, append(all, p))
}

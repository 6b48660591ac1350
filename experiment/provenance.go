package experiment

import (
	"encoding/json"
	"fmt"
	"os"
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
type Provenance = runfile.Provenance

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

// AppendProvenance adds p to dir's ProvenanceFile (runfile.AppendProvenance).
func AppendProvenance(dir string, p Provenance) error { return runfile.AppendProvenance(dir, p) }

// writeJSON writes v as indented JSON, atomically.
func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return atomicio.WriteBytes(path, append(b, '\n'))
}

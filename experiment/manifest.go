package experiment

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/evogp/evogp/reports"
	"github.com/evogp/evogp/runfile"
)

// An output directory's manifest (MarkerFile) is declared, read and
// written in runfile; this file converts between its records and the
// types experiment and reports compute with.

// schedulerRecords are the policies as a manifest records them.
func schedulerRecords(ps []Policy) []runfile.SchedulerRecord {
	out := make([]runfile.SchedulerRecord, len(ps))
	for i, p := range ps {
		out[i] = p.SchedulerRecord
	}
	return out
}

// evoPairRecords are pairs as a manifest records them.
func evoPairRecords(pairs []reports.EVOPair) []runfile.EVOPair {
	var out []runfile.EVOPair
	for _, p := range pairs {
		out = append(out, runfile.EVOPair(p))
	}
	return out
}

// evoPairsOf are a manifest's pairs for reports.
func evoPairsOf(recs []runfile.EVOPair) []reports.EVOPair {
	var out []reports.EVOPair
	for _, p := range recs {
		out = append(out, reports.EVOPair(p))
	}
	return out
}

// frontSetRecords are fronts as a manifest records them.
func frontSetRecords(fronts []reports.FrontSet) []runfile.FrontSet {
	var out []runfile.FrontSet
	for _, f := range fronts {
		r := runfile.FrontSet{Label: f.Label, Run: f.Run, Objectives: f.Objectives}
		for _, m := range f.Members {
			r.Members = append(r.Members, runfile.FrontSetMember(m))
		}
		out = append(out, r)
	}
	return out
}

// frontSetsOf are a manifest's fronts for reports.
func frontSetsOf(recs []runfile.FrontSet) []reports.FrontSet {
	var out []reports.FrontSet
	for _, r := range recs {
		f := reports.FrontSet{Label: r.Label, Run: r.Run, Objectives: r.Objectives}
		for _, m := range r.Members {
			f.Members = append(f.Members, reports.FrontSetMember(m))
		}
		out = append(out, f)
	}
	return out
}

// readManifest reads an eval directory's MarkerFile (runfile.ReadManifest);
// nil, nil when dir has none or a pressure directory's.
func readManifest(dir string) (*EvalManifest, error) {
	m, err := runfile.ReadManifest(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("report %s: %w", dir, err)
	}
	return m.Eval, nil
}

// ManifestDefaults returns the reference scheduler and the per-instance
// figure's instance recorded in an eval directory's MarkerFile (empty
// strings when dir has none), so that a redraw draws what eval drew.
func ManifestDefaults(dir string) (reference, instance string, err error) {
	m, err := readManifest(dir)
	if m == nil || err != nil {
		return "", "", err
	}
	return m.Reference, m.Instance, nil
}

// manifestBestBaseline returns the best baseline an eval directory's
// MarkerFile records as chosen on other data, and on which ("" when none
// or no marker), so that a redraw compares with the same baseline.
func manifestBestBaseline(dir string) (name, basis string, err error) {
	m, err := readManifest(dir)
	if m == nil || err != nil {
		return "", "", err
	}
	return m.BestBaseline, m.BestBaselineBasis, nil
}

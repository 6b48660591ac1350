package experiment

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/evogp/evogp/datasets"
	"github.com/evogp/evogp/policies"
	"github.com/evogp/evogp/reports"
	"github.com/evogp/evogp/runfile"
)

// ReadTables and the manifest readers below turn an output directory
// that experiment wrote back into the report's Tables and drawing
// choices.

// OpsFile is the name under which evogp report finds an EVO operation log
// in a directory (eval --ops-out DIR/ops.parquet puts it there).
const OpsFile = "ops.parquet"

// ReadTables reads every known table present in dir; it is an error if
// there is none.
func ReadTables(dir string) (Tables, error) {
	t := Tables{BaselineNames: policies.Baselines()}
	st, err := os.Stat(dir)
	if err != nil {
		return t, fmt.Errorf("report: %w", err)
	}
	if !st.IsDir() {
		return t, fmt.Errorf("report %s: not a directory", dir)
	}
	if _, err := os.Stat(filepath.Join(dir, datasets.MetaFile)); err == nil {
		return t, fmt.Errorf("report %s: a dataset directory (it has %s), not an evogp output; evaluate it with evogp eval --dataset %s", dir, datasets.MetaFile, dir)
	}
	found := 0
	read := func(name string, load func(string) error) error {
		p := filepath.Join(dir, name)
		if _, err := os.Stat(p); errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		found++
		return load(p)
	}
	steps := []struct {
		name string
		load func(string) error
	}{
		{"results.parquet", func(p string) (err error) { t.Results, err = reports.ReadResults(p); return }},
		{"jobs.parquet", func(p string) (err error) { t.Jobs, err = reports.ReadJobs(p); return }},
		{runfile.GenerationsFile, func(p string) (err error) { t.Generations, err = reports.ReadGenerations(p); return }},
		{"sweep.parquet", func(p string) (err error) { t.Sweep, err = reports.ReadSweep(p); return }},
		{"baselines.parquet", func(p string) (err error) { t.Baselines, err = reports.ReadResults(p); return }},
		{"pressure.parquet", func(p string) (err error) { t.Pressure, err = reports.ReadPressure(p); return }},
		{OpsFile, func(p string) (err error) { t.Ops, err = reports.ReadOps(p); return }},
	}
	for _, s := range steps {
		if err := read(s.name, s.load); err != nil {
			return t, err
		}
	}
	if len(t.Generations) > 0 {
		if t.Convergence, err = convergenceRef(dir); err != nil {
			return t, err
		}
	}
	if len(t.Sweep) > 0 {
		if t.TestSets, err = sweepTestSets(dir, t.Sweep); err != nil {
			return t, err
		}
		// A sweep's points are learn run directories: overlay their
		// convergence curves, in sweep.parquet's point order.
		for _, r := range t.Sweep {
			label := r.Overrides
			if label == "" {
				label = r.Point
			}
			p := filepath.Join(pointDirOf(dir, r), runfile.GenerationsFile)
			rows, err := reports.ReadGenerations(p)
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err != nil {
				return t, err
			}
			ref, err := convergenceRef(pointDirOf(dir, r))
			if err != nil {
				return t, err
			}
			t.Points = append(t.Points, reports.RunGenerations{Label: label, Rows: rows, Subset: ref.Subset})
		}
	}
	if len(t.Results) > 0 {
		m, err := readManifest(dir)
		if err != nil {
			return t, err
		}
		if m != nil {
			t.EVOPairs, t.Objective, t.Fronts = evoPairsOf(m.EVOPairs), m.Objective.Kind, frontSetsOf(m.Fronts)
		}
	}
	if found == 0 && isEstimatePlotDir(dir) {
		// estimate --plot writes figures only: its report is those figures.
		return t, nil
	}
	if found == 0 {
		names := make([]string, len(steps))
		for i, s := range steps {
			names[i] = s.name
		}
		return t, &noTableError{fmt.Sprintf("report %s: no result table (looked for %s)", dir, strings.Join(names, ", "))}
	}
	return t, nil
}

// estimateErrorCDF is the figure every `estimate --plot DIR` writes
// (WriteEstimatePlots), which marks DIR as an estimate output.
const estimateErrorCDF = "estimate_error_cdf.svg"

// isEstimatePlotDir reports whether dir holds the figures of estimate --plot.
func isEstimatePlotDir(dir string) bool {
	st, err := os.Stat(filepath.Join(dir, estimateErrorCDF))
	return err == nil && st.Mode().IsRegular()
}

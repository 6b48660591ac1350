package runreport

import "github.com/evogp/evogp/reports"

// Env is what the report needs to know about an output directory beyond
// what runfile declares (the manifest, provenance, best.json, config.yaml,
// which the report reads through runfile itself): where the command layer
// (experiment) puts a sweep's points.
type Env struct {
	// PointDir is the run directory of a sweep row inside the sweep
	// directory dir.
	PointDir func(dir string, row reports.SweepRow) string
}

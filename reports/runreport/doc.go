// Package runreport builds the HTML report of an evogp output directory
// (SPEC §18): an eval's summary, formulas and per-instance sections, a
// learn run's formula, test table, front and hall of fame, a sweep's
// points, a pressure study's table, every figure (rendered from the
// tables by Tables.Render, or inlined as written) and the provenance of
// the commands that wrote the directory. The page itself is
// reports/htmlreport's; what it shows is decided here.
//
// It takes tables (Tables, read by the caller, with the baseline names
// the summary picks its best among) and reads everything else a run
// writes through runfile, the one declaration of those files: best.json,
// config.yaml, hall_of_fame.csv, the manifest (evogp.json), provenance.json
// and the convergence plot. Env says only where experiment puts a sweep's
// points.
//
// # Imports
//
// runreport imports expr, runfile, reports/... and internal/...; never
// learn, the policies registry, experiment, launch or the command layer
// (internal/archtest).
package runreport

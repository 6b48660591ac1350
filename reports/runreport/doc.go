// Package runreport builds the HTML report of an evogp output directory
// (SPEC §18): an eval's summary, formulas and per-instance sections, a
// learn run's formula, test table, front and hall of fame, a sweep's
// points, a pressure study's table, every figure (rendered from the
// tables by Tables.Render, or inlined as written) and the provenance of
// the commands that wrote the directory. The page itself is
// reports/htmlreport's; what it shows is decided here.
//
// It takes tables (Tables, read by the caller) and reads the learner's
// files (best.json, config.yaml, hall_of_fame.csv, the convergence plot)
// itself. What the command layer writes (its manifest, provenance and
// sweep-point layout) it reads through Env, which experiment fills in,
// so that those types keep their one definition where they are written.
//
// # Imports
//
// runreport imports expr, learn (best.json's types), reports/... and
// internal/...; never experiment, launch or the command layer
// (internal/archtest).
package runreport

// Package runfile owns what a run writes: the file names of a learn run
// directory, the content of best.json (the chosen formula, both trees, the
// front, the test table, the reduced trees) with its one reader and one
// writer, the objective as a structured record, and the one definition of
// the best baseline.
//
// learn writes through it; formula, experiment and reports read through
// it, so a field added to best.json is added here once.
//
// It is a leaf: it imports only expr and internal/* (internal/archtest
// enforces it), never simcore, configs, learn or experiment.
package runfile

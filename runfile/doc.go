// Package runfile owns what a run writes: the file names of a learn run
// directory; best.json (the chosen formula, both trees, the front, the
// test table, the reduced trees) with its one reader and one writer;
// hall_of_fame.csv, front.parquet and config.yaml's bytes, each with its
// one reader and writer; the objective as a structured record; and the
// best baseline (BestBaseline, over internal/bestbaseline).
//
// learn writes through it; formula, experiment and scripts read through
// it, so a field added to best.json is added here once. Files written
// before runfile existed still read: testdata/main-3f1d7e5 holds main's
// outputs, and the tests read, check and write them back byte for byte.
//
// It is a leaf: it imports only expr and internal/* (internal/archtest
// enforces it), never simcore, configs, learn or experiment.
package runfile

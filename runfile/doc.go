// Package runfile owns what a run writes: the file names of a learn run
// directory; best.json (the chosen formula, both trees, the front, the
// test table, the reduced trees) with its one reader and one writer;
// hall_of_fame.csv, front.parquet and config.yaml's bytes, each with its
// one reader and writer; the manifest of an eval or pressure directory
// (evogp.json: EvalManifest, PressureManifest) and provenance.json; the
// objective as a structured record, the one way every new file stores
// it; a run's headline; and the best baseline (BestBaseline, over
// internal/bestbaseline).
//
// learn and experiment write through it; formula, experiment,
// reports/runreport and scripts read through it, so a field added to
// best.json or a manifest is added here once. Files written before
// runfile existed still read: testdata/main-3f1d7e5 holds main's
// best.json, hall and front files (read, checked and written back byte
// for byte), testdata/manifest/main-34e6822 main's manifests of the old
// layout.
//
// It is a leaf: it imports only expr and internal/* (internal/archtest
// enforces it), never simcore, configs, learn or experiment.
package runfile

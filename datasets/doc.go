// Package datasets produces and stores the problem instances that evogp
// learns from and is evaluated on (SPEC §3, §7, §9).
//
// It holds three things:
//
//   - The synthetic workload generator of the EVO-GP paper (Table II):
//     [Generate] draws instances of several clusters whose jobs follow the
//     21 production job types, with Poisson (or, for the load-pressure study,
//     uniform) arrivals. Every draw comes from a PCG stream seeded from
//     (seed, instance index), so the result does not depend on the order or
//     parallelism of generation.
//   - Dataset files: a dataset is a directory with clusters.parquet|csv,
//     jobs.parquet|csv and dataset.yaml (provenance and counts). [Write]
//     builds the directory atomically; [Read] accepts Parquet or CSV and
//     answers a bad file with one error naming the file, the data row, the
//     instance, the job and the problem ([FileError]).
//   - [Describe], a per-instance summary (size, GPU-hours, offered load,
//     job-type mix) for the `evogp data describe` command.
//
// A split (train, validation, test) is a dataset; [SplitSeed] derives a
// distinct generator seed per split so that splits drawn from one config
// seed never share instances.
//
// The package imports simcore (the instance model it produces) and
// internal/* (atomic output, trace-file helpers); never configs (which
// imports it: configs.Generator.Settings gives a GenSettings), learn,
// reports or expr.
package datasets

// Package hydracase imports the test cases of Hydra's public evaluation
// (Yang et al., IEEE TC 72(8), 2023; SPEC §13) into an evogp dataset of one
// instance.
//
// # The case format
//
// A CSV file whose header is
//
//	,job_name,norm_job_submit_time,ddl,<type>,<type>,…
//
// (the first column, unnamed, is a row index written by dataframe tools
// and is ignored). Each data row is one single-GPU job: its name, its
// submit time in seconds, its deadline ddl in seconds (`inf` = no
// deadline) and, per GPU-type column, its duration in seconds on that type
// (`inf`, empty or 0 = cannot run there).
//
// # What a row becomes
//
//   - The first [Options.Jobs] data rows are read (all when 0). The job id
//     is the 0-based data row; name is job_name; workers = gpus = 1;
//     priority 1.
//   - arrival = ⌊norm_job_submit_time⌋.
//   - deadline: with DDL "relative" (the default) ddl is measured from the
//     submit time, deadline = arrival + ⌊ddl⌋; with "absolute" it is the
//     simulator time ⌊ddl⌋. A negative ddl is an error; a deadline that
//     would be 0 becomes 1 s (0 means "none" in evogp).
//   - One cluster per entry of [Options.GPUs], in order, of that many
//     1-GPU nodes, gpu_type the entry's name; each name must be a column of
//     the file (other type columns are ignored). The job's duration on each
//     type is ⌊value⌋ (at least 1 s), kept in Job.TypeDurations (0 = cannot
//     run); Job.Duration is its fastest duration and its user cluster the
//     first cluster of its fastest type.
//   - A job that can run on none of the chosen types, a non-numeric cell,
//     NaN, or a missing column is an error naming the file, the row and the
//     column; nothing is written.
//
// The public case files carry no licence: never copy them into the
// repository. It imports datasets and simcore.
package hydracase

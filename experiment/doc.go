// Package experiment composes the other packages into the runs a
// researcher starts from the command line: evaluation of several
// schedulers on a dataset (Eval), the load-pressure study of paper §IV-D
// with its instance generator (Pressure), Hydra-style sweeps of learning
// runs (Sweep), and the output directories, result rows and provenance
// records they write. The command layer (cmd/evogp) only parses flags,
// calls these functions and prints their results; what a command does
// after its flags are parsed is a RunXCommand function in cmd_<command>.go,
// taking the command's options, a context and the writers it prints to.
//
// Schedulers are opaque here: a Policy holds a simcore.Scheduler built by
// PolicyBuilder through policies.Parse (a learned formula
// enters as the "formula" ranking, the evo allocator's parameters as the
// section "evo", from the config's evo.* keys and seed via EVOParams) and
// passes it to simcore.Simulate; nothing sets its fields, and only
// EVOPairs reads a list scheduler's composition, to pair each EVO
// scheduler with its MCT counterpart for paper Fig. 11b. Simulator
// options come from a config's sim and objective sections through
// configs.SimOptions, the one translation of a config into simcore.Options.
//
// A sweep or an eval is also a task directory (SPEC §15, package launch):
// N indexed, idempotent tasks that the local launcher runs on a worker
// pool, that Slurm runs as one job array and Kubernetes as an Indexed Job.
// experiment gives launch its two task kinds (tasks_run.go, tasks_sweep.go,
// tasks_eval.go); Collect merges their outputs into the files the local
// launcher writes.
//
// Output directories are built with atomicio.WriteDir: they appear complete
// or not at all. A directory written by evogp holds MarkerFile, and only
// such a directory may be replaced, and only when the caller asks for it
// (Force).
//
// # Imports
//
// experiment may import every evogp package except cmd: expr, simcore,
// datasets, learn, reports, configs, launch and internal/*. No evogp package other
// than cmd/evogp imports experiment. internal/archtest enforces this.
package experiment

// Package launch holds the task directories of SPEC §15 and their
// launchers: a sweep or eval directory of N indexed, idempotent tasks
// (tasks.go: the set, the specs, their states and configuration hashes),
// run by the local launcher on a worker pool (RunLocal), by Slurm as one
// job array (slurm.go, which calls sbatch, sacct and squeue through
// internal/slurmcli) or by Kubernetes as an Indexed Job (k8s.go, a
// manifest only), and their status as evogp status prints it
// (status_text.go).
//
// It knows the task kinds by name and the files each one writes, not what
// they do: the caller (experiment) checks a spec against its inputs and
// runs it, through the Preparer it hands to RunTask, and merges the
// outputs when every task is done (CheckAllDone).
//
// # Imports
//
// launch imports internal/* only; it must not import experiment, learn,
// configs or any package that knows schedulers (internal/archtest).
package launch

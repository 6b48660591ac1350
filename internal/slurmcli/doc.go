// Package slurmcli runs the Slurm commands evogp uses (sbatch, sacct,
// squeue, sinfo, scontrol) through one small interface, Runner, so that
// the job-array launcher (launch) and the deployer (deploy/slurm)
// call Slurm the same way and tests replace it with one fake, Fake.
//
// It knows nothing of what the commands print: callers ask for explicit
// output formats and parse them. It imports the standard library only.
package slurmcli

// Package slurm applies a learned scheduler to a live Slurm queue (SPEC
// §20, `evogp deploy slurm`). It reads the queue and the partitions with
// squeue and sinfo in explicit formats (snapshot.go, parse.go), builds the
// simulator's state from them (model.go: each managed partition is a
// cluster, running jobs are Jn jobs that end at start + time limit,
// pending jobs are queued since their eligible time), asks the learned
// scheduler for one operation through the very scheduler simulate runs
// (plan.go), and applies the result with scontrol update: the partition
// the routing tree chose and a priority that makes Slurm dispatch each
// partition's jobs in the ranking tree's order (apply.go), after
// recording every job's earlier partition and priority (record.go).
//
// It calls Slurm only through internal/slurmcli. It may import simcore,
// expr, formula, learn, experiment (to build the scheduler as simulate
// does) and internal packages; nothing but cmd/evogp imports it.
package slurm

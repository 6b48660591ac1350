// Package philly imports the Microsoft Philly trace (ATC'19, as shipped in
// the Pollux artifact: columns timestamp, duration, num_gpus, gpu_time,
// cluster) into evogp datasets (SPEC §3, §9). [Import] reads a CSV stream,
// [ImportFile] a file (and records its SHA-256); [ReadVCFile] reads the
// Helios node counts of the virtual clusters (helios_philly_vc.csv).
//
// # What a row becomes
//
// Every data row of the CSV is a job. Its id is the 0-based index of the
// data row in the file (the header is not a row, blank lines are not rows),
// so ids are stable whatever window or VCs are kept. The trace has no job
// id, user or priority: every job gets [Options.Priority] (default 1), and
// its name is the virtual-cluster (VC) id it was submitted to.
//
//   - timestamp `YYYY-MM-DD HH:MM:SS`, read as UTC, is the submit time. A job
//     belongs to the instance whose span holds its submit time; its arrival
//     is the submit time minus the span start, in whole seconds.
//   - duration (float seconds) is floored to an integer; a duration below
//     1 s becomes 1 s (SPEC §3 needs d ≥ 1) and is counted
//     ([Counts.RaisedToOneSecond]), never skipped.
//   - num_gpus g with G GPUs per node: g ≤ G → 1 worker of g GPUs. g > G →
//     r workers of w = g/r GPUs, r the smallest divisor of g with
//     r ≥ ⌈g/G⌉ (so w ≤ G): 16 → 2×8, 12 → 2×6, 24 → 3×8, 17 → 17×1. The
//     demand g is never changed. Such an r always exists (r = g, w = 1 at
//     worst), so no row is lost for want of a worker split.
//   - gpu_time, when the column is present, must equal duration × num_gpus
//     (relative tolerance 1e-9): a row where it does not is corrupt and is
//     skipped. It is otherwise unused.
//   - cluster, the VC id, picks the job's cluster: clusters are numbered
//     0..P−1 in the order of [Options.VCs]; with [Options.SingleCluster] all
//     kept VCs share cluster 0. The mapping is recorded in dataset.yaml
//     (`cluster.0: 6214e9`, …).
//
// # Errors and skipped rows
//
// Structural corruption is a hard error naming the input, line and field
// ([datasets.FileError]) and nothing is produced: a header lacking one of
// timestamp, duration, num_gpus, cluster (or naming a column twice), a row
// with a different number of fields than the header, or CSV syntax errors
// (a stray quote). Columns are found by name (case and surrounding spaces
// ignored), in any order; other columns are ignored and gpu_time is
// optional. A row that is well formed but cannot be used is skipped
// and counted under the FIRST reason that applies, in this order (see
// [Reason]):
//
//	bad_timestamp    timestamp not `YYYY-MM-DD HH:MM:SS`
//	bad_duration     not a number, NaN, ±Inf, negative, or above 2^53 s
//	bad_gpus         num_gpus not an integer (or above 2^31−1)
//	nonpositive_gpus num_gpus ≤ 0
//	bad_gpu_time     gpu_time not a number or ≠ duration × num_gpus
//	vc_not_kept      the VC is not in Options.VCs (an empty VC included)
//	outside_window   submit time outside [From, To)
//	outside_splits   inside the window but in none of the split windows
//	does_not_fit     the job cannot run on its cluster even when empty
//	                 (⌊G/w⌋·N < r)
//
// Each reason also records the line of its first row, so a researcher can
// look at an example. Instance spans that hold no job are not instances;
// they are counted per split. A split (or the whole import) with no job at
// all is an error: no empty dataset is ever written.
//
// # Windows, splits and instances
//
// [Options.Window] keeps submit times in [From, To). With no
// [Options.Splits] the result is one dataset; otherwise one dataset per
// split, each from its own window (windows lie inside the import window and
// do not overlap; the paper trains on two weeks and tests on the next two).
// A split's window is cut into consecutive instance spans of
// [Options.Span] starting at the window's start; the last span ends at the
// window's end and may be shorter. With [Options.Stride] below the span
// the spans overlap: the k-th starts at the window's start + k·Stride and
// holds the jobs submitted in [start, min(start + Span, window end)); starts
// go on until a span reaches the window's end (Stride = Span is the
// consecutive cut). A job then belongs to every instance whose span holds
// its submit time, with its arrival relative to each. An instance is named
// `philly-` + its span start (`philly-2017-10-01`, or
// `philly-2017-10-01T060000` when the start is not midnight UTC) and lists
// its jobs by (arrival, id).
//
// # Capacities
//
// Every cluster has [Options.GPUsPerNode] GPUs per node (default 8) and a
// node count chosen by one rule, recorded in dataset.yaml:
//
//   - fixed counts, [Options.Nodes] (VC → nodes; the Helios counts of
//     helios_philly_vc.csv, or explicit ones), or [Options.SingleNodes] for
//     the single cluster (the paper simulated its real trace on 100 nodes ×
//     8 GPUs). Jobs that do not fit are skipped (does_not_fit).
//
//   - fixed counts scaled by [Options.Scale] > 0: N' = ⌈N·s⌉, raised to the
//     smallest count on which every kept job of the cluster fits, so no job
//     is lost to the scaling (dataset.yaml says which were raised).
//
//   - derived from the offered load, [Options.Load] = ρ > 0: the smallest N
//     with Σ g·d / (N·G·T) ≤ ρ, where the sum runs over the cluster's kept
//     jobs of every split, d is the imported duration in seconds and T the
//     length of the import window [From, To) in seconds, and never below
//     what the cluster's largest job needs (nor below 1 node).
//
//   - per instance, [Options.PerInstance] with a load target ρ: every
//     instance gets its own node counts, the smallest N with
//     Σ g·d / (N·G·T) ≤ ρ over the instance's own jobs and span T (the
//     last, shorter span: its own length), never below what its largest
//     job needs (nor 1). Every job fits, so none is does_not_fit;
//     dataset.yaml gives the largest (cluster.P.nodes) and smallest
//     (cluster.P.min_nodes) count.
//
// Except per instance, capacities are chosen once over all splits, so
// train, validation and test instances see the same clusters.
package philly

package slurm

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/evogp/evogp/internal/atomicio"
	"github.com/evogp/evogp/internal/slurmcli"
)

// DefaultPriorityBase is the priority of the last-ranked job of a
// partition; the first of n jobs gets base + n − 1.
const DefaultPriorityBase = 1_000_000

// Options are the flags of `evogp deploy slurm`.
type Options struct {
	Run        string // learn run directory or best.json
	Omega      float64
	OmegaGiven bool
	Partitions []string
	Mapping    Mapping
	DryRun     bool
	Once       bool
	Interval   time.Duration // 0 with Once
	// SaveSnapshot keeps each run's raw outputs in this directory
	// (SaveSnapshot/0001, …, or the directory itself with Once).
	SaveSnapshot string
	// Snapshot replays a saved snapshot instead of asking Slurm; nothing
	// is changed.
	Snapshot     string
	DecisionsOut string
	Record       string // restore record; "" = DefaultRecordFile
	Restore      bool
	PriorityBase int64
	// Runner runs the Slurm commands (nil: slurmcli.Exec); Now is the
	// clock (nil: time.Now).
	Runner slurmcli.Runner
	Now    func() time.Time
}

// Help is the description of the command: its modes, safety rules and
// mappings.
func Help() string {
	return strings.Join([]string{
		"Applies a learned scheduler (a learn run directory or its best.json, one- or two-tree; a front member",
		"with --omega) to the pending jobs of the partitions named with --partitions (SPEC §20). One operation of",
		"the simulator at the current time, through the scheduler simulate runs, gives each pending job a partition",
		"(the routing tree's choice, scope as learned; a one-tree run routes by MCT, as it was scored) and a rank; deploy sets",
		"the partition and a priority (base + n − rank) with scontrol update so that Slurm dispatches each",
		"partition's jobs in the ranking's order.",
		"",
		"Modes: --dry-run (shadow mode) prints what would change and Slurm's own order; --once (default) runs once,",
		"--interval D repeats every D until interrupted; --save-snapshot DIR keeps the squeue/sinfo outputs read;",
		"--snapshot DIR replays them without Slurm (nothing is changed); --decisions-out FILE writes job,partition,rank.",
		"",
		"Safety: only pending jobs of --partitions are changed, never a running job or another partition; a run",
		"with an unchanged state changes nothing; a job that started or left between the read and the write is",
		"skipped with a note; a failed scontrol is reported and the others go on (exit status 1); every job's",
		"earlier partition and priority is written to --record before the first change, and --restore puts them back.",
		"",
		MappingHelp(),
	}, "\n")
}

func (o *Options) defaults() {
	if o.Runner == nil {
		o.Runner = slurmcli.Exec{}
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Record == "" {
		o.Record = DefaultRecordFile
	}
	if o.PriorityBase == 0 {
		o.PriorityBase = DefaultPriorityBase
	}
}

// Run is `evogp deploy slurm`: --restore, a replay of a snapshot, one
// run, or a loop every Interval until ctx ends.
func Run(ctx context.Context, o Options, stdout io.Writer) error {
	o.defaults()
	if o.Restore {
		return runRestore(ctx, o, stdout)
	}
	if o.Run == "" {
		return errors.New("deploy slurm: give RUN, a learn run directory or best.json (or --restore)")
	}
	if o.Interval < 0 || (o.Interval > 0 && o.Once) {
		return fmt.Errorf("deploy slurm: --once and --interval %v: choose one", o.Interval)
	}
	if o.Snapshot != "" && o.Interval > 0 {
		return errors.New("deploy slurm: --snapshot replays one saved state: --interval makes no sense with it")
	}
	if o.PriorityBase < 1 || o.PriorityBase > 1<<31 {
		return fmt.Errorf("deploy slurm: --priority-base %d: must be in 1..2^31", o.PriorityBase)
	}
	if err := o.Mapping.Validate(); err != nil {
		return err
	}
	l, err := LoadLearned(o.Run, o.Omega, o.OmegaGiven)
	if err != nil {
		return err
	}
	if o.Snapshot == "" && len(o.Partitions) == 0 {
		return errors.New("deploy slurm: --partitions is required: the partitions whose pending jobs deploy may change")
	}
	for n := 1; ; n++ {
		failed, err := once(ctx, o, l, n, stdout)
		if err != nil {
			if o.Interval == 0 {
				return err
			}
			fmt.Fprintf(stdout, "%s error: %v\n", o.Now().UTC().Format(time.RFC3339), err)
		}
		if o.Interval == 0 {
			if failed > 0 {
				return fmt.Errorf("deploy slurm: %d scontrol update(s) failed (see above); the other jobs were changed", failed)
			}
			return nil
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(o.Interval):
		}
	}
}

// once reads (or replays) the state, plans and applies; it returns the
// number of failed updates.
func once(ctx context.Context, o Options, l Learned, n int, w io.Writer) (int, error) {
	var snap Snapshot
	var err error
	replay := o.Snapshot != ""
	if replay {
		if snap, err = Load(o.Snapshot); err != nil {
			return 0, err
		}
		if len(o.Partitions) > 0 && !slices.Equal(o.Partitions, snap.Meta.Partitions) {
			return 0, fmt.Errorf("--partitions %s: the snapshot %s read %s", strings.Join(o.Partitions, ","), o.Snapshot, strings.Join(snap.Meta.Partitions, ","))
		}
	} else {
		if snap, err = Read(ctx, o.Runner, o.Partitions, o.Now()); err != nil {
			return 0, err
		}
		if o.SaveSnapshot != "" {
			dir := o.SaveSnapshot
			if o.Interval > 0 {
				dir = fmt.Sprintf("%s/%04d", o.SaveSnapshot, n)
			}
			if err := snap.Save(dir); err != nil {
				return 0, err
			}
		}
	}
	rec, err := ReadRecord(o.Record)
	if err != nil {
		return 0, err
	}
	md, err := Build(snap, o.Mapping, rec.UserPartitions())
	if err != nil {
		return 0, err
	}
	ds, err := Plan(ctx, md, l.Scheduler, l.Options, o.PriorityBase)
	if err != nil {
		return 0, err
	}
	dry := o.DryRun || replay
	changes, err := Apply(ctx, o.Runner, ds, o.Record, dry, time.Unix(md.Now, 0))
	if err != nil {
		return 0, err
	}
	if o.DecisionsOut != "" {
		if err := WriteDecisions(o.DecisionsOut, ds); err != nil {
			return 0, err
		}
	}
	mode := "live"
	switch {
	case replay:
		mode = "replay of " + o.Snapshot + " (nothing changed)"
	case o.DryRun:
		mode = "dry run (shadow mode: nothing changed)"
	}
	return Report(w, md, l, changes, mode), nil
}

// WriteDecisions writes job,partition,rank as CSV (atomically).
func WriteDecisions(path string, ds []Decision) error {
	return atomicio.WriteFile(path, func(w io.Writer) error {
		var b strings.Builder
		b.WriteString("job,partition,rank\n")
		for _, d := range ds {
			fmt.Fprintf(&b, "%d,%s,%d\n", d.Job.ID, csvField(d.Partition), d.Rank)
		}
		_, err := io.WriteString(w, b.String())
		return err
	})
}

func csvField(s string) string {
	if strings.ContainsAny(s, ",\"\n") {
		return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
	}
	return s
}

// Report prints one run: the scheduler, the changes, Slurm's own order
// against the plan's per partition, and the notes; it returns the number
// of failed changes.
func Report(w io.Writer, md *Model, l Learned, changes []Change, mode string) int {
	fmt.Fprintf(w, "%s deploy slurm, %s\n", time.Unix(md.Now, 0).UTC().Format(time.RFC3339), mode)
	fmt.Fprintf(w, "scheduler %s\n", l.Label)
	fmt.Fprintf(w, "partitions %s: %d pending jobs managed, %d running jobs modelled\n", strings.Join(md.Partitions, ","), len(md.Pending), len(md.Running))
	failed := 0
	if len(changes) > 0 {
		tw := tabwriter.NewWriter(w, 2, 8, 2, ' ', 0)
		fmt.Fprintln(tw, "job\tpartition\trank\tslurm rank\tpriority\taction")
		for _, c := range changes {
			part := c.Partition
			if c.Job.Partition != c.Partition {
				part = c.Job.Partition + " -> " + c.Partition
			}
			prio := strconv.FormatInt(c.Priority, 10)
			if c.Job.Priority != c.Priority {
				prio = strconv.FormatInt(c.Job.Priority, 10) + " -> " + prio
			}
			action := c.Action
			if c.Note != "" {
				action += ": " + c.Note
			}
			if c.Action == "failed" {
				failed++
			}
			fmt.Fprintf(tw, "%d\t%s\t%d\t%d\t%s\t%s\n", c.Job.ID, part, c.Rank, c.SlurmRank, prio, action)
		}
		tw.Flush()
	}
	// Slurm's own order against the plan's, per partition.
	for _, p := range md.Partitions {
		var plan, own []string
		type ranked struct {
			id   int64
			rank int
		}
		var slurm []ranked
		for _, c := range changes {
			if c.Partition == p {
				plan = append(plan, strconv.FormatInt(c.Job.ID, 10))
			}
			if c.Job.Partition == p {
				slurm = append(slurm, ranked{c.Job.ID, c.SlurmRank})
			}
		}
		slices.SortFunc(slurm, func(a, b ranked) int { return a.rank - b.rank })
		for _, s := range slurm {
			own = append(own, strconv.FormatInt(s.id, 10))
		}
		fmt.Fprintf(w, "partition %s: plan order [%s]; Slurm's own order [%s]\n", p, strings.Join(plan, " "), strings.Join(own, " "))
	}
	for _, n := range md.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	return failed
}

func runRestore(ctx context.Context, o Options, w io.Writer) error {
	rs, err := Restore(ctx, o.Runner, o.Record)
	if err != nil {
		return err
	}
	failed := 0
	for _, r := range rs {
		line := fmt.Sprintf("job %d: %s (partition %s, priority %d)", r.Job, r.Action, r.Partition, r.Priority)
		if r.Note != "" {
			line += ": " + r.Note
		}
		if r.Action == "failed" {
			failed++
		}
		fmt.Fprintln(w, line)
	}
	if failed > 0 {
		return fmt.Errorf("deploy slurm --restore: %d job(s) could not be restored; they stay in %s", failed, o.Record)
	}
	return nil
}

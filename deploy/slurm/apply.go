package slurm

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/evogp/evogp/internal/slurmcli"
)

// Change is what deploy did (or, in a dry run, would do) to one job.
type Change struct {
	Decision
	Action string // "unchanged", "would change", "changed", "skipped", "failed"
	Note   string
}

// NeedsChange reports whether the decision differs from the job's
// current partition or priority.
func (d Decision) NeedsChange() bool {
	return d.Partition != d.Job.Partition || d.Priority != d.Job.Priority
}

// liveJob is a job's state as squeue reports it right before a write.
type liveJob struct {
	State, Partition string
	Priority         int64
}

// liveFields are the fields of the re-check before writing.
var liveFields = []string{"JobID", "State", "Partition", "PriorityLong"}

// readLive asks squeue for the current state of jobs (missing: ended).
func readLive(ctx context.Context, run slurmcli.Runner, ids []int64) (map[int64]liveJob, error) {
	out := map[int64]liveJob{}
	if len(ids) == 0 {
		return out, nil
	}
	list := make([]string, len(ids))
	for i, id := range ids {
		list[i] = strconv.FormatInt(id, 10)
	}
	text, err := run.Run(ctx, "squeue", "--noheader", "--all", "--array", "--states=all", "--jobs="+strings.Join(list, ","), "--Format="+formatArg(liveFields))
	if err != nil {
		var ce *slurmcli.CommandError
		if errors.As(err, &ce) && strings.Contains(ce.Stderr, "Invalid job id") {
			return out, nil // every job has left the queue
		}
		return nil, fmt.Errorf("re-reading the jobs before changing them: %w", err)
	}
	nums, ls := lines(string(text))
	for k, line := range ls {
		v, err := splitFields("squeue", nums[k], line, len(liveFields))
		if err != nil {
			return nil, err
		}
		id, err1 := strconv.ParseInt(v[0], 10, 64)
		prio, err2 := strconv.ParseInt(v[3], 10, 64)
		if err1 != nil || err2 != nil {
			return nil, &ParseError{Command: "squeue", Line: nums[k], Why: fmt.Sprintf("job id %q or priority %q is not a number", v[0], v[3])}
		}
		out[id] = liveJob{State: v[1], Partition: v[2], Priority: prio}
	}
	return out, nil
}

// Apply carries out the decisions that change something: before any
// change it re-reads those jobs and skips (with a note) each that is no
// longer pending or was changed by someone else since the snapshot, then
// writes the restore record at recordPath (atomically), then runs
// scontrol update for each job in turn; a failed update is reported and
// the others go on. In a dry run nothing is run or written.
func Apply(ctx context.Context, run slurmcli.Runner, ds []Decision, recordPath string, dryRun bool, now time.Time) ([]Change, error) {
	changes := make([]Change, len(ds))
	var ids []int64
	for i, d := range ds {
		changes[i] = Change{Decision: d, Action: "unchanged"}
		if d.NeedsChange() {
			changes[i].Action = "would change"
			ids = append(ids, d.Job.ID)
		}
	}
	if dryRun || len(ids) == 0 {
		return changes, nil
	}
	live, err := readLive(ctx, run, ids)
	if err != nil {
		return nil, err
	}
	rec, err := ReadRecord(recordPath)
	if err != nil {
		return nil, err
	}
	var todo []int
	for i := range changes {
		c := &changes[i]
		if c.Action != "would change" {
			continue
		}
		l, ok := live[c.Job.ID]
		switch {
		case !ok:
			c.Action, c.Note = "skipped", "left the queue since it was read"
		case l.State != "PENDING":
			c.Action, c.Note = "skipped", "is "+l.State+" now, no longer pending"
		case l.Partition != c.Job.Partition || l.Priority != c.Job.Priority:
			c.Action, c.Note = "skipped", fmt.Sprintf("changed since it was read (partition %s, priority %d now)", l.Partition, l.Priority)
		default:
			rec.add(c.Job, now)
			todo = append(todo, i)
		}
	}
	if len(todo) == 0 {
		return changes, nil
	}
	if err := rec.Write(recordPath); err != nil {
		return nil, fmt.Errorf("no job was changed: %w", err)
	}
	for _, i := range todo {
		c := &changes[i]
		id := "JobId=" + strconv.FormatInt(c.Job.ID, 10)
		if c.Partition != c.Job.Partition {
			if _, err := run.Run(ctx, "scontrol", "update", id, "Partition="+c.Partition); err != nil {
				c.Action, c.Note = "failed", err.Error()
				continue
			}
		}
		if _, err := run.Run(ctx, "scontrol", "update", id, "Priority="+strconv.FormatInt(c.Priority, 10)); err != nil {
			c.Action, c.Note = "failed", err.Error()
			continue
		}
		c.Action = "changed"
	}
	return changes, nil
}

// Restored is what --restore did to one recorded job.
type Restored struct {
	RecordedJob
	Action string // "restored", "unchanged", "skipped", "failed"
	Note   string
}

// Restore puts back the recorded partition and priority of every
// recorded job that is still pending; jobs that ran or left are dropped
// from the record with a note, failed ones stay in it.
func Restore(ctx context.Context, run slurmcli.Runner, recordPath string) ([]Restored, error) {
	rec, err := ReadRecord(recordPath)
	if err != nil {
		return nil, err
	}
	if len(rec.Jobs) == 0 {
		return nil, fmt.Errorf("restore: no record at %s (nothing was changed, or it was restored already)", recordPath)
	}
	ids := make([]int64, len(rec.Jobs))
	for i, j := range rec.Jobs {
		ids[i] = j.Job
	}
	live, err := readLive(ctx, run, ids)
	if err != nil {
		return nil, err
	}
	var keep Record
	out := make([]Restored, len(rec.Jobs))
	for i, j := range rec.Jobs {
		r := &out[i]
		r.RecordedJob = j
		l, ok := live[j.Job]
		switch {
		case !ok:
			r.Action, r.Note = "skipped", "left the queue"
			continue
		case l.State != "PENDING":
			r.Action, r.Note = "skipped", "is "+l.State+" now"
			continue
		case l.Partition == j.Partition && l.Priority == j.Priority:
			r.Action = "unchanged"
			continue
		}
		id := "JobId=" + strconv.FormatInt(j.Job, 10)
		if l.Partition != j.Partition {
			if _, err := run.Run(ctx, "scontrol", "update", id, "Partition="+j.Partition); err != nil {
				r.Action, r.Note = "failed", err.Error()
				keep.Jobs = append(keep.Jobs, j)
				continue
			}
		}
		if _, err := run.Run(ctx, "scontrol", "update", id, "Priority="+strconv.FormatInt(j.Priority, 10)); err != nil {
			r.Action, r.Note = "failed", err.Error()
			keep.Jobs = append(keep.Jobs, j)
			continue
		}
		r.Action = "restored"
	}
	return out, keep.Write(recordPath)
}

package slurm

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sort"
	"time"

	"github.com/evogp/evogp/internal/atomicio"
)

// DefaultRecordFile is where the restore record is kept unless --record
// names another file.
const DefaultRecordFile = "evogp-deploy-record.json"

// Record is the restore record: each changed job's partition and
// priority before deploy first changed it. It is written (atomically)
// before any change, and --restore puts the values back.
type Record struct {
	Jobs []RecordedJob `json:"jobs"`
}

// RecordedJob is one job's earlier values.
type RecordedJob struct {
	Job       int64  `json:"job"`
	Partition string `json:"partition"`
	Priority  int64  `json:"priority"`
	Recorded  string `json:"recorded"` // when (RFC 3339, UTC)
}

// ReadRecord reads the record at path; a missing file is an empty record.
func ReadRecord(path string) (Record, error) {
	var r Record
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return r, nil
	}
	if err != nil {
		return r, fmt.Errorf("restore record: %w", err)
	}
	if err := json.Unmarshal(b, &r); err != nil {
		return r, fmt.Errorf("restore record %s: %w", path, err)
	}
	seen := map[int64]bool{}
	for i, j := range r.Jobs {
		if j.Job <= 0 || j.Partition == "" || j.Priority < 0 || seen[j.Job] {
			return r, fmt.Errorf("restore record %s: entry %d (job %d): needs a job id, a partition and a priority ≥ 0, once per job", path, i+1, j.Job)
		}
		seen[j.Job] = true
	}
	return r, nil
}

// Write writes the record atomically; an empty record removes the file.
func (r Record) Write(path string) error {
	if len(r.Jobs) == 0 {
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("restore record: %w", err)
		}
		return nil
	}
	sort.Slice(r.Jobs, func(a, b int) bool { return r.Jobs[a].Job < r.Jobs[b].Job })
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	if err := atomicio.WriteBytes(path, append(b, '\n')); err != nil {
		return fmt.Errorf("restore record: %w", err)
	}
	return nil
}

// Find is the recorded entry of a job.
func (r Record) Find(job int64) (RecordedJob, bool) {
	for _, j := range r.Jobs {
		if j.Job == job {
			return j, true
		}
	}
	return RecordedJob{}, false
}

// add records a job's values unless it is recorded already (the first
// values are the ones to restore).
func (r *Record) add(j QueueJob, now time.Time) {
	if _, ok := r.Find(j.ID); ok {
		return
	}
	r.Jobs = append(r.Jobs, RecordedJob{Job: j.ID, Partition: j.Partition, Priority: j.Priority, Recorded: now.UTC().Format(time.RFC3339)})
}

// UserPartitions maps each recorded job to the partition it was
// submitted to (its s_j).
func (r Record) UserPartitions() map[int64]string {
	out := map[int64]string{}
	for _, j := range r.Jobs {
		out[j.Job] = j.Partition
	}
	return out
}

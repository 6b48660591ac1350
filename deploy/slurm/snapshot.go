package slurm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/evogp/evogp/internal/atomicio"
	"github.com/evogp/evogp/internal/slurmcli"
)

// squeueFields are the squeue --Format fields read, in order, each
// followed by the separator "|". Comment is last because it is free text
// that may hold the separator itself.
var squeueFields = []string{
	"JobID", "Partition", "State", "SubmitTime", "EligibleTime", "StartTime", "TimeLimit",
	"NumNodes", "NumCPUs", "NumTasks", "tres-per-node", "tres-per-job", "PriorityLong", "QOS", "Reason", "Comment",
}

// sinfoFields are the sinfo --Format fields read: one line per node and
// partition.
var sinfoFields = []string{"PartitionName", "NodeList", "CPUs", "Gres", "StateLong"}

// formatArg is an explicit --Format value: each field with an empty
// width and the suffix "|", so no value is padded or cut.
func formatArg(fields []string) string {
	parts := make([]string, len(fields))
	for i, f := range fields {
		parts[i] = f + ":|"
	}
	return strings.Join(parts, ",")
}

// SqueueArgs are the arguments of the squeue call that reads the pending
// and running jobs of the partitions: no header, every partition (even
// hidden), one line per array element.
func SqueueArgs(partitions []string) []string {
	return []string{"--noheader", "--all", "--array", "--states=PENDING,RUNNING",
		"--partition=" + strings.Join(partitions, ","), "--Format=" + formatArg(squeueFields)}
}

// SinfoArgs are the arguments of the sinfo call that reads the nodes of
// the partitions, one line per node and partition.
func SinfoArgs(partitions []string) []string {
	return []string{"--noheader", "--Node", "--partition=" + strings.Join(partitions, ","),
		"--Format=" + formatArg(sinfoFields)}
}

// Snapshot is what one deploy run read from Slurm: the raw outputs of
// squeue and sinfo and the time they were read. Saved (Save) it replays a
// decision without Slurm (Load).
type Snapshot struct {
	Meta   SnapshotMeta
	Squeue string // squeue's stdout
	Sinfo  string // sinfo's stdout
}

// SnapshotMeta is a snapshot's meta.json.
type SnapshotMeta struct {
	// Now is the time the queue was read (Unix seconds): the operation
	// time t.
	Now int64 `json:"now"`
	// UTCOffset is the offset (s) of the zone Slurm printed its times in
	// (the zone of the reading process), so a replay elsewhere reads them
	// the same.
	UTCOffset  int      `json:"utc_offset"`
	Partitions []string `json:"partitions"`
	Squeue     []string `json:"squeue"` // the command lines run
	Sinfo      []string `json:"sinfo"`
}

// Files of a saved snapshot.
const (
	snapshotMeta   = "meta.json"
	snapshotSqueue = "squeue.txt"
	snapshotSinfo  = "sinfo.txt"
)

// Read runs squeue and sinfo for the partitions and returns the snapshot.
func Read(ctx context.Context, run slurmcli.Runner, partitions []string, now time.Time) (Snapshot, error) {
	_, off := now.Zone()
	s := Snapshot{Meta: SnapshotMeta{Now: now.Unix(), UTCOffset: off, Partitions: partitions,
		Squeue: append([]string{"squeue"}, SqueueArgs(partitions)...),
		Sinfo:  append([]string{"sinfo"}, SinfoArgs(partitions)...)}}
	out, err := run.Run(ctx, "squeue", SqueueArgs(partitions)...)
	if err != nil {
		return s, fmt.Errorf("reading the queue: %w", err)
	}
	s.Squeue = string(out)
	if out, err = run.Run(ctx, "sinfo", SinfoArgs(partitions)...); err != nil {
		return s, fmt.Errorf("reading the partitions: %w", err)
	}
	s.Sinfo = string(out)
	return s, nil
}

// Save writes the snapshot into dir (created), each file atomically.
func (s Snapshot) Save(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("snapshot: %w", err)
	}
	meta, err := json.MarshalIndent(s.Meta, "", "  ")
	if err != nil {
		return err
	}
	for name, b := range map[string][]byte{snapshotSqueue: []byte(s.Squeue), snapshotSinfo: []byte(s.Sinfo), snapshotMeta: append(meta, '\n')} {
		if err := atomicio.WriteBytes(filepath.Join(dir, name), b); err != nil {
			return fmt.Errorf("snapshot: %w", err)
		}
	}
	return nil
}

// Load reads a snapshot saved by Save.
func Load(dir string) (Snapshot, error) {
	var s Snapshot
	b, err := os.ReadFile(filepath.Join(dir, snapshotMeta))
	if errors.Is(err, fs.ErrNotExist) {
		return s, fmt.Errorf("%s is not a deploy snapshot (no %s; write one with --save-snapshot)", dir, snapshotMeta)
	}
	if err != nil {
		return s, fmt.Errorf("snapshot: %w", err)
	}
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s.Meta); err != nil {
		return s, fmt.Errorf("%s: %w", filepath.Join(dir, snapshotMeta), err)
	}
	if s.Meta.Now <= 0 || len(s.Meta.Partitions) == 0 {
		return s, fmt.Errorf("%s: \"now\" and \"partitions\" are required", filepath.Join(dir, snapshotMeta))
	}
	for _, f := range []struct {
		name string
		dst  *string
	}{{snapshotSqueue, &s.Squeue}, {snapshotSinfo, &s.Sinfo}} {
		b, err := os.ReadFile(filepath.Join(dir, f.name))
		if err != nil {
			return s, fmt.Errorf("snapshot: %w", err)
		}
		*f.dst = string(b)
	}
	return s, nil
}

// Zone is the zone Slurm's times are read in.
func (m SnapshotMeta) Zone() *time.Location { return time.FixedZone("slurm", m.UTCOffset) }

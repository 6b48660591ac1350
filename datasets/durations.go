package datasets

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/parquet-go/parquet-go"

	"github.com/evogp/evogp/simcore"
)

// DurationsTable is the optional third table of a dataset (SPEC §12):
// durations.parquet or durations.csv, one row per (instance, job, gpu_type)
// with the job's duration on that GPU type in seconds; 0 or empty (null)
// means the job cannot run on that type. Read puts the rows into
// simcore.Job.TypeDurations; Write writes the table only when some job has
// per-type durations.
const DurationsTable = "durations"

// durationRec is one row of the durations table, as read, before checks.
// Its tags are the Parquet schema Write produces; a duration of 0 (cannot
// run) is stored as null.
type durationRec struct {
	Instance string `parquet:"instance,dict"`
	Job      int64  `parquet:"job"`
	GPUType  string `parquet:"gpu_type,dict"`
	Duration int64  `parquet:"duration,optional"`
}

type nullableDurationRec struct {
	Instance *string `parquet:"instance,optional"`
	Job      *int64  `parquet:"job,optional"`
	GPUType  *string `parquet:"gpu_type,optional"`
	Duration *int64  `parquet:"duration,optional"`
}

func (n nullableDurationRec) rec() (durationRec, error) {
	r := durationRec{Instance: deref(n.Instance), Job: deref(n.Job), GPUType: deref(n.GPUType), Duration: deref(n.Duration)}
	err := nullErr([]string{"instance", "job", "gpu_type"}, n.Instance == nil, n.Job == nil, n.GPUType == nil)
	if err != nil && r.Instance != "" {
		err = fmt.Errorf("instance %q: %w", r.Instance, err)
	}
	return r, err
}

func durationColumns() []column {
	return []column{
		{name: "instance"},
		{name: "job", integer: true},
		{name: "gpu_type"},
		{name: "duration", optional: true, integer: true},
	}
}

// durationRows lists the per-type durations of every job, in instance and
// job order, types sorted by name; entries ≤ 0 become 0 (cannot run).
func durationRows(insts []simcore.Instance, each func(durationRec) error) error {
	for _, in := range insts {
		for _, j := range in.Jobs {
			for _, t := range slices.Sorted(maps.Keys(j.TypeDurations)) {
				if err := each(durationRec{Instance: in.Name, Job: j.ID, GPUType: t, Duration: max(j.TypeDurations[t], 0)}); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func hasTypeDurations(insts []simcore.Instance) bool {
	for _, in := range insts {
		for _, j := range in.Jobs {
			if len(j.TypeDurations) > 0 {
				return true
			}
		}
	}
	return false
}

// checkTypeDurations applies the readers' rules to the per-type durations
// of an instance: every type is the gpu_type of one of its clusters and
// every duration is at most maxTime.
func checkTypeDurations(in *simcore.Instance) error {
	types := map[string]bool{}
	for _, c := range in.Clusters {
		types[c.GPUType] = true
	}
	for _, j := range in.Jobs {
		for _, t := range slices.Sorted(maps.Keys(j.TypeDurations)) {
			if t == "" || !types[t] {
				return fmt.Errorf("instance %q: job %d: duration for unknown gpu_type %q (the instance's types: %s)", in.Name, j.ID, t, typeList(in))
			}
			if j.TypeDurations[t] > maxTime {
				return fmt.Errorf("instance %q: job %d: duration on %s above %d s", in.Name, j.ID, t, maxTime)
			}
		}
	}
	return nil
}

// typeList names the non-empty GPU types of an instance's clusters.
func typeList(in *simcore.Instance) string {
	var ts []string
	for _, c := range in.Clusters {
		if c.GPUType != "" && !slices.Contains(ts, c.GPUType) {
			ts = append(ts, c.GPUType)
		}
	}
	if len(ts) == 0 {
		return "none"
	}
	slices.Sort(ts)
	return strings.Join(ts, ", ")
}

func writeDurationsCSV(w io.Writer, insts []simcore.Instance) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(columnNames(durationColumns())); err != nil {
		return err
	}
	rec := make([]string, 4)
	err := durationRows(insts, func(r durationRec) error {
		rec[0], rec[1], rec[2], rec[3] = r.Instance, strconv.FormatInt(r.Job, 10), r.GPUType, ""
		if r.Duration > 0 {
			rec[3] = strconv.FormatInt(r.Duration, 10)
		}
		return cw.Write(rec)
	})
	if err != nil {
		return err
	}
	cw.Flush()
	return cw.Error()
}

func writeDurationsParquet(w io.Writer, insts []simcore.Instance) error {
	pw := parquet.NewGenericWriter[durationRec](w, parquet.Compression(&parquet.Snappy))
	rows := make([]durationRec, 0, parquetBatch)
	err := durationRows(insts, func(r durationRec) error {
		rows = append(rows, r)
		if len(rows) == cap(rows) {
			if _, err := pw.Write(rows); err != nil {
				return err
			}
			rows = rows[:0]
		}
		return nil
	})
	if err != nil {
		return err
	}
	if _, err := pw.Write(rows); err != nil {
		return err
	}
	return pw.Close()
}

func readDurationsCSV(path string, b *builder) error {
	t, f, err := openCSV(path, durationColumns())
	if err != nil {
		return err
	}
	defer f.Close()
	for {
		if err := t.next(); errors.Is(err, io.EOF) {
			return nil
		} else if err != nil {
			return err
		}
		var r durationRec
		r.Instance, r.GPUType = t.str(0), t.str(2)
		if err := t.ints(instanceWhere(r.Instance), []int{1}, []*int64{&r.Job}); err != nil {
			return err
		}
		where := fmt.Sprintf("instance %q: job %d", r.Instance, r.Job)
		if err := t.ints(where, []int{3}, []*int64{&r.Duration}); err != nil {
			return err
		}
		if err := b.addDuration(path, t.pos(), r); err != nil {
			return err
		}
	}
}

func readDurationsParquet(path string, b *builder) error {
	pf, f, nullable, err := openParquet(path, durationColumns())
	if err != nil {
		return err
	}
	defer f.Close()
	add := func(at pos, r durationRec) error { return b.addDuration(path, at, r) }
	if nullable {
		return readParquetRows(path, pf, nullableDurationRec.rec, add)
	}
	return readParquetRows(path, pf, same[durationRec], add)
}

// addDuration checks one durations row against the instances and jobs read
// so far and records it in the job's TypeDurations.
func (b *builder) addDuration(file string, at pos, r durationRec) error {
	if err := b.tick(file); err != nil {
		return err
	}
	if err := checkName("instance", r.Instance, true); err != nil {
		return at.err(file, err)
	}
	i, ok := b.index[r.Instance]
	if !ok {
		return at.err(file, fmt.Errorf("instance %q: job %d: unknown instance (not in the clusters table)", r.Instance, r.Job))
	}
	where := func(err error) error {
		return at.err(file, fmt.Errorf("instance %q: job %d: gpu_type %q: %w", r.Instance, r.Job, r.GPUType, err))
	}
	row, ok := b.jobIDs[i][r.Job]
	if !ok {
		return where(errors.New("unknown job (not in the jobs table)"))
	}
	if err := checkName("gpu_type", r.GPUType, true); err != nil {
		return where(err)
	}
	in := &b.insts[i]
	if !slices.ContainsFunc(in.Clusters, func(c simcore.Cluster) bool { return c.GPUType == r.GPUType }) {
		return where(fmt.Errorf("unknown gpu_type (the instance's types: %s)", typeList(in)))
	}
	d, err := checkTime("duration", r.Duration)
	if err != nil {
		return where(err)
	}
	if d < 0 {
		return where(fmt.Errorf("duration = %d, must be ≥ 1 s (or 0/empty: cannot run on this type)", d))
	}
	// Rows are appended to b.jobs one per jobs-table row, so row k is b.jobs[k−1].
	j := &b.jobs[row-1]
	if _, dup := j.TypeDurations[r.GPUType]; dup {
		return where(errors.New("duplicate row for this job and type"))
	}
	if j.TypeDurations == nil {
		j.TypeDurations = map[string]int64{}
	}
	j.TypeDurations[r.GPUType] = d
	return nil
}

// optionalTablePath is tablePath for an optional table: "" when neither
// file exists.
func optionalTablePath(dir, name string) (string, error) {
	for _, ext := range []string{FormatParquet, FormatCSV} {
		if _, err := os.Stat(filepath.Join(dir, name+"."+ext)); err == nil || !errors.Is(err, fs.ErrNotExist) {
			return tablePath(dir, name)
		}
	}
	return "", nil
}

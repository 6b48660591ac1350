package datasets

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/parquet-go/parquet-go"

	"github.com/evogp/evogp/simcore"
)

// Parquet layout: one flat schema per table (clusterRec, jobRec): integer
// columns INT64 and required, instance a dictionary-encoded string, the
// optional columns nullable (null = none), Snappy compression. Readers also
// accept INT32 integer columns, nullable required columns (a null there is a
// row error) and absent optional columns; any other column type, and any
// unknown column, is an error naming the column.

// parquetBatch is the number of rows read or written per call.
const parquetBatch = 4096

func writeClustersParquet(w io.Writer, insts []simcore.Instance) error {
	pw := parquet.NewGenericWriter[clusterRec](w, parquet.Compression(&parquet.Snappy))
	rows := make([]clusterRec, 0, parquetBatch)
	for _, in := range insts {
		for p, c := range in.Clusters {
			rows = append(rows, clusterRec{Instance: in.Name, Cluster: int64(p), Nodes: int64(c.Nodes), GPUsPerNode: int64(c.GPUsPerNode), GPUType: c.GPUType})
			if len(rows) == cap(rows) {
				if _, err := pw.Write(rows); err != nil {
					return err
				}
				rows = rows[:0]
			}
		}
	}
	if _, err := pw.Write(rows); err != nil {
		return err
	}
	return pw.Close()
}

func writeJobsParquet(w io.Writer, insts []simcore.Instance) error {
	pw := parquet.NewGenericWriter[jobRec](w, parquet.Compression(&parquet.Snappy))
	rows := make([]jobRec, 0, parquetBatch)
	for _, in := range insts {
		for _, j := range in.Jobs {
			rows = append(rows, jobRec{
				Instance: in.Name, Job: j.ID, Arrival: j.Arrival, Cluster: int64(j.Cluster),
				Duration: j.Duration, Workers: int64(j.Workers), GPUs: int64(j.GPUs),
				Priority: int64(j.Priority), Deadline: j.Deadline, Name: j.Name, Estimate: j.Estimate,
			})
			if len(rows) == cap(rows) {
				if _, err := pw.Write(rows); err != nil {
					return err
				}
				rows = rows[:0]
			}
		}
	}
	if _, err := pw.Write(rows); err != nil {
		return err
	}
	return pw.Close()
}

// nullableClusterRec and nullableJobRec read files whose required columns
// are declared nullable (as dataframe tools write them), so that a null is
// seen rather than read as 0.
type nullableClusterRec struct {
	Instance    *string `parquet:"instance,optional"`
	Cluster     *int64  `parquet:"cluster,optional"`
	Nodes       *int64  `parquet:"nodes,optional"`
	GPUsPerNode *int64  `parquet:"gpus_per_node,optional"`
	GPUType     *string `parquet:"gpu_type,optional"`
}

type nullableJobRec struct {
	Instance *string `parquet:"instance,optional"`
	Job      *int64  `parquet:"job,optional"`
	Arrival  *int64  `parquet:"arrival,optional"`
	Cluster  *int64  `parquet:"cluster,optional"`
	Duration *int64  `parquet:"duration,optional"`
	Workers  *int64  `parquet:"workers,optional"`
	GPUs     *int64  `parquet:"gpus,optional"`
	Priority *int64  `parquet:"priority,optional"`
	Deadline *int64  `parquet:"deadline,optional"`
	Name     *string `parquet:"name,optional"`
	Estimate *int64  `parquet:"estimate,optional"`
}

// nullErr names the first required column that is null in a row.
func nullErr(names []string, ptrs ...bool) error {
	for i, isNil := range ptrs {
		if isNil {
			return fmt.Errorf("column %s: missing value (null)", names[i])
		}
	}
	return nil
}

func deref[T any](p *T) T {
	var z T
	if p == nil {
		return z
	}
	return *p
}

func (n nullableClusterRec) rec() (clusterRec, error) {
	r := clusterRec{Instance: deref(n.Instance), Cluster: deref(n.Cluster), Nodes: deref(n.Nodes), GPUsPerNode: deref(n.GPUsPerNode), GPUType: deref(n.GPUType)}
	err := nullErr([]string{"instance", "cluster", "nodes", "gpus_per_node"},
		n.Instance == nil, n.Cluster == nil, n.Nodes == nil, n.GPUsPerNode == nil)
	if err != nil && r.Instance != "" {
		err = fmt.Errorf("instance %q: %w", r.Instance, err)
	}
	return r, err
}

func (n nullableJobRec) rec() (jobRec, error) {
	r := jobRec{
		Instance: deref(n.Instance), Job: deref(n.Job), Arrival: deref(n.Arrival), Cluster: deref(n.Cluster),
		Duration: deref(n.Duration), Workers: deref(n.Workers), GPUs: deref(n.GPUs), Priority: deref(n.Priority),
		Deadline: deref(n.Deadline), Name: deref(n.Name), Estimate: deref(n.Estimate),
	}
	err := nullErr([]string{"instance", "job", "arrival", "cluster", "duration", "workers", "gpus", "priority"},
		n.Instance == nil, n.Job == nil, n.Arrival == nil, n.Cluster == nil, n.Duration == nil, n.Workers == nil, n.GPUs == nil, n.Priority == nil)
	if err != nil && r.Instance != "" {
		if n.Job != nil {
			err = fmt.Errorf("instance %q: job %d: %w", r.Instance, r.Job, err)
		} else {
			err = fmt.Errorf("instance %q: %w", r.Instance, err)
		}
	}
	return r, err
}

// openParquet opens path and checks its schema against cols. It reports
// whether some required column is nullable in the file.
func openParquet(path string, cols []column) (*parquet.File, *os.File, bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, false, fmt.Errorf("read dataset: %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, false, fmt.Errorf("read dataset: %w", err)
	}
	pf, err := openParquetFile(f, st.Size())
	if err != nil {
		f.Close()
		return nil, nil, false, &FileError{File: path, Err: fmt.Errorf("not a readable Parquet file: %w", err)}
	}
	nullable, err := checkParquetSchema(pf.Schema(), cols)
	if err != nil {
		f.Close()
		return nil, nil, false, &FileError{File: path, Err: err}
	}
	return pf, f, nullable, nil
}

// openParquetFile opens the file, turning a panic of the decoder on a
// corrupt footer into an error.
func openParquetFile(r io.ReaderAt, size int64) (pf *parquet.File, err error) {
	defer func() {
		if p := recover(); p != nil {
			pf, err = nil, fmt.Errorf("corrupt file: %v", p)
		}
	}()
	return parquet.OpenFile(r, size)
}

func checkParquetSchema(s *parquet.Schema, cols []column) (nullable bool, err error) {
	want := map[string]column{}
	for _, c := range cols {
		want[c.name] = c
	}
	have := map[string]bool{}
	for _, f := range s.Fields() {
		name := f.Name()
		c, ok := want[name]
		if !ok {
			return false, fmt.Errorf("unknown column %q (want %s)", name, strings.Join(columnNames(cols), ","))
		}
		have[name] = true
		if !f.Leaf() || f.Repeated() {
			return false, fmt.Errorf("column %s: must be a plain (non-nested, non-repeated) column", name)
		}
		kind := f.Type().Kind()
		if c.integer && kind != parquet.Int32 && kind != parquet.Int64 {
			return false, fmt.Errorf("column %s: has type %v, want an integer (INT32 or INT64)", name, kind)
		}
		if !c.integer && kind != parquet.ByteArray {
			return false, fmt.Errorf("column %s: has type %v, want a string (BYTE_ARRAY)", name, kind)
		}
		if f.Optional() && !c.optional {
			nullable = true
		}
	}
	for _, c := range cols {
		if !c.optional && !have[c.name] {
			return false, fmt.Errorf("missing column %q", c.name)
		}
	}
	return nullable, nil
}

// readParquetRows reads every row of pf as a T, converts it with conv and
// hands it to add with its 1-based row number. A panic of the decoder on
// corrupt pages becomes an error naming the file.
func readParquetRows[T, R any](path string, pf *parquet.File, conv func(T) (R, error), add func(pos, R) error) (err error) {
	row := 0
	defer func() {
		if p := recover(); p != nil {
			err = &FileError{File: path, Row: row + 1, Err: fmt.Errorf("corrupt file: %v", p)}
		}
	}()
	r := parquet.NewGenericReader[T](pf)
	defer r.Close()
	buf := make([]T, parquetBatch)
	for {
		n, rerr := r.Read(buf)
		// Read may return rows together with io.EOF: handle the rows first.
		for _, t := range buf[:n] {
			row++
			rec, cerr := conv(t)
			if cerr != nil {
				return &FileError{File: path, Row: row, Err: cerr}
			}
			if aerr := add(pos{row: row}, rec); aerr != nil {
				return aerr
			}
		}
		if errors.Is(rerr, io.EOF) {
			return nil
		}
		if rerr != nil {
			return &FileError{File: path, Row: row + 1, Err: rerr}
		}
		if n == 0 {
			return &FileError{File: path, Row: row + 1, Err: errors.New("reader made no progress")}
		}
	}
}

func same[T any](t T) (T, error) { return t, nil }

func readClustersParquet(path string, b *builder) error {
	pf, f, nullable, err := openParquet(path, clusterColumns())
	if err != nil {
		return err
	}
	defer f.Close()
	add := func(at pos, r clusterRec) error { return b.addCluster(path, at, r) }
	if nullable {
		return readParquetRows(path, pf, nullableClusterRec.rec, add)
	}
	return readParquetRows(path, pf, same[clusterRec], add)
}

func readJobsParquet(path string, b *builder) error {
	pf, f, nullable, err := openParquet(path, jobColumns())
	if err != nil {
		return err
	}
	defer f.Close()
	add := func(at pos, r jobRec) error { return b.addJob(path, at, r) }
	// Size the row buffers from the footer's row count, capped so that a
	// corrupt footer cannot demand a huge allocation.
	hint := int(min(max(pf.NumRows(), 0), 1<<20))
	b.jobs = make([]simcore.Job, 0, hint)
	b.owner = make([]int32, 0, hint)
	if nullable {
		return readParquetRows(path, pf, nullableJobRec.rec, add)
	}
	return readParquetRows(path, pf, same[jobRec], add)
}

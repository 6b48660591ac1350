package datasets

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/evogp/evogp/simcore"
)

// CSV layout: a header line naming the columns (any order; the optional
// columns gpu_type, deadline and name may be absent; unknown or repeated
// columns are errors, since a misspelt optional column would otherwise be
// silently ignored), then one line per row. Empty optional cells mean
// "none". A UTF-8 byte-order mark before the header is ignored.

func writeClustersCSV(w io.Writer, insts []simcore.Instance) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(columnNames(clusterColumns())); err != nil {
		return err
	}
	rec := make([]string, 5)
	for _, in := range insts {
		for p, c := range in.Clusters {
			rec[0] = in.Name
			rec[1] = strconv.Itoa(p)
			rec[2] = strconv.Itoa(c.Nodes)
			rec[3] = strconv.Itoa(c.GPUsPerNode)
			rec[4] = c.GPUType
			if err := cw.Write(rec); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

func writeJobsCSV(w io.Writer, insts []simcore.Instance) error {
	cw := csv.NewWriter(w)
	// The estimate column is written only when some job has an estimate,
	// so datasets without estimates keep their ten columns.
	cols := columnNames(jobColumns())
	if !anyEstimate(insts) {
		cols = cols[:len(cols)-1]
	}
	if err := cw.Write(cols); err != nil {
		return err
	}
	rec := make([]string, len(cols))
	for _, in := range insts {
		for _, j := range in.Jobs {
			rec[0] = in.Name
			rec[1] = strconv.FormatInt(j.ID, 10)
			rec[2] = strconv.FormatInt(j.Arrival, 10)
			rec[3] = strconv.Itoa(j.Cluster)
			rec[4] = strconv.FormatInt(j.Duration, 10)
			rec[5] = strconv.Itoa(j.Workers)
			rec[6] = strconv.Itoa(j.GPUs)
			rec[7] = strconv.Itoa(j.Priority)
			rec[8] = ""
			if j.Deadline != 0 {
				rec[8] = strconv.FormatInt(j.Deadline, 10)
			}
			rec[9] = j.Name
			if len(rec) > 10 {
				rec[10] = ""
				if j.Estimate != 0 {
					rec[10] = strconv.FormatInt(j.Estimate, 10)
				}
			}
			if err := cw.Write(rec); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

func columnNames(cols []column) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = c.name
	}
	return out
}

// csvTable reads a CSV table row by row, giving each cell by column name.
type csvTable struct {
	file string
	r    *csv.Reader
	idx  []int // idx[k] = field index of column k of cols, or −1 if absent
	cols []column
	rec  []string
	row  int
	line int
}

func openCSV(path string, cols []column) (*csvTable, *os.File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("read dataset: %w", err)
	}
	t := &csvTable{file: path, cols: cols, r: csv.NewReader(f)}
	t.r.ReuseRecord = true
	header, err := t.r.Read()
	if errors.Is(err, io.EOF) {
		f.Close()
		return nil, nil, &FileError{File: path, Err: errors.New("empty file: no header line")}
	}
	if err != nil {
		f.Close()
		return nil, nil, &FileError{File: path, Err: err}
	}
	t.r.FieldsPerRecord = len(header)
	byName := map[string]int{}
	for i, h := range header {
		h = strings.TrimSpace(h)
		if i == 0 {
			h = strings.TrimPrefix(h, "\ufeff")
		}
		if _, dup := byName[h]; dup {
			f.Close()
			return nil, nil, &FileError{File: path, Line: 1, Err: fmt.Errorf("column %q appears twice in the header", h)}
		}
		byName[h] = i
	}
	t.idx = make([]int, len(cols))
	for k, c := range cols {
		i, ok := byName[c.name]
		if !ok {
			if !c.optional {
				f.Close()
				return nil, nil, &FileError{File: path, Line: 1, Err: fmt.Errorf("missing column %q (header has %s)", c.name, strings.Join(header, ","))}
			}
			i = -1
		}
		t.idx[k] = i
		delete(byName, c.name)
	}
	for h := range byName {
		f.Close()
		return nil, nil, &FileError{File: path, Line: 1, Err: fmt.Errorf("unknown column %q (want %s)", h, strings.Join(columnNames(cols), ","))}
	}
	return t, f, nil
}

// next reads the following row; it returns io.EOF after the last.
func (t *csvTable) next() error {
	rec, err := t.r.Read()
	if errors.Is(err, io.EOF) {
		return io.EOF
	}
	if err != nil {
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			return &FileError{File: t.file, Row: t.row + 1, Line: pe.Line, Err: pe.Err}
		}
		return &FileError{File: t.file, Row: t.row + 1, Err: err}
	}
	t.rec = rec
	t.row++
	t.line, _ = t.r.FieldPos(0)
	return nil
}

func (t *csvTable) pos() pos { return pos{row: t.row, line: t.line} }

// str is the cell of column k ("" when the column is absent).
func (t *csvTable) str(k int) string {
	if t.idx[k] < 0 {
		return ""
	}
	return t.rec[t.idx[k]]
}

// int is the integer cell of column k; an absent or empty optional cell is 0.
func (t *csvTable) int(k int) (int64, error) {
	s := t.str(k)
	if t.cols[k].optional && strings.TrimSpace(s) == "" {
		return 0, nil
	}
	return parseInt(t.cols[k].name, s)
}

// ints reads the integer cells of columns ks into dst; an error is
// prefixed with where (the row's instance and job), when known.
func (t *csvTable) ints(where string, ks []int, dst []*int64) error {
	for n, k := range ks {
		v, err := t.int(k)
		if err != nil {
			if where != "" {
				err = fmt.Errorf("%s: %w", where, err)
			}
			return &FileError{File: t.file, Row: t.row, Line: t.line, Err: err}
		}
		*dst[n] = v
	}
	return nil
}

func readClustersCSV(path string, b *builder) error {
	t, f, err := openCSV(path, clusterColumns())
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
		var r clusterRec
		r.Instance, r.GPUType = t.str(0), t.str(4)
		if err := t.ints(instanceWhere(r.Instance), []int{1, 2, 3}, []*int64{&r.Cluster, &r.Nodes, &r.GPUsPerNode}); err != nil {
			return err
		}
		if err := b.addCluster(path, t.pos(), r); err != nil {
			return err
		}
	}
}

func readJobsCSV(path string, b *builder) error {
	t, f, err := openCSV(path, jobColumns())
	if err != nil {
		return err
	}
	defer f.Close()
	id, ks := []int{1}, []int{2, 3, 4, 5, 6, 7, 8, 10}
	for {
		if err := t.next(); errors.Is(err, io.EOF) {
			return nil
		} else if err != nil {
			return err
		}
		var r jobRec
		r.Instance, r.Name = t.str(0), t.str(9)
		if err := t.ints(instanceWhere(r.Instance), id, []*int64{&r.Job}); err != nil {
			return err
		}
		where := fmt.Sprintf("instance %q: job %d", r.Instance, r.Job)
		if err := t.ints(where, ks, []*int64{&r.Arrival, &r.Cluster, &r.Duration, &r.Workers, &r.GPUs, &r.Priority, &r.Deadline, &r.Estimate}); err != nil {
			return err
		}
		if err := b.addJob(path, t.pos(), r); err != nil {
			return err
		}
	}
}

func instanceWhere(instance string) string {
	if instance == "" {
		return ""
	}
	return fmt.Sprintf("instance %q", instance)
}

// anyEstimate reports whether some job carries a duration estimate.
func anyEstimate(insts []simcore.Instance) bool {
	for _, in := range insts {
		for _, j := range in.Jobs {
			if j.Estimate != 0 {
				return true
			}
		}
	}
	return false
}

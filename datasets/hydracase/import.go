package hydracase

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/evogp/evogp/datasets"
	"github.com/evogp/evogp/simcore"
)

// Deadline readings of the ddl column.
const (
	DDLRelative = "relative" // deadline = submit time + ddl
	DDLAbsolute = "absolute" // deadline = ddl
)

// TypeGPUs is one cluster of the imported instance: Count 1-GPU nodes of
// GPU type Type (a type column of the case file).
type TypeGPUs struct {
	Type  string
	Count int
}

// Options control an import.
type Options struct {
	GPUs []TypeGPUs // the clusters, in order (required)
	Jobs int        // read the first Jobs data rows; 0 = all
	DDL  string     // DDLRelative (default when empty) or DDLAbsolute
}

// ParseGPUs reads "A100=15,V100=15,GTX2080Ti=15".
func ParseGPUs(s string) ([]TypeGPUs, error) {
	var out []TypeGPUs
	seen := map[string]bool{}
	for _, part := range strings.Split(s, ",") {
		name, count, ok := strings.Cut(strings.TrimSpace(part), "=")
		name = strings.TrimSpace(name)
		if !ok || name == "" {
			return nil, fmt.Errorf("--gpus %q: want TYPE=COUNT,TYPE=COUNT,…", s)
		}
		n, err := strconv.Atoi(strings.TrimSpace(count))
		if err != nil || n < 1 || n > 1<<20 {
			return nil, fmt.Errorf("--gpus: %s=%s: the count must be an integer in 1..%d", name, count, 1<<20)
		}
		if seen[name] {
			return nil, fmt.Errorf("--gpus: type %s appears twice", name)
		}
		seen[name] = true
		out = append(out, TypeGPUs{Type: name, Count: n})
	}
	return out, nil
}

func (o Options) check() error {
	if len(o.GPUs) == 0 {
		return errors.New("no GPU types given (--gpus TYPE=COUNT,…)")
	}
	for _, g := range o.GPUs {
		if g.Type == "" || g.Count < 1 {
			return fmt.Errorf("GPU type %q: count %d must be ≥ 1", g.Type, g.Count)
		}
	}
	if o.Jobs < 0 {
		return fmt.Errorf("jobs = %d: must be ≥ 0", o.Jobs)
	}
	if o.DDL != "" && o.DDL != DDLRelative && o.DDL != DDLAbsolute {
		return fmt.Errorf("ddl %q: must be %s or %s", o.DDL, DDLRelative, DDLAbsolute)
	}
	return nil
}

// maxSeconds bounds every time read (as the dataset readers do).
const maxSeconds = float64(int64(1) << 53)

// Import reads a case file from r (named file in errors) into a dataset of
// one instance called name.
func Import(r io.Reader, file, name string, o Options) (*datasets.Dataset, error) {
	if err := o.check(); err != nil {
		return nil, fmt.Errorf("import %s: %w", file, err)
	}
	cr := csv.NewReader(r)
	cr.ReuseRecord = true
	header, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return nil, &datasets.FileError{File: file, Err: errors.New("empty file: no header line")}
	}
	if err != nil {
		return nil, &datasets.FileError{File: file, Err: err}
	}
	header = append([]string(nil), header...)
	col := map[string]int{}
	for i, h := range header {
		h = strings.TrimSpace(strings.TrimPrefix(h, "\ufeff"))
		if _, dup := col[h]; dup && h != "" {
			return nil, &datasets.FileError{File: file, Line: 1, Err: fmt.Errorf("column %q appears twice", h)}
		}
		col[h] = i
	}
	need := func(c string) (int, error) {
		i, ok := col[c]
		if !ok {
			return 0, &datasets.FileError{File: file, Line: 1, Err: fmt.Errorf("missing column %q (header: %s)", c, strings.Join(header, ","))}
		}
		return i, nil
	}
	iName, err := need("job_name")
	if err != nil {
		return nil, err
	}
	iSubmit, err := need("norm_job_submit_time")
	if err != nil {
		return nil, err
	}
	iDDL, err := need("ddl")
	if err != nil {
		return nil, err
	}
	iType := make([]int, len(o.GPUs))
	for k, g := range o.GPUs {
		i, ok := col[g.Type]
		if !ok {
			return nil, &datasets.FileError{File: file, Line: 1, Err: fmt.Errorf("missing type column %q for --gpus (header: %s)", g.Type, strings.Join(header, ","))}
		}
		iType[k] = i
	}
	inst := simcore.Instance{Name: name}
	for _, g := range o.GPUs {
		inst.Clusters = append(inst.Clusters, simcore.Cluster{Nodes: g.Count, GPUsPerNode: 1, GPUType: g.Type})
	}
	relative := o.DDL != DDLAbsolute
	for row := 1; o.Jobs == 0 || row <= o.Jobs; row++ {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return nil, &datasets.FileError{File: file, Row: row, Line: pe.Line, Err: pe.Err}
			}
			return nil, &datasets.FileError{File: file, Row: row, Err: err}
		}
		line, _ := cr.FieldPos(0)
		fail := func(format string, a ...any) error {
			return &datasets.FileError{File: file, Row: row, Line: line, Err: fmt.Errorf("job %d (%s): %s", row-1, rec[iName], fmt.Sprintf(format, a...))}
		}
		j := simcore.Job{ID: int64(row - 1), Name: rec[iName], Workers: 1, GPUs: 1, Priority: 1,
			TypeDurations: make(map[string]int64, len(o.GPUs))}
		submit, inf, err := seconds(rec[iSubmit])
		if err != nil || inf || submit < 0 {
			return nil, fail("norm_job_submit_time %q: want a number of seconds ≥ 0", rec[iSubmit])
		}
		j.Arrival = int64(submit)
		ddl, inf, err := seconds(rec[iDDL])
		switch {
		case err != nil:
			return nil, fail("ddl %q: want a number of seconds or inf", rec[iDDL])
		case inf:
		case ddl < 0:
			return nil, fail("ddl = %s: a negative deadline", rec[iDDL])
		case relative:
			j.Deadline = max(1, j.Arrival+int64(ddl))
		default:
			j.Deadline = max(1, int64(ddl))
		}
		if j.Deadline > int64(maxSeconds) {
			return nil, fail("deadline out of range")
		}
		for k, g := range o.GPUs {
			cell := rec[iType[k]]
			d, inf, err := seconds(cell)
			if err != nil || d < 0 {
				return nil, fail("column %s: duration %q is not a number of seconds ≥ 0 (inf, empty or 0 = cannot run)", g.Type, cell)
			}
			var sec int64
			if !inf && d > 0 {
				sec = max(1, int64(d))
			}
			j.TypeDurations[g.Type] = sec
			if sec > 0 && (j.Duration == 0 || sec < j.Duration) {
				j.Duration, j.Cluster = sec, k
			}
		}
		if j.Duration == 0 {
			return nil, fail("it can run on none of the types %s", typeNames(o.GPUs))
		}
		inst.Jobs = append(inst.Jobs, j)
	}
	if len(inst.Jobs) == 0 {
		return nil, &datasets.FileError{File: file, Err: errors.New("no job rows")}
	}
	if err := inst.Validate(); err != nil {
		return nil, &datasets.FileError{File: file, Err: err}
	}
	opts := map[string]string{"gpus": gpusString(o.GPUs), "ddl": DDLRelative, "jobs": strconv.Itoa(len(inst.Jobs))}
	if !relative {
		opts["ddl"] = DDLAbsolute
	}
	return &datasets.Dataset{Instances: []simcore.Instance{inst}, Meta: datasets.Meta{Source: "hydra case " + filepath.Base(file), Options: opts}}, nil
}

// ImportFile imports the case file at path; the instance is named after the
// file (without its extension).
func ImportFile(path string, o Options) (*datasets.Dataset, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("import: %w", err)
	}
	defer f.Close()
	name := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	if name == "" {
		name = "case"
	}
	return Import(f, path, name, o)
}

// seconds reads a cell: a finite number (floored), or inf for "inf" (any
// case, also "+inf", "Infinity"), for an empty cell and for a number too
// large for a float64. NaN is an error; "-inf" reads as −1 (negative).
func seconds(cell string) (v float64, inf bool, err error) {
	s := strings.TrimSpace(cell)
	if s == "" {
		return 0, true, nil
	}
	v, err = strconv.ParseFloat(s, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, false, err
	}
	switch {
	case math.IsNaN(v):
		return 0, false, errors.New("NaN")
	case math.IsInf(v, 1):
		return 0, true, nil
	case math.IsInf(v, -1):
		return -1, false, nil
	case v >= maxSeconds:
		return 0, false, errors.New("out of range")
	}
	return math.Floor(v), false, nil
}

func typeNames(gs []TypeGPUs) string {
	names := make([]string, len(gs))
	for i, g := range gs {
		names[i] = g.Type
	}
	return strings.Join(names, ", ")
}

func gpusString(gs []TypeGPUs) string {
	parts := make([]string, len(gs))
	for i, g := range gs {
		parts[i] = fmt.Sprintf("%s=%d", g.Type, g.Count)
	}
	return strings.Join(parts, ",")
}

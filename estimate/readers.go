package estimate

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Header lines of the two formats.
const (
	chronusHeader = "iteration,iter_time_s"
	alibabaHeader = ",worker,gpu,time,batch_time_norm"
)

// ErrFormat is wrapped by every error about a file's layout or rows.
var ErrFormat = errors.New("bad series file")

// chronusName is `<family>_arch_<model>_gpu_<N>.csv`.
var chronusName = regexp.MustCompile(`^([A-Za-z0-9]+)_arch_(.+)_gpu_([0-9]+)\.csv$`)

// seriesName is the identity of the file at path: its parent directory and
// base name ("stats/x.csv"), or the base name alone at a root.
func seriesName(path string) string {
	parent := filepath.Base(filepath.Dir(path))
	base := filepath.Base(path)
	if parent == "." || parent == string(filepath.Separator) {
		return base
	}
	return parent + "/" + base
}

// ReadFile reads a series file in either format, told apart by its header.
func ReadFile(path string) (*Series, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read series: %w", err)
	}
	first, _, _ := bytes.Cut(data, []byte("\n"))
	switch header(string(first)) {
	case chronusHeader:
		return ParseChronus(bytes.NewReader(data), path)
	case alibabaHeader:
		return ParseAlibaba(bytes.NewReader(data), path)
	}
	return nil, fmt.Errorf("%s line 1: %w: header %q is neither %q (Chronus) nor %q (Alibaba mini-batch)", path, ErrFormat, truncate(string(first), 80), chronusHeader, alibabaHeader)
}

// header normalises a header line: no BOM, no trailing CR or blanks.
func header(s string) string {
	s = strings.TrimPrefix(s, "\ufeff")
	return strings.TrimSpace(s)
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// ReadChronus reads a Chronus per-iteration file (see ParseChronus).
func ReadChronus(path string) (*Series, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read series: %w", err)
	}
	defer f.Close()
	return ParseChronus(f, path)
}

// ReadAlibaba reads an Alibaba mini-batch file (see ParseAlibaba).
func ReadAlibaba(path string) (*Series, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read series: %w", err)
	}
	defer f.Close()
	return ParseAlibaba(f, path)
}

// rowReader reads CSV records with their line numbers, wrapping every
// error with the path and line.
type rowReader struct {
	path string
	cr   *csv.Reader
}

func newRowReader(r io.Reader, path string, fields int) *rowReader {
	cr := csv.NewReader(bufio.NewReader(r))
	cr.FieldsPerRecord = fields
	cr.ReuseRecord = true
	return &rowReader{path: path, cr: cr}
}

// next returns the next record and its line, io.EOF at the end.
func (r *rowReader) next() ([]string, int, error) {
	rec, err := r.cr.Read()
	if err == io.EOF {
		return nil, 0, io.EOF
	}
	if err != nil {
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			return nil, 0, fmt.Errorf("%s line %d: %w: %v", r.path, pe.StartLine, ErrFormat, pe.Err)
		}
		return nil, 0, fmt.Errorf("%s: %w", r.path, err)
	}
	line, _ := r.cr.FieldPos(0)
	return rec, line, nil
}

func (r *rowReader) errorf(line int, field, format string, a ...any) error {
	return fmt.Errorf("%s line %d: %w: %s: %s", r.path, line, ErrFormat, field, fmt.Sprintf(format, a...))
}

// readHeader checks the header record against want.
func (r *rowReader) readHeader(want string) error {
	rec, line, err := r.next()
	if err == io.EOF {
		return fmt.Errorf("%s: %w: empty file (want header %q)", r.path, ErrFormat, want)
	}
	if err != nil {
		return err
	}
	got := header(strings.Join(rec, ","))
	if got != want {
		return fmt.Errorf("%s line %d: %w: header %q, want %q", r.path, line, ErrFormat, truncate(got, 80), want)
	}
	return nil
}

// parseTime parses a positive finite time.
func (r *rowReader) parseTime(line int, field, s string) (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil {
		return 0, r.errorf(line, field, "%q is not a number", truncate(s, 40))
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, r.errorf(line, field, "%q is not a finite number", truncate(s, 40))
	}
	if v <= 0 {
		return 0, r.errorf(line, field, "%v must be positive", v)
	}
	return v, nil
}

// parseInt parses an integer ≥ 0.
func (r *rowReader) parseInt(line int, field, s string) (int64, error) {
	v, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil {
		return 0, r.errorf(line, field, "%q is not an integer", truncate(s, 40))
	}
	if v < 0 {
		return 0, r.errorf(line, field, "%d must be ≥ 0", v)
	}
	return v, nil
}

// ParseChronus parses the Chronus per-iteration format: the header
// `iteration,iter_time_s`, then one row per iteration with consecutive
// iteration numbers (from any start) and a positive finite time in
// seconds. The model and GPU count come from a file name
// `<family>_arch_<model>_gpu_<N>.csv` (model "<family>/<model>"; another
// name gives model = the file stem and GPU count 0); the config is the
// parent directory (the Chronus artifact's two runs, stats and stats-2,
// differ in it). path names the file in errors.
func ParseChronus(r io.Reader, path string) (*Series, error) {
	rr := newRowReader(r, path, 2)
	if err := rr.readHeader(chronusHeader); err != nil {
		return nil, err
	}
	s := &Series{Name: seriesName(path), Path: path, Unit: UnitSeconds, Key: chronusKey(path)}
	var prevIter int64
	for {
		rec, line, err := rr.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		it, err := rr.parseInt(line, "iteration", rec[0])
		if err != nil {
			return nil, err
		}
		if len(s.Times) > 0 && it != prevIter+1 {
			return nil, rr.errorf(line, "iteration", "%d follows %d, want %d", it, prevIter, prevIter+1)
		}
		prevIter = it
		t, err := rr.parseTime(line, "iter_time_s", rec[1])
		if err != nil {
			return nil, err
		}
		s.Times = append(s.Times, t)
		s.Lines = append(s.Lines, line)
	}
	if len(s.Times) == 0 {
		return nil, fmt.Errorf("%s: %w: no iterations after the header", path, ErrFormat)
	}
	return s, nil
}

func chronusKey(path string) Key {
	base := filepath.Base(path)
	k := Key{Config: filepath.Base(filepath.Dir(path))}
	if k.Config == "." || k.Config == string(filepath.Separator) {
		k.Config = ""
	}
	if m := chronusName.FindStringSubmatch(base); m != nil {
		k.Model = m[1] + "/" + m[2]
		k.GPUs, _ = strconv.Atoi(m[3])
		return k
	}
	k.Model = strings.TrimSuffix(base, filepath.Ext(base))
	return k
}

// ParseAlibaba parses the Alibaba cluster-trace-gpu-v2020 mini-batch format:
// the header `,worker,gpu,time,batch_time_norm`, then rows of a row index,
// a worker id, the job's gpu field, an iteration number `time` (sampled, so
// not necessarily consecutive) and the worker's mini-batch time normalised
// to 0–1000. Rows must come in non-decreasing `time`. The series has one
// point per distinct `time`: the largest normalised time of the workers at
// it, since a synchronous data-parallel step ends with its slowest worker.
// Times are in normalised units (Unit "norm"). The key's model is
// "alibaba/<file stem>" and its GPU count the number of distinct workers
// (the file does not say what its gpu field counts). path names the file in
// errors.
func ParseAlibaba(r io.Reader, path string) (*Series, error) {
	rr := newRowReader(r, path, 5)
	if err := rr.readHeader(alibabaHeader); err != nil {
		return nil, err
	}
	base := filepath.Base(path)
	s := &Series{Name: seriesName(path), Path: path, Unit: UnitNormalised,
		Key: Key{Model: "alibaba/" + strings.TrimSuffix(base, filepath.Ext(base))}}
	workers := map[int64]struct{}{}
	var curTime int64 = -1
	for {
		rec, line, err := rr.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if _, err := rr.parseInt(line, "row index", rec[0]); err != nil {
			return nil, err
		}
		w, err := rr.parseInt(line, "worker", rec[1])
		if err != nil {
			return nil, err
		}
		if _, err := rr.parseInt(line, "gpu", rec[2]); err != nil {
			return nil, err
		}
		tm, err := rr.parseInt(line, "time", rec[3])
		if err != nil {
			return nil, err
		}
		v, err := rr.parseTime(line, "batch_time_norm", rec[4])
		if err != nil {
			return nil, err
		}
		workers[w] = struct{}{}
		switch {
		case tm < curTime:
			return nil, rr.errorf(line, "time", "%d after %d: rows must be in non-decreasing time", tm, curTime)
		case tm > curTime:
			s.Times = append(s.Times, v)
			s.Lines = append(s.Lines, line)
			curTime = tm
		default:
			last := len(s.Times) - 1
			s.Times[last] = max(s.Times[last], v)
		}
	}
	if len(s.Times) == 0 {
		return nil, fmt.Errorf("%s: %w: no rows after the header", path, ErrFormat)
	}
	s.Key.GPUs = len(workers)
	return s, nil
}

// ReadDir reads every *.csv file under dir (recursively, in lexical path
// order) and returns the series with their paths relative to dir. The
// first bad file stops the read with its error.
func ReadDir(dir string) ([]*Series, []string, error) {
	var paths []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.EqualFold(filepath.Ext(p), ".csv") {
			paths = append(paths, p)
		}
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("read series directory: %w", err)
	}
	slices.Sort(paths)
	if len(paths) == 0 {
		return nil, nil, fmt.Errorf("read series directory %s: no .csv files", dir)
	}
	series := make([]*Series, len(paths))
	rels := make([]string, len(paths))
	for i, p := range paths {
		if series[i], err = ReadFile(p); err != nil {
			return nil, nil, err
		}
		rels[i], _ = filepath.Rel(dir, p)
		rels[i] = filepath.ToSlash(rels[i])
	}
	return series, rels, nil
}

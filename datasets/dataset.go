package datasets

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/evogp/evogp/internal/atomicio"
	"github.com/evogp/evogp/internal/yamlerr"
	"github.com/evogp/evogp/simcore"
)

// File formats of the two tables.
const (
	FormatParquet = "parquet"
	FormatCSV     = "csv"
)

// File names inside a dataset directory.
const (
	ClustersTable = "clusters" // clusters.parquet or clusters.csv
	JobsTable     = "jobs"     // jobs.parquet or jobs.csv
	MetaFile      = "dataset.yaml"
)

// MetaVersion is the dataset layout version written to dataset.yaml.
const MetaVersion = 1

// Dataset is a list of instances (a split) with its provenance.
type Dataset struct {
	Instances []simcore.Instance
	Meta      Meta
}

// Meta is the content of dataset.yaml: where the instances come from and
// how many there are. A generated dataset records the generator settings and
// seeds, so Generate(*Generator, *GenerateSeed, Instances) reproduces it; an
// imported one records its source and import options.
type Meta struct {
	Version      int               `yaml:"version"`                 // layout version (MetaVersion)
	Split        string            `yaml:"split,omitempty"`         // train, validation, test, …
	Source       string            `yaml:"source,omitempty"`        // "generator", or the imported trace
	Config       string            `yaml:"config,omitempty"`        // the experiment config the generator settings came from
	Seed         *uint64           `yaml:"seed,omitempty"`          // the experiment seed
	GenerateSeed *uint64           `yaml:"generate_seed,omitempty"` // the seed passed to Generate (SplitSeed(seed, split))
	Generator    *GenSettings      `yaml:"generator,omitempty"`     // the generator settings
	Options      map[string]string `yaml:"options,omitempty"`       // import options
	Format       string            `yaml:"format"`                  // parquet | csv; set by Write
	Instances    int               `yaml:"instances"`               // set by Write
	Clusters     int               `yaml:"clusters"`                // total cluster rows; set by Write
	Jobs         int               `yaml:"jobs"`                    // total job rows; set by Write
}

// FileError is a problem with one dataset file. Row is the 1-based data row
// (the header of a CSV file is not a row) or 0 when the problem concerns the
// whole file; Line is the 1-based line of a CSV file (0 for Parquet). Err
// says what is wrong and names the instance and job where there is one.
type FileError struct {
	File string
	Row  int
	Line int
	Err  error
}

func (e *FileError) Error() string {
	switch {
	case e.Row > 0 && e.Line > 0:
		return fmt.Sprintf("%s: row %d (line %d): %v", e.File, e.Row, e.Line, e.Err)
	case e.Row > 0:
		return fmt.Sprintf("%s: row %d: %v", e.File, e.Row, e.Err)
	case e.Line > 0:
		return fmt.Sprintf("%s: line %d: %v", e.File, e.Line, e.Err)
	}
	return fmt.Sprintf("%s: %v", e.File, e.Err)
}

func (e *FileError) Unwrap() error { return e.Err }

// Write stores ds in a new directory dir, tables in format ("parquet", the
// default when empty, or "csv"). The directory is built in a temporary
// sibling and renamed into place, so dir either holds the complete dataset
// or does not exist; an existing non-empty dir is an error. Every instance
// is validated first (SPEC §3) and instance names must be unique and
// non-empty. The counts and format of dataset.yaml are set from the data;
// ds is not modified. Rows are written in instance order, jobs in each
// instance's order, so Read returns the same instances.
func Write(dir string, ds *Dataset, format string) error {
	return WriteContext(context.Background(), dir, ds, format)
}

// WriteContext is Write that stops once ctx is done, leaving no dir and
// no temporary directory: the checks and every table write look at ctx.
func WriteContext(ctx context.Context, dir string, ds *Dataset, format string) error {
	if format == "" {
		format = FormatParquet
	}
	if format != FormatParquet && format != FormatCSV {
		return fmt.Errorf("write dataset %s: format %q: must be %s or %s", dir, format, FormatParquet, FormatCSV)
	}
	if ds == nil || len(ds.Instances) == 0 {
		return fmt.Errorf("write dataset %s: empty dataset (no instances)", dir)
	}
	meta := ds.Meta
	meta.Version = MetaVersion
	meta.Format = format
	meta.Instances = len(ds.Instances)
	meta.Clusters, meta.Jobs = 0, 0
	names := make(map[string]int, len(ds.Instances))
	for i := range ds.Instances {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("write dataset %s: %w", dir, err)
		}
		in := &ds.Instances[i]
		if in.Name == "" {
			return fmt.Errorf("write dataset %s: instance %d has no name", dir, i)
		}
		if j, dup := names[in.Name]; dup {
			return fmt.Errorf("write dataset %s: instances %d and %d are both named %q", dir, j, i, in.Name)
		}
		names[in.Name] = i
		if err := checkTexts(in); err != nil {
			return fmt.Errorf("write dataset %s: %w", dir, err)
		}
		if err := in.Validate(); err != nil {
			return fmt.Errorf("write dataset %s: %w", dir, err)
		}
		if err := checkBounds(in); err != nil {
			return fmt.Errorf("write dataset %s: %w", dir, err)
		}
		if err := checkTypeDurations(in); err != nil {
			return fmt.Errorf("write dataset %s: %w", dir, err)
		}
		meta.Clusters += len(in.Clusters)
		meta.Jobs += len(in.Jobs)
	}
	metaYAML, err := marshalMeta(meta)
	if err != nil {
		return fmt.Errorf("write dataset %s: %w", dir, err)
	}
	return atomicio.Dir(dir, func(tmp string) error {
		writeC, writeJ := writeClustersCSV, writeJobsCSV
		if format == FormatParquet {
			writeC, writeJ = writeClustersParquet, writeJobsParquet
		}
		final := func(name string) string { return filepath.Join(dir, name) }
		if err := atomicio.WriteFile(filepath.Join(tmp, ClustersTable+"."+format), func(w io.Writer) error {
			return writeC(ctxWriter{ctx, w}, ds.Instances)
		}); err != nil {
			return fmt.Errorf("write %s: %w", final(ClustersTable+"."+format), err)
		}
		if err := atomicio.WriteFile(filepath.Join(tmp, JobsTable+"."+format), func(w io.Writer) error {
			return writeJ(ctxWriter{ctx, w}, ds.Instances)
		}); err != nil {
			return fmt.Errorf("write %s: %w", final(JobsTable+"."+format), err)
		}
		if hasTypeDurations(ds.Instances) {
			writeD := writeDurationsCSV
			if format == FormatParquet {
				writeD = writeDurationsParquet
			}
			if err := atomicio.WriteFile(filepath.Join(tmp, DurationsTable+"."+format), func(w io.Writer) error {
				return writeD(ctxWriter{ctx, w}, ds.Instances)
			}); err != nil {
				return fmt.Errorf("write %s: %w", final(DurationsTable+"."+format), err)
			}
		}
		if err := atomicio.WriteBytes(filepath.Join(tmp, MetaFile), metaYAML); err != nil {
			return err
		}
		return ctx.Err() // a last look before the directory is renamed into place
	})
}

// ctxWriter fails every write once its context is done, so that a table
// writer stops at its next buffer flush.
type ctxWriter struct {
	ctx context.Context
	w   io.Writer
}

func (c ctxWriter) Write(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.w.Write(p)
}

// checkBounds rejects values a reader would refuse (counts above maxCount,
// times above maxTime), so that everything Write accepts reads back.
func checkBounds(in *simcore.Instance) error {
	for p, c := range in.Clusters {
		if int64(c.Nodes) > maxCount || int64(c.GPUsPerNode) > maxCount {
			return fmt.Errorf("instance %q: cluster %d: nodes or gpus_per_node above %d", in.Name, p, maxCount)
		}
	}
	for _, j := range in.Jobs {
		if int64(j.Workers) > maxCount || int64(j.GPUs) > maxCount || int64(j.Priority) > maxCount {
			return fmt.Errorf("instance %q: job %d: workers, gpus or priority above %d", in.Name, j.ID, maxCount)
		}
		if j.Arrival > maxTime || j.Duration > maxTime || j.Deadline > maxTime {
			return fmt.Errorf("instance %q: job %d: arrival, duration or deadline above %d s", in.Name, j.ID, maxTime)
		}
	}
	return nil
}

// checkTexts applies the readers' rules for names (checkName).
func checkTexts(in *simcore.Instance) error {
	if err := checkName("instance", in.Name, true); err != nil {
		return err
	}
	for p, c := range in.Clusters {
		if err := checkName("gpu_type", c.GPUType, false); err != nil {
			return fmt.Errorf("instance %q: cluster %d: %w", in.Name, p, err)
		}
	}
	for _, j := range in.Jobs {
		if err := checkName("name", j.Name, false); err != nil {
			return fmt.Errorf("instance %q: job %d: %w", in.Name, j.ID, err)
		}
	}
	return nil
}

func marshalMeta(m Meta) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("# evogp dataset: provenance and counts (SPEC §3)\n")
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(m); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Read loads the dataset in dir. Each table is read from its .parquet file
// or its .csv file, whichever exists (the two tables may differ in format);
// when both files of one table exist Read refuses, since it cannot know
// which is current. dataset.yaml is optional (a hand-written CSV dataset
// may lack it) and is decoded strictly when present; counts it states must
// match the tables. Every row is checked (SPEC §3, §9) and the first problem
// is returned as a *FileError naming the file, row, instance and job.
// Instances come back in the order of their first row in the clusters
// table; jobs in the order of their rows.
func Read(dir string) (*Dataset, error) { return ReadContext(context.Background(), dir) }

// ReadContext is Read that stops, with ctx's error, soon after ctx is done:
// the readers check it every few thousand rows, so cancelling a large load
// takes effect promptly. Every file must be a regular file: a named pipe
// or a device would block the read (and its cancellation) forever.
func ReadContext(ctx context.Context, dir string) (*Dataset, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("read dataset: %w", err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("read dataset %s: not a directory", dir)
	}
	b := newBuilder()
	b.ctx = ctx
	cpath, err := tablePath(dir, ClustersTable)
	if err != nil {
		return nil, err
	}
	if filepath.Ext(cpath) == ".csv" {
		err = readClustersCSV(cpath, b)
	} else {
		err = readClustersParquet(cpath, b)
	}
	if err != nil {
		return nil, err
	}
	if err := b.finishClusters(cpath); err != nil {
		return nil, err
	}
	jpath, err := tablePath(dir, JobsTable)
	if err != nil {
		return nil, err
	}
	if filepath.Ext(jpath) == ".csv" {
		err = readJobsCSV(jpath, b)
	} else {
		err = readJobsParquet(jpath, b)
	}
	if err != nil {
		return nil, err
	}
	dpath, err := optionalTablePath(dir, DurationsTable)
	if err != nil {
		return nil, err
	}
	switch filepath.Ext(dpath) {
	case ".csv":
		err = readDurationsCSV(dpath, b)
	case ".parquet":
		err = readDurationsParquet(dpath, b)
	}
	if err != nil {
		return nil, err
	}
	insts, err := b.finishJobs(jpath)
	if err != nil {
		return nil, err
	}
	ds := &Dataset{Instances: insts}
	if err := readMeta(filepath.Join(dir, MetaFile), ds); err != nil {
		return nil, err
	}
	// The format is what was read, whatever dataset.yaml said.
	ds.Meta.Format = strings.TrimPrefix(filepath.Ext(cpath), ".")
	if filepath.Ext(jpath) != filepath.Ext(cpath) {
		ds.Meta.Format = "mixed"
	}
	return ds, nil
}

// tablePath finds dir/name.parquet or dir/name.csv.
func tablePath(dir, name string) (string, error) {
	var found []string
	for _, ext := range []string{FormatParquet, FormatCSV} {
		p := filepath.Join(dir, name+"."+ext)
		if st, err := os.Stat(p); err == nil {
			if err := checkRegular(p, st); err != nil {
				return "", err
			}
			found = append(found, p)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("read dataset %s: %w", dir, err)
		}
	}
	switch len(found) {
	case 0:
		return "", fmt.Errorf("read dataset %s: no %s.parquet or %s.csv", dir, name, name)
	case 2:
		return "", fmt.Errorf("read dataset %s: both %s.parquet and %s.csv exist; remove one", dir, name, name)
	}
	return found[0], nil
}

// readMeta decodes dataset.yaml into ds.Meta (if the file exists), checks
// its counts against the tables and sets the counts from the data.
func readMeta(path string, ds *Dataset) error {
	var m Meta
	var data []byte
	st, err := os.Stat(path)
	if err == nil {
		if err := checkRegular(path, st); err != nil {
			return err
		}
		data, err = os.ReadFile(path)
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return fmt.Errorf("read dataset: %w", err)
	default:
		dec := yaml.NewDecoder(bytes.NewReader(data))
		dec.KnownFields(true)
		if err := dec.Decode(&m); err != nil && !errors.Is(err, io.EOF) {
			return &FileError{File: path, Err: yamlerr.Fix(err, data)}
		}
		if m.Version > MetaVersion {
			return &FileError{File: path, Err: fmt.Errorf("version %d is newer than this program understands (%d)", m.Version, MetaVersion)}
		}
	}
	var nc, nj int
	for _, in := range ds.Instances {
		nc += len(in.Clusters)
		nj += len(in.Jobs)
	}
	for _, c := range []struct {
		what      string
		said, got int
	}{{"instances", m.Instances, len(ds.Instances)}, {"clusters", m.Clusters, nc}, {"jobs", m.Jobs, nj}} {
		if c.said != 0 && c.said != c.got {
			return &FileError{File: path, Err: fmt.Errorf("says %d %s but the tables hold %d", c.said, c.what, c.got)}
		}
	}
	m.Instances, m.Clusters, m.Jobs = len(ds.Instances), nc, nj
	ds.Meta = m
	return nil
}

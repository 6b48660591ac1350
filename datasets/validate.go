package datasets

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/evogp/evogp/simcore"
)

// clusterRec is one row of the clusters table, as read, before checks.
// Its tags are the Parquet schema that Write produces.
type clusterRec struct {
	Instance    string `parquet:"instance,dict"`
	Cluster     int64  `parquet:"cluster"`
	Nodes       int64  `parquet:"nodes"`
	GPUsPerNode int64  `parquet:"gpus_per_node"`
	GPUType     string `parquet:"gpu_type,optional,dict"`
}

// jobRec is one row of the jobs table, as read, before checks.
// Its tags are the Parquet schema that Write produces; a deadline of 0 and
// an empty name are stored as null.
type jobRec struct {
	Instance string `parquet:"instance,dict"`
	Job      int64  `parquet:"job"`
	Arrival  int64  `parquet:"arrival"`
	Cluster  int64  `parquet:"cluster"`
	Duration int64  `parquet:"duration"`
	Workers  int64  `parquet:"workers"`
	GPUs     int64  `parquet:"gpus"`
	Priority int64  `parquet:"priority"`
	Deadline int64  `parquet:"deadline,optional"`
	Name     string `parquet:"name,optional"`
	// Estimate is the duration schedulers see (SPEC §14); 0 = none.
	Estimate int64 `parquet:"estimate,optional"`
}

// column describes one column of a table.
type column struct {
	name     string
	optional bool
	integer  bool // an integer column (else a string)
}

func clusterColumns() []column {
	return []column{
		{name: "instance"},
		{name: "cluster", integer: true},
		{name: "nodes", integer: true},
		{name: "gpus_per_node", integer: true},
		{name: "gpu_type", optional: true},
	}
}

func jobColumns() []column {
	return []column{
		{name: "instance"},
		{name: "job", integer: true},
		{name: "arrival", integer: true},
		{name: "cluster", integer: true},
		{name: "duration", integer: true},
		{name: "workers", integer: true},
		{name: "gpus", integer: true},
		{name: "priority", integer: true},
		{name: "deadline", optional: true, integer: true},
		{name: "name", optional: true},
		{name: "estimate", optional: true, integer: true},
	}
}

// pos locates a row: 1-based data row and, for CSV, 1-based line.
type pos struct{ row, line int }

func (p pos) err(file string, err error) error {
	return &FileError{File: file, Row: p.row, Line: p.line, Err: err}
}

// builder assembles instances from table rows, checking each row as it
// comes so that every problem can be reported with its row.
type builder struct {
	ctx      context.Context // checked every checkEvery rows
	rows     int             // rows added so far, of every table
	insts    []simcore.Instance
	index    map[string]int
	clusters []map[int64]clusterAt // per instance: cluster index → row
	jobIDs   []map[int64]int       // per instance: job id → row
	one      [1]simcore.Job        // scratch for validating one job
	jobs     []simcore.Job         // every job row, in file order
	owner    []int32               // owner[k] = instance of jobs[k]
}

type clusterAt struct {
	c   simcore.Cluster
	pos pos
}

func newBuilder() *builder { return &builder{ctx: context.Background(), index: map[string]int{}} }

// checkEvery is how many rows the builder adds between two looks at its
// context: often enough that a cancelled load of millions of rows stops
// within milliseconds, rarely enough to cost nothing.
const checkEvery = 4096

// tick counts a row and, every checkEvery rows, returns the context's
// error (naming the file) once it is done.
func (b *builder) tick(file string) error {
	b.rows++
	if b.rows%checkEvery != 0 {
		return nil
	}
	if err := b.ctx.Err(); err != nil {
		return fmt.Errorf("read %s: %w", file, err)
	}
	return nil
}

// checkRegular refuses anything but a regular file (after symbolic links):
// reading a named pipe or a device could block forever.
func checkRegular(path string, st fs.FileInfo) error {
	if !st.Mode().IsRegular() {
		return &FileError{File: path, Err: fmt.Errorf("not a regular file (%s)", fileKind(st.Mode()))}
	}
	return nil
}

func fileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return m.Type().String()
}

// checkCount converts a count column to int, within ±maxCount.
func checkCount(col string, v int64) (int, error) {
	if v > maxCount || v < -maxCount {
		return 0, fmt.Errorf("%s = %d is out of range (|%s| ≤ %d)", col, v, col, maxCount)
	}
	return int(v), nil
}

// checkTime bounds a time column within ±maxTime seconds.
func checkTime(col string, v int64) (int64, error) {
	if v > maxTime || v < -maxTime {
		return 0, fmt.Errorf("%s = %d is out of range (|%s| ≤ %d s)", col, v, col, maxTime)
	}
	return v, nil
}

// addCluster checks one clusters row and records it.
func (b *builder) addCluster(file string, at pos, r clusterRec) error {
	if err := b.tick(file); err != nil {
		return err
	}
	if err := checkName("instance", r.Instance, true); err != nil {
		return at.err(file, err)
	}
	where := func(err error) error {
		return at.err(file, fmt.Errorf("instance %q: cluster %d: %w", r.Instance, r.Cluster, err))
	}
	if r.Cluster < 0 || r.Cluster >= maxCount {
		return where(fmt.Errorf("cluster index must be in 0..%d", maxCount-1))
	}
	if err := checkName("gpu_type", r.GPUType, false); err != nil {
		return where(err)
	}
	nodes, err := checkCount("nodes", r.Nodes)
	if err != nil {
		return where(err)
	}
	gpn, err := checkCount("gpus_per_node", r.GPUsPerNode)
	if err != nil {
		return where(err)
	}
	if nodes < 1 {
		return where(fmt.Errorf("nodes = %d, must be ≥ 1", nodes))
	}
	if gpn < 1 {
		return where(fmt.Errorf("gpus_per_node = %d, must be ≥ 1", gpn))
	}
	if err := simcore.CheckClusterSize(nodes, gpn); err != nil {
		return where(err)
	}
	i, ok := b.index[r.Instance]
	if !ok {
		i = len(b.insts)
		b.index[r.Instance] = i
		b.insts = append(b.insts, simcore.Instance{Name: r.Instance})
		b.clusters = append(b.clusters, map[int64]clusterAt{})
		b.jobIDs = append(b.jobIDs, map[int64]int{})
	}
	if prev, dup := b.clusters[i][r.Cluster]; dup {
		return where(fmt.Errorf("duplicate cluster (first at row %d)", prev.pos.row))
	}
	b.clusters[i][r.Cluster] = clusterAt{pos: at, c: simcore.Cluster{Nodes: nodes, GPUsPerNode: gpn, GPUType: r.GPUType}}
	return nil
}

// finishClusters checks that each instance's clusters are numbered 0..P−1
// and builds the cluster slices.
func (b *builder) finishClusters(file string) error {
	if len(b.insts) == 0 {
		return &FileError{File: file, Err: errors.New("empty dataset: no cluster rows")}
	}
	for i := range b.insts {
		m := b.clusters[i]
		n := int64(len(m))
		// Report the earliest row whose index is out of 0..P−1, if any.
		var bad *clusterAt
		var badIdx int64
		for idx, ca := range m {
			if idx >= n && (bad == nil || ca.pos.row < bad.pos.row) {
				bad, badIdx = &ca, idx
			}
		}
		if bad != nil {
			missing := int64(0)
			for ; missing < n; missing++ {
				if _, ok := m[missing]; !ok {
					break
				}
			}
			return bad.pos.err(file, fmt.Errorf("instance %q: cluster %d: clusters of an instance must be numbered 0..%d (it has %d rows; cluster %d is missing)",
				b.insts[i].Name, badIdx, n-1, n, missing))
		}
		cs := make([]simcore.Cluster, n)
		for idx, ca := range m {
			cs[idx] = ca.c
		}
		b.insts[i].Clusters = cs
		b.clusters[i] = nil
	}
	return nil
}

// addJob checks one jobs row (against its instance's clusters, with
// simcore's own validation of a one-job instance) and records it.
func (b *builder) addJob(file string, at pos, r jobRec) error {
	if err := b.tick(file); err != nil {
		return err
	}
	if err := checkName("instance", r.Instance, true); err != nil {
		return at.err(file, err)
	}
	i, ok := b.index[r.Instance]
	if !ok {
		return at.err(file, fmt.Errorf("instance %q: job %d: the instance has no clusters (no row in the clusters table)", r.Instance, r.Job))
	}
	in := &b.insts[i]
	where := func(err error) error {
		return at.err(file, fmt.Errorf("instance %q: job %d: %w", r.Instance, r.Job, err))
	}
	j, err := jobFromRec(r)
	if err != nil {
		return where(err)
	}
	if err := checkName("name", r.Name, false); err != nil {
		return where(err)
	}
	// simcore's own checks, on a one-job view of the instance (the job
	// slice is the builder's, reused, so this allocates nothing per row).
	b.one[0] = j
	one := simcore.Instance{Name: in.Name, Clusters: in.Clusters, Jobs: b.one[:]}
	if err := one.Validate(); err != nil {
		return at.err(file, err)
	}
	if prev, dup := b.jobIDs[i][j.ID]; dup {
		return where(fmt.Errorf("duplicate job id (first at row %d)", prev))
	}
	b.jobIDs[i][j.ID] = at.row
	b.jobs = append(b.jobs, j)
	b.owner = append(b.owner, int32(i))
	return nil
}

// checkName accepts a text cell: valid UTF-8 without control characters
// (a line break in a name would not survive every CSV tool), and non-empty
// when required.
func checkName(col, s string, required bool) error {
	if s == "" {
		if required {
			return fmt.Errorf("empty %s name", col)
		}
		return nil
	}
	if !utf8.ValidString(s) {
		return fmt.Errorf("%s %q is not valid UTF-8", col, s)
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			return fmt.Errorf("%s %q contains a control character", col, s)
		}
	}
	return nil
}

// jobFromRec converts a row's integers to a simcore.Job, bounding counts by
// maxCount and times by maxTime.
func jobFromRec(r jobRec) (simcore.Job, error) {
	j := simcore.Job{ID: r.Job, Name: r.Name}
	var err error
	if j.Cluster, err = checkCount("cluster", r.Cluster); err != nil {
		return j, err
	}
	if j.Workers, err = checkCount("workers", r.Workers); err != nil {
		return j, err
	}
	if j.GPUs, err = checkCount("gpus", r.GPUs); err != nil {
		return j, err
	}
	if j.Priority, err = checkCount("priority", r.Priority); err != nil {
		return j, err
	}
	if j.Arrival, err = checkTime("arrival", r.Arrival); err != nil {
		return j, err
	}
	if j.Duration, err = checkTime("duration", r.Duration); err != nil {
		return j, err
	}
	if j.Deadline, err = checkTime("deadline", r.Deadline); err != nil {
		return j, err
	}
	j.Estimate, err = checkTime("estimate", r.Estimate)
	return j, err
}

// finishJobs checks that every instance has jobs and validates each one
// whole (simcore's Instance.Validate), returning the instances.
func (b *builder) finishJobs(file string) ([]simcore.Instance, error) {
	if len(b.jobs) == 0 {
		return nil, &FileError{File: file, Err: errors.New("empty dataset: no job rows")}
	}
	// Distribute the rows to their instances (a stable counting sort into
	// one backing array; each instance gets a capacity-clipped window).
	count := make([]int, len(b.insts)+1)
	for _, o := range b.owner {
		count[o+1]++
	}
	for i := range b.insts {
		if count[i+1] == 0 {
			return nil, &FileError{File: file, Err: fmt.Errorf("instance %q has clusters but no jobs", b.insts[i].Name)}
		}
		count[i+1] += count[i]
	}
	all := make([]simcore.Job, len(b.jobs))
	next := slices.Clone(count[:len(b.insts)])
	for k, o := range b.owner {
		all[next[o]] = b.jobs[k]
		next[o]++
	}
	b.jobs, b.owner = nil, nil
	for i := range b.insts {
		if err := b.ctx.Err(); err != nil {
			return nil, fmt.Errorf("read %s: %w", file, err)
		}
		in := &b.insts[i]
		in.Jobs = all[count[i]:count[i+1]:count[i+1]]
		if err := in.Validate(); err != nil {
			return nil, &FileError{File: file, Err: err}
		}
	}
	return b.insts, nil
}

// parseInt reads an integer cell. Integral decimal values such as "3.0" or
// "1e3" (as spreadsheet and dataframe tools write integers) are accepted;
// NaN, ±Inf, fractions and text are errors.
func parseInt(col, s string) (int64, error) {
	s = strings.TrimSpace(s)
	if v, err := strconv.ParseInt(s, 10, 64); err == nil {
		return v, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	switch {
	case s == "":
		return 0, fmt.Errorf("column %s: missing value", col)
	case errors.Is(err, strconv.ErrRange):
		return 0, fmt.Errorf("column %s: %q is out of range", col, s)
	case err != nil:
		return 0, fmt.Errorf("column %s: %q is not an integer", col, s)
	case math.IsNaN(f) || math.IsInf(f, 0):
		return 0, fmt.Errorf("column %s: %q is not allowed (NaN/Inf in an integer column)", col, s)
	case f != math.Trunc(f):
		return 0, fmt.Errorf("column %s: %q is not an integer", col, s)
	case math.Abs(f) > float64(maxTime):
		return 0, fmt.Errorf("column %s: %q is out of range", col, s)
	}
	return int64(f), nil
}

package philly

import (
	"cmp"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/evogp/evogp/datasets"
	"github.com/evogp/evogp/simcore"
)

// Source is the value of datasets.Meta.Source for imported Philly data.
const Source = "philly"

// Reason is why a well-formed row was skipped. A row is counted under the
// first reason that applies, in the order of the constants.
type Reason int

// The skip reasons, in the order they are checked.
const (
	BadTimestamp    Reason = iota // timestamp not YYYY-MM-DD HH:MM:SS
	BadDuration                   // duration not a number, NaN, ±Inf, negative or above 2^53 s
	BadGPUs                       // num_gpus not an integer in int32 range
	NonPositiveGPUs               // num_gpus ≤ 0
	BadGPUTime                    // gpu_time not a number or ≠ duration × num_gpus
	VCNotKept                     // the VC is not one of Options.VCs
	OutsideWindow                 // submit time outside Options.Window
	OutsideSplits                 // inside the window but in no split window
	DoesNotFit                    // the job cannot run on its cluster even when it is empty
	NumReasons                    // the number of reasons (not a reason)
)

// String is the reason's key in dataset.yaml (skipped.<key>).
func (r Reason) String() string {
	switch r {
	case BadTimestamp:
		return "bad_timestamp"
	case BadDuration:
		return "bad_duration"
	case BadGPUs:
		return "bad_gpus"
	case NonPositiveGPUs:
		return "nonpositive_gpus"
	case BadGPUTime:
		return "bad_gpu_time"
	case VCNotKept:
		return "vc_not_kept"
	case OutsideWindow:
		return "outside_window"
	case OutsideSplits:
		return "outside_splits"
	case DoesNotFit:
		return "does_not_fit"
	}
	return fmt.Sprintf("reason(%d)", int(r))
}

// Describe says in words what the reason means, for the import report.
func (r Reason) Describe() string {
	switch r {
	case BadTimestamp:
		return "timestamp is not YYYY-MM-DD HH:MM:SS"
	case BadDuration:
		return "duration is not a number ≥ 0 (NaN, Inf, negative, > 2^53 s)"
	case BadGPUs:
		return "num_gpus is not an integer"
	case NonPositiveGPUs:
		return "num_gpus ≤ 0"
	case BadGPUTime:
		return "gpu_time ≠ duration × num_gpus"
	case VCNotKept:
		return "VC not kept"
	case OutsideWindow:
		return "submitted outside the window"
	case OutsideSplits:
		return "in the window but in no split window"
	case DoesNotFit:
		return "does not fit its cluster"
	}
	return r.String()
}

// Counts are what happened to the rows of the input.
type Counts struct {
	Rows              int             // data rows read (header and blank lines excluded)
	Kept              int             // rows that became jobs
	Skipped           [NumReasons]int // rows skipped, by reason
	FirstLine         [NumReasons]int // the line of the first row skipped for each reason (0: none)
	RaisedToOneSecond int             // kept jobs whose duration was below 1 s and became 1 s
}

// SkippedTotal is the number of rows skipped for any reason.
func (c Counts) SkippedTotal() int {
	n := 0
	for _, k := range c.Skipped {
		n += k
	}
	return n
}

// Cluster describes one imported cluster and how its capacity was chosen.
type Cluster struct {
	VCs        []string // the VC of the cluster, or every kept VC for a single cluster
	Nodes      int      // N (per instance: the largest instance's N)
	MinNodes   int      // per instance: the smallest instance's N (else 0)
	Rule       string   // fixed, scaled, scaled+raised, load or load per instance
	Jobs       int      // kept jobs submitted to it, all splits
	GPUSeconds float64  // Σ g·d of those jobs
	Load       float64  // offered load Σ g·d / (N·G·T) over the import window T (per instance: the highest instance's)
}

// SplitResult is one imported dataset.
type SplitResult struct {
	Name       string // split name; "" when Options.Splits is empty
	Window     Window // the split's window (Options.Window when no splits)
	Dataset    datasets.Dataset
	Jobs       int // jobs in its instances (a job in k overlapping instances counts k times)
	EmptySpans int // instance spans without any job (not instances)
}

// Result is the outcome of an import: one dataset per split, the clusters
// and the row counts.
type Result struct {
	Splits   []SplitResult
	Clusters []Cluster
	Counts   Counts
	SHA256   string // hex SHA-256 of the input (ImportFile only)
}

// row is a parsed row that passed the per-row checks.
type row struct {
	id      int64 // 0-based data row
	line    int   // line in the input
	submit  int64 // Unix seconds
	dur     int64 // seconds, ≥ 1
	raised  bool  // dur was below 1 s
	gpus    int64
	workers int64
	vc      int // index in Options.VCs
	cluster int
	split   int // index in Options.Splits (0 when there are none)
}

// column names of the trace.
const (
	colTimestamp = "timestamp"
	colDuration  = "duration"
	colGPUs      = "num_gpus"
	colGPUTime   = "gpu_time"
	colCluster   = "cluster"
)

// ImportFile imports the trace at path (see Import) and records its SHA-256
// in Result.SHA256 and in every dataset's options (sha256). opts.Name
// defaults to path.
func ImportFile(path string, opts Options) (Result, error) {
	f, err := os.Open(path)
	if err != nil {
		return Result{}, fmt.Errorf("import philly: %w", err)
	}
	defer f.Close()
	if opts.Name == "" {
		opts.Name = path
	}
	h := sha256.New()
	tee := io.TeeReader(f, h)
	res, err := Import(tee, opts)
	if err != nil {
		return res, err
	}
	if _, err := io.Copy(io.Discard, tee); err != nil {
		return Result{}, fmt.Errorf("import philly: %s: %w", path, err)
	}
	res.SHA256 = hex.EncodeToString(h.Sum(nil))
	for i := range res.Splits {
		res.Splits[i].Dataset.Meta.Options["sha256"] = res.SHA256
	}
	return res, nil
}

// Import reads the Philly trace as CSV from r and builds one dataset per
// split following the rules of the package documentation. Structural
// corruption is a *datasets.FileError; unusable rows are counted in
// Result.Counts. When no job is kept (in some split) Import returns an
// error together with a Result that holds the counts and no datasets, so
// the caller can show why.
func Import(r io.Reader, opts Options) (Result, error) {
	o, err := opts.normalised()
	if err != nil {
		return Result{}, fmt.Errorf("import philly %s: %w", nameOr(opts.Name), err)
	}
	rows, counts, err := readRows(r, o)
	if err != nil {
		return Result{}, err
	}
	clusters, err := chooseCapacities(rows, o)
	if err != nil {
		return Result{Counts: counts}, fmt.Errorf("import philly %s: %w", o.Name, err)
	}
	kept := rows[:0]
	G := int64(o.GPUsPerNode)
	for _, rw := range rows {
		// Sized per instance, every instance's cluster holds its largest job.
		if !o.PerInstance && nodesNeeded(rw.gpus, rw.workers, G) > int64(clusters[rw.cluster].Nodes) {
			counts.skip(DoesNotFit, rw.line)
			continue
		}
		kept = append(kept, rw)
		c := &clusters[rw.cluster]
		c.Jobs++
		c.GPUSeconds += float64(rw.gpus) * float64(rw.dur)
		if rw.raised {
			counts.RaisedToOneSecond++
		}
	}
	counts.Kept = len(kept)
	T := float64(o.Window.To.Unix() - o.Window.From.Unix())
	for i := range clusters {
		if c := &clusters[i]; !o.PerInstance {
			c.Load = c.GPUSeconds / (float64(c.Nodes) * float64(G) * T)
		}
	}
	res := Result{Clusters: clusters, Counts: counts}
	slices.SortFunc(kept, func(x, y row) int {
		return cmp.Or(cmp.Compare(x.split, y.split), cmp.Compare(x.submit, y.submit), cmp.Compare(x.id, y.id))
	})
	splits := o.Splits
	if len(splits) == 0 {
		splits = []Split{{Window: o.Window}}
	}
	for s, sp := range splits {
		lo := sort.Search(len(kept), func(i int) bool { return kept[i].split >= s })
		hi := sort.Search(len(kept), func(i int) bool { return kept[i].split > s })
		sr, err := buildSplit(kept[lo:hi], sp, o, clusters)
		if err != nil {
			return Result{Counts: counts, Clusters: clusters}, fmt.Errorf("import philly %s: %w", o.Name, err)
		}
		res.Splits = append(res.Splits, sr)
	}
	meta, err := metaOptions(o, res)
	if err != nil {
		return Result{Counts: counts, Clusters: clusters}, fmt.Errorf("import philly %s: %w", o.Name, err)
	}
	for i := range res.Splits {
		m := make(map[string]string, len(meta))
		for k, v := range meta {
			m[k] = v
		}
		res.Splits[i].Dataset.Meta = datasets.Meta{Split: res.Splits[i].Name, Source: Source, Options: m}
	}
	return res, nil
}

func nameOr(name string) string {
	if name == "" {
		return "input"
	}
	return name
}

func (c *Counts) skip(r Reason, line int) {
	c.Skipped[r]++
	if c.FirstLine[r] == 0 {
		c.FirstLine[r] = line
	}
}

// readRows parses the CSV and applies every per-row check except the fit,
// which needs the capacities.
func readRows(r io.Reader, o Options) ([]row, Counts, error) {
	var counts Counts
	fileErr := func(rowNo, line int, err error) error {
		return &datasets.FileError{File: o.Name, Row: rowNo, Line: line, Err: err}
	}
	cr := csv.NewReader(r)
	cr.ReuseRecord = true
	header, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return nil, counts, fileErr(0, 0, errors.New("empty input: no header (want timestamp,duration,num_gpus,gpu_time,cluster)"))
	}
	if err != nil {
		return nil, counts, csvError(o.Name, 0, err)
	}
	col := map[string]int{colTimestamp: -1, colDuration: -1, colGPUs: -1, colGPUTime: -1, colCluster: -1}
	for i, h := range header {
		h = strings.ToLower(strings.TrimSpace(strings.TrimPrefix(h, "\ufeff")))
		if j, known := col[h]; known {
			if j >= 0 {
				return nil, counts, fileErr(0, 1, fmt.Errorf("header: column %q appears twice (fields %d and %d)", h, j+1, i+1))
			}
			col[h] = i
		}
	}
	for _, name := range []string{colTimestamp, colDuration, colGPUs, colCluster} {
		if col[name] < 0 {
			return nil, counts, fileErr(0, 1, fmt.Errorf("header %q: no %q column (want timestamp,duration,num_gpus,gpu_time,cluster)", strings.Join(header, ","), name))
		}
	}
	iTS, iDur, iGPU, iGT, iVC := col[colTimestamp], col[colDuration], col[colGPUs], col[colGPUTime], col[colCluster]
	cr.FieldsPerRecord = len(header)

	vcIndex := make(map[string]int, len(o.VCs))
	for i, vc := range o.VCs {
		vcIndex[vc] = i
	}
	from, to := o.Window.From.Unix(), o.Window.To.Unix()
	G := int64(o.GPUsPerNode)
	splitFor := func(t int64) int {
		if len(o.Splits) == 0 {
			return 0
		}
		for i, s := range o.Splits {
			if t >= s.Window.From.Unix() && t < s.Window.To.Unix() {
				return i
			}
		}
		return -1
	}
	workersOf := make(map[int64]int64) // worker split per GPU count, computed once
	var rows []row
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, counts, csvError(o.Name, counts.Rows+1, err)
		}
		line, _ := cr.FieldPos(0)
		id := int64(counts.Rows)
		counts.Rows++
		ts, err := time.Parse(TimeLayout, strings.TrimSpace(rec[iTS]))
		if err != nil {
			counts.skip(BadTimestamp, line)
			continue
		}
		d, err := strconv.ParseFloat(strings.TrimSpace(rec[iDur]), 64)
		if err != nil || !(d >= 0) || d > float64(maxSeconds) {
			counts.skip(BadDuration, line)
			continue
		}
		g, err := strconv.ParseInt(strings.TrimSpace(rec[iGPU]), 10, 32)
		if err != nil {
			counts.skip(BadGPUs, line)
			continue
		}
		if g <= 0 {
			counts.skip(NonPositiveGPUs, line)
			continue
		}
		if iGT >= 0 {
			gt, err := strconv.ParseFloat(strings.TrimSpace(rec[iGT]), 64)
			want := d * float64(g)
			if err != nil || !(math.Abs(gt-want) <= 1e-9*math.Max(1, want)) {
				counts.skip(BadGPUTime, line)
				continue
			}
		}
		vc, ok := vcIndex[strings.TrimSpace(rec[iVC])]
		if !ok {
			counts.skip(VCNotKept, line)
			continue
		}
		t := ts.Unix()
		if t < from || t >= to {
			counts.skip(OutsideWindow, line)
			continue
		}
		split := splitFor(t)
		if split < 0 {
			counts.skip(OutsideSplits, line)
			continue
		}
		rw := row{id: id, line: line, submit: t, dur: int64(d), gpus: g, vc: vc, cluster: vc, split: split}
		if o.SingleCluster {
			rw.cluster = 0
		}
		if rw.dur < 1 {
			rw.dur, rw.raised = 1, true
		}
		w, ok := workersOf[g]
		if !ok {
			w = workerSplit(g, G)
			workersOf[g] = w
		}
		rw.workers = w
		rows = append(rows, rw)
	}
	return rows, counts, nil
}

// csvError turns an encoding/csv error into a FileError naming the line,
// and the field for a wrong field count. A quoted field left open runs on
// over later lines until the reader meets a quote it cannot pair; the
// error then names the line where the record starts (csv.ParseError's
// StartLine: where the broken quote is) and says where the reader gave up.
func csvError(name string, rowNo int, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		if pe.StartLine > 0 && pe.StartLine != pe.Line {
			return &datasets.FileError{File: name, Row: rowNo, Line: pe.StartLine,
				Err: fmt.Errorf("a quoted field opened on this line is not closed where it should be (the record ran on to line %d, column %d): %w", pe.Line, pe.Column, pe.Err)}
		}
		if errors.Is(pe.Err, csv.ErrFieldCount) {
			return &datasets.FileError{File: name, Row: rowNo, Line: pe.Line, Err: fmt.Errorf("wrong number of fields (the header has a different count): %w", pe.Err)}
		}
		return &datasets.FileError{File: name, Row: rowNo, Line: pe.Line, Err: fmt.Errorf("column %d: %w", pe.Column, pe.Err)}
	}
	return fmt.Errorf("import philly %s: %w", name, err)
}

// workerSplit is r for a job of g GPUs on nodes of G GPUs: 1 when g ≤ G,
// else the smallest divisor of g that is at least ⌈g/G⌉ (so w = g/r ≤ G).
func workerSplit(g, G int64) int64 {
	if g <= G {
		return 1
	}
	lo := (g + G - 1) / G
	best := g
	for d := int64(1); d*d <= g; d++ {
		if g%d != 0 {
			continue
		}
		if d >= lo && d < best {
			best = d
		}
		if e := g / d; e >= lo && e < best {
			best = e
		}
	}
	return best
}

// nodesNeeded is the smallest node count on which r workers of g/r GPUs fit
// with G GPUs per node: ⌈r / ⌊G/w⌋⌉.
func nodesNeeded(g, r, G int64) int64 {
	perNode := G / (g / r)
	return (r + perNode - 1) / perNode
}

// chooseCapacities sets every cluster's node count by the rule of the
// options (package documentation, Capacities).
func chooseCapacities(rows []row, o Options) ([]Cluster, error) {
	P := len(o.VCs)
	if o.SingleCluster {
		P = 1
	}
	clusters := make([]Cluster, P)
	need := make([]int64, P)
	gpuSec := make([]float64, P)
	G := int64(o.GPUsPerNode)
	for _, rw := range rows {
		need[rw.cluster] = max(need[rw.cluster], nodesNeeded(rw.gpus, rw.workers, G))
		gpuSec[rw.cluster] += float64(rw.gpus) * float64(rw.dur)
	}
	T := float64(o.Window.To.Unix() - o.Window.From.Unix())
	for p := range clusters {
		c := &clusters[p]
		if o.SingleCluster {
			c.VCs = append([]string(nil), o.VCs...)
		} else {
			c.VCs = []string{o.VCs[p]}
		}
		var n int64
		switch {
		case o.PerInstance:
			c.Rule = "load per instance" // Nodes, MinNodes, Load: set by buildSplit
			n = 0
		case o.Load > 0:
			c.Rule = "load"
			n = max(loadNodes(gpuSec[p], o.Load, float64(G), T), need[p], 1)
		default:
			fixed := int64(o.SingleNodes)
			if !o.SingleCluster {
				fixed = int64(o.Nodes[o.VCs[p]])
			}
			c.Rule, n = "fixed", fixed
			if o.Scale > 0 {
				scaled := max(ceilTolerant(float64(fixed)*o.Scale), 1)
				c.Rule, n = "scaled", scaled
				if need[p] > scaled {
					c.Rule, n = "scaled+raised", need[p]
				}
			}
		}
		if n > maxCount {
			return nil, fmt.Errorf("cluster %d (VC %s): %s rule gives %d nodes, above %d", p, strings.Join(c.VCs, "+"), c.Rule, n, maxCount)
		}
		c.Nodes = int(n)
	}
	return clusters, nil
}

// loadNodes is the smallest N ≥ 1 with gpuSec / (N·G·T) ≤ rho, or a value
// above maxCount when none fits in range.
func loadNodes(gpuSec, rho, G, T float64) int64 {
	x := gpuSec / (rho * G * T)
	if !(x <= float64(maxCount)) {
		return maxCount + 1
	}
	n := max(int64(math.Ceil(x)), 1)
	// Settle rounding of the quotient with the defining inequality itself.
	for n > 1 && gpuSec/(float64(n-1)*G*T) <= rho {
		n--
	}
	for gpuSec/(float64(n)*G*T) > rho {
		n++
	}
	return n
}

// ceilTolerant is ⌈x⌉, except that x within 1e-9 (relative) above an
// integer counts as that integer (64 × 0.1 is 6.4, but 30 × 0.1 is
// 3.0000000000000004, which means 3).
func ceilTolerant(x float64) int64 {
	if !(x <= float64(maxCount)) {
		return maxCount + 1
	}
	f := math.Floor(x)
	if x-f <= 1e-9*math.Max(1, x) {
		return int64(f)
	}
	return int64(f) + 1
}

// buildSplit cuts one split's rows (sorted by submit time, then id) into
// instances of o.Span starting every o.Stride: the k-th starts at the
// window's start + k·Stride and holds the jobs submitted in
// [start, min(start+Span, window end)); starts go on until an instance
// reaches the window's end (with Stride = Span: consecutive spans, the
// last one possibly shorter). Spans without a job are not instances. With
// o.PerInstance every instance's clusters are sized by its own jobs.
func buildSplit(rows []row, sp Split, o Options, clusters []Cluster) (SplitResult, error) {
	sr := SplitResult{Name: sp.Name, Window: sp.Window}
	label := "the import"
	if sp.Name != "" {
		label = "split " + sp.Name
	}
	if len(rows) == 0 {
		return sr, fmt.Errorf("%s (%v): no job kept, nothing to write", label, sp.Window)
	}
	from, to := sp.Window.From.Unix(), sp.Window.To.Unix()
	span, stride := int64(o.Span/time.Second), int64(o.Stride/time.Second)
	cl := make([]simcore.Cluster, len(clusters))
	for p, c := range clusters {
		cl[p] = simcore.Cluster{Nodes: c.Nodes, GPUsPerNode: o.GPUsPerNode}
	}
	spans := 0
	for start := from; start < to; start += stride {
		spans++
		end := min(start+span, to)
		i := sort.Search(len(rows), func(k int) bool { return rows[k].submit >= start })
		j := sort.Search(len(rows), func(k int) bool { return rows[k].submit >= end })
		if i < j {
			inst := simcore.Instance{
				Name:     "philly-" + instanceStamp(time.Unix(start, 0)),
				Clusters: append([]simcore.Cluster(nil), cl...),
				Jobs:     make([]simcore.Job, 0, j-i),
			}
			if o.PerInstance {
				inst.Clusters = instanceClusters(rows[i:j], o, clusters, float64(end-start))
			}
			for _, rw := range rows[i:j] {
				inst.Jobs = append(inst.Jobs, simcore.Job{
					ID: rw.id, Arrival: rw.submit - start, Cluster: rw.cluster, Duration: rw.dur,
					Workers: int(rw.workers), GPUs: int(rw.gpus), Priority: o.Priority, Name: o.VCs[rw.vc],
				})
			}
			if err := inst.Validate(); err != nil {
				return sr, fmt.Errorf("%s: built an invalid instance (a bug): %w", label, err)
			}
			sr.Dataset.Instances = append(sr.Dataset.Instances, inst)
			sr.Jobs += j - i
		}
		if end >= to {
			break
		}
	}
	sr.EmptySpans = spans - len(sr.Dataset.Instances)
	return sr, nil
}

// instanceClusters sizes the clusters of one instance of length T seconds
// holding rows: per cluster the smallest N with Σ g·d / (N·G·T) ≤ o.Load,
// never below what its largest job needs, nor below 1. It records the
// range of node counts and the highest instance load in summary.
func instanceClusters(rows []row, o Options, summary []Cluster, T float64) []simcore.Cluster {
	P := len(summary)
	G := int64(o.GPUsPerNode)
	need := make([]int64, P)
	gpuSec := make([]float64, P)
	for _, rw := range rows {
		need[rw.cluster] = max(need[rw.cluster], nodesNeeded(rw.gpus, rw.workers, G))
		gpuSec[rw.cluster] += float64(rw.gpus) * float64(rw.dur)
	}
	cl := make([]simcore.Cluster, P)
	for p := range cl {
		n := int(min(max(loadNodes(gpuSec[p], o.Load, float64(G), T), need[p], 1), maxCount))
		cl[p] = simcore.Cluster{Nodes: n, GPUsPerNode: o.GPUsPerNode}
		c := &summary[p]
		c.Nodes = max(c.Nodes, n)
		if c.MinNodes == 0 || n < c.MinNodes {
			c.MinNodes = n
		}
		c.Load = max(c.Load, gpuSec[p]/(float64(n)*float64(G)*T))
	}
	return cl
}

// instanceStamp names a span start: the date at midnight UTC, else the
// date and time without colons (safe in file names).
func instanceStamp(t time.Time) string {
	t = t.UTC()
	if t.Hour() == 0 && t.Minute() == 0 && t.Second() == 0 {
		return t.Format(time.DateOnly)
	}
	return t.Format("2006-01-02T150405")
}

// metaOptions is the provenance recorded in every dataset.yaml of one
// import: the options, the cluster mapping and the counts.
func metaOptions(o Options, res Result) (map[string]string, error) {
	m := map[string]string{
		"input":                  o.Name,
		"window":                 o.Window.String(),
		"instance_span":          o.Span.String(),
		"vcs":                    strings.Join(o.VCs, ","),
		"gpus_per_node":          strconv.Itoa(o.GPUsPerNode),
		"single_cluster":         strconv.FormatBool(o.SingleCluster),
		"priority":               strconv.Itoa(o.Priority),
		"job_id":                 "0-based data row of the input",
		"worker_split":           "1 worker if g ≤ G, else r = smallest divisor of g with r ≥ ceil(g/G)",
		"rows_read":              strconv.Itoa(res.Counts.Rows),
		"rows_kept":              strconv.Itoa(res.Counts.Kept),
		"rows_skipped":           strconv.Itoa(res.Counts.SkippedTotal()),
		"durations_raised_to_1s": strconv.Itoa(res.Counts.RaisedToOneSecond),
	}
	if o.Stride != o.Span {
		m["instance_stride"] = o.Stride.String()
	}
	switch {
	case o.PerInstance:
		m["capacity"] = "load:" + strconv.FormatFloat(o.Load, 'g', -1, 64) + " per instance"
	case o.Load > 0:
		m["capacity"] = "load:" + strconv.FormatFloat(o.Load, 'g', -1, 64)
	case o.Scale > 0:
		m["capacity"] = "fixed, scaled by " + strconv.FormatFloat(o.Scale, 'g', -1, 64) + " and raised to fit"
	default:
		m["capacity"] = "fixed"
	}
	for r := Reason(0); r < NumReasons; r++ {
		m["skipped."+r.String()] = strconv.Itoa(res.Counts.Skipped[r])
		if l := res.Counts.FirstLine[r]; l > 0 {
			m["first_line."+r.String()] = strconv.Itoa(l)
		}
	}
	for p, c := range res.Clusters {
		key := "cluster." + strconv.Itoa(p)
		m[key] = strings.Join(c.VCs, "+")
		m[key+".nodes"] = strconv.Itoa(c.Nodes)
		if o.PerInstance {
			m[key+".min_nodes"] = strconv.Itoa(c.MinNodes)
		}
		m[key+".rule"] = c.Rule
		m[key+".jobs"] = strconv.Itoa(c.Jobs)
		m[key+".load"] = strconv.FormatFloat(c.Load, 'f', 4, 64)
	}
	for _, s := range res.Splits {
		suffix := ""
		if s.Name != "" {
			suffix = "." + s.Name
			m["split"+suffix] = s.Window.String()
		}
		m["jobs"+suffix] = strconv.Itoa(s.Jobs)
		m["instances"+suffix] = strconv.Itoa(len(s.Dataset.Instances))
		m["empty_spans"+suffix] = strconv.Itoa(s.EmptySpans)
	}
	for k, v := range o.Record {
		if _, clash := m[k]; clash || k == "sha256" {
			return nil, fmt.Errorf("recorded option %q clashes with a key the import writes", k)
		}
		m[k] = v
	}
	return m, nil
}

package philly

import (
	"encoding/csv"
	"errors"
	"github.com/evogp/evogp/internal/tracefiles"
	"io"
	"math"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/evogp/evogp/datasets"
	"github.com/evogp/evogp/simcore"
)

// expectation is what an independent, deliberately simple scan of the trace
// says the import of one window must produce.
type expectation struct {
	rows    int
	skipped map[Reason]int
	jobs    map[int64]simcore.Job // by id, arrival relative to its day
	day     map[int64]string      // id → instance name
}

// scanTrace reads the CSV with encoding/csv and applies the documented rules
// in the most direct way (brute-force worker split, day instances), without
// any code of the package under test.
func scanTrace(t *testing.T, path string, from, to time.Time, nodes map[string]int, vcOrder []string) expectation {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cr := csv.NewReader(f)
	if _, err := cr.Read(); err != nil {
		t.Fatal(err)
	}
	cluster := map[string]int{}
	for i, vc := range vcOrder {
		cluster[vc] = i
	}
	e := expectation{skipped: map[Reason]int{}, jobs: map[int64]simcore.Job{}, day: map[int64]string{}}
	for id := int64(0); ; id++ {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		e.rows++
		ts, err := time.Parse("2006-01-02 15:04:05", rec[0])
		if err != nil {
			e.skipped[BadTimestamp]++
			continue
		}
		d, err := strconv.ParseFloat(rec[1], 64)
		if err != nil || d < 0 || math.IsNaN(d) || math.IsInf(d, 0) {
			e.skipped[BadDuration]++
			continue
		}
		g, err := strconv.Atoi(rec[2])
		if err != nil {
			e.skipped[BadGPUs]++
			continue
		}
		if g <= 0 {
			e.skipped[NonPositiveGPUs]++
			continue
		}
		if gt, err := strconv.ParseFloat(rec[3], 64); err != nil || math.Abs(gt-d*float64(g)) > 1e-6 {
			e.skipped[BadGPUTime]++
			continue
		}
		p, ok := cluster[rec[4]]
		if !ok {
			e.skipped[VCNotKept]++
			continue
		}
		if ts.Before(from) || !ts.Before(to) {
			e.skipped[OutsideWindow]++
			continue
		}
		r := 1
		if g > 8 {
			for r = (g + 7) / 8; g%r != 0; r++ {
			}
		}
		w := g / r
		if (8/w)*nodes[rec[4]] < r {
			e.skipped[DoesNotFit]++
			continue
		}
		dur := int64(d)
		if dur == 0 {
			dur = 1
		}
		dayStart := time.Date(ts.Year(), ts.Month(), ts.Day(), 0, 0, 0, 0, time.UTC)
		e.jobs[id] = simcore.Job{ID: id, Arrival: int64(ts.Sub(dayStart) / time.Second), Cluster: p, Duration: dur,
			Workers: r, GPUs: g, Priority: 1, Name: rec[4]}
		e.day[id] = "philly-" + dayStart.Format("2006-01-02")
	}
	return e
}

// TestImportRealWeek imports one week of the real trace with the 11 Helios
// VCs and their node counts, and checks every job against an independent
// scan of the file.
func TestImportRealWeek(t *testing.T) {
	path := tracefiles.Philly(t, "philly.csv")
	w := mustWindow(t, "2017-10-02..2017-10-09")
	o := heliosOptions(t, w)
	res, err := ImportFile(path, o)
	if err != nil {
		t.Fatal(err)
	}
	want := scanTrace(t, path, w.From, w.To, o.Nodes, o.VCs)

	if res.Counts.Rows != want.rows || res.Counts.Rows != 82247 {
		t.Errorf("rows read = %d, independent scan %d (README: 82,247)", res.Counts.Rows, want.rows)
	}
	if res.Counts.Kept != len(want.jobs) {
		t.Errorf("kept = %d, independent scan %d", res.Counts.Kept, len(want.jobs))
	}
	for r := Reason(0); r < NumReasons; r++ {
		if res.Counts.Skipped[r] != want.skipped[r] {
			t.Errorf("skipped %s = %d, independent scan %d", r, res.Counts.Skipped[r], want.skipped[r])
		}
		if (res.Counts.Skipped[r] > 0) != (res.Counts.FirstLine[r] > 0) {
			t.Errorf("%s: %d skipped but first line %d", r, res.Counts.Skipped[r], res.Counts.FirstLine[r])
		}
	}
	if res.Counts.Kept+res.Counts.SkippedTotal() != res.Counts.Rows {
		t.Errorf("kept %d + skipped %d ≠ rows %d", res.Counts.Kept, res.Counts.SkippedTotal(), res.Counts.Rows)
	}
	if res.Counts.Skipped[VCNotKept] == 0 || res.Counts.Skipped[OutsideWindow] == 0 {
		t.Errorf("a one-week window of 11 of 15 VCs must skip rows of other VCs and weeks: %+v", res.Counts.Skipped)
	}
	if len(res.SHA256) != 64 || res.Splits[0].Dataset.Meta.Options["sha256"] != res.SHA256 {
		t.Errorf("sha256 %q not recorded: %v", res.SHA256, res.Splits[0].Dataset.Meta.Options["sha256"])
	}

	if len(res.Splits) != 1 {
		t.Fatalf("%d datasets, want 1", len(res.Splits))
	}
	ds := res.Splits[0].Dataset
	if len(ds.Instances) != 7 || res.Splits[0].EmptySpans != 0 {
		t.Fatalf("%d instances (%d empty spans), want one per day of the week", len(ds.Instances), res.Splits[0].EmptySpans)
	}
	seen := map[int64]bool{}
	for k, in := range ds.Instances {
		if wantName := "philly-" + w.From.AddDate(0, 0, k).Format("2006-01-02"); in.Name != wantName {
			t.Errorf("instance %d named %q, want %q", k, in.Name, wantName)
		}
		if err := in.Validate(); err != nil {
			t.Error(err)
		}
		if len(in.Clusters) != len(o.VCs) {
			t.Fatalf("%s: %d clusters, want %d", in.Name, len(in.Clusters), len(o.VCs))
		}
		for p, c := range in.Clusters {
			if c.Nodes != o.Nodes[o.VCs[p]] || c.GPUsPerNode != 8 {
				t.Errorf("%s cluster %d (%s): %d nodes × %d GPUs, VC file says %d × 8", in.Name, p, o.VCs[p], c.Nodes, c.GPUsPerNode, o.Nodes[o.VCs[p]])
			}
		}
		for i, j := range in.Jobs {
			if i > 0 {
				prev := in.Jobs[i-1]
				if j.Arrival < prev.Arrival || j.Arrival == prev.Arrival && j.ID <= prev.ID {
					t.Fatalf("%s: job %d (arrival %d) after job %d (arrival %d): not ordered by (arrival, id)", in.Name, j.ID, j.Arrival, prev.ID, prev.Arrival)
				}
			}
			if seen[j.ID] {
				t.Fatalf("job id %d appears twice", j.ID)
			}
			seen[j.ID] = true
			wj, ok := want.jobs[j.ID]
			if !ok {
				t.Fatalf("%s: job %d is not a job of the independent scan", in.Name, j.ID)
			}
			if !reflect.DeepEqual(j, wj) || want.day[j.ID] != in.Name {
				t.Errorf("%s: job %+v, independent scan %+v in %s", in.Name, j, wj, want.day[j.ID])
			}
			if j.Arrival < 0 || j.Arrival >= 86400 {
				t.Errorf("%s: job %d arrival %d outside its day", in.Name, j.ID, j.Arrival)
			}
		}
	}
	if len(seen) != len(want.jobs) {
		t.Errorf("%d jobs in the instances, independent scan %d", len(seen), len(want.jobs))
	}
	m := ds.Meta
	if m.Source != "philly" || m.Options["rows_kept"] != strconv.Itoa(len(want.jobs)) || m.Options["cluster.0"] != o.VCs[0] ||
		m.Options["cluster.0.nodes"] != strconv.Itoa(o.Nodes[o.VCs[0]]) || m.Options["window"] != "2017-10-02..2017-10-09" {
		t.Errorf("meta does not record the import: %+v", m)
	}
}

// TestImportSingleCluster merges the Helios VCs into one cluster of
// 100 nodes × 8 GPUs (the paper's real-trace setting).
func TestImportSingleCluster(t *testing.T) {
	path := tracefiles.Philly(t, "philly.csv")
	w := mustWindow(t, "2017-10-02..2017-10-09")
	o := heliosOptions(t, w)
	multi, err := ImportFile(path, o)
	if err != nil {
		t.Fatal(err)
	}
	o.Nodes, o.SingleCluster, o.SingleNodes = nil, true, 100
	res, err := ImportFile(path, o)
	if err != nil {
		t.Fatal(err)
	}
	// No job of the trace needs more than 800 GPUs, so every job that
	// passed the per-row checks in the multi-cluster import is kept here.
	if want := multi.Counts.Kept + multi.Counts.Skipped[DoesNotFit]; res.Counts.Kept != want || res.Counts.Skipped[DoesNotFit] != 0 {
		t.Errorf("single cluster kept %d (%d do not fit), want %d", res.Counts.Kept, res.Counts.Skipped[DoesNotFit], want)
	}
	if len(res.Clusters) != 1 || res.Clusters[0].Nodes != 100 || len(res.Clusters[0].VCs) != len(o.VCs) {
		t.Fatalf("clusters %+v", res.Clusters)
	}
	n := 0
	for _, in := range res.Splits[0].Dataset.Instances {
		if len(in.Clusters) != 1 || in.Clusters[0] != (simcore.Cluster{Nodes: 100, GPUsPerNode: 8}) {
			t.Fatalf("%s: clusters %+v", in.Name, in.Clusters)
		}
		for _, j := range in.Jobs {
			if j.Cluster != 0 {
				t.Fatalf("%s: job %d on cluster %d", in.Name, j.ID, j.Cluster)
			}
		}
		if err := in.Validate(); err != nil {
			t.Error(err)
		}
		n += len(in.Jobs)
	}
	if n != res.Counts.Kept {
		t.Errorf("%d jobs in instances, %d kept", n, res.Counts.Kept)
	}
	if got := res.Splits[0].Dataset.Meta.Options["cluster.0"]; got != strings.Join(o.VCs, "+") {
		t.Errorf("cluster.0 = %q", got)
	}
}

// synthetic covers every skip reason and the duration and worker rules;
// its last two rows fail two checks each (VC and window; duration and
// GPUs) and must be counted under the first.
// Window 2017-10-01..2017-10-03, VCs a (1 node) and b (3 nodes), 8 GPUs
// per node, daily instances.
const synthetic = `timestamp,duration,num_gpus,gpu_time,cluster
2017-10-01 00:00:10,100.9,1,100.9,a
2017-10-01 00:00:05,0.4,2,0.8,b
2017-10-01 00:00:05,50,16,800,b
2017-10-02 12:00:00,7,12,84,b
2017-13-01 00:00:00,1,1,1,a
2017-10-01,1,1,1,a
,1,1,1,a
2017-10-01 00:00:00,abc,1,abc,a
2017-10-01 00:00:00,NaN,1,NaN,a
2017-10-01 00:00:00,-1,1,-1,a
2017-10-01 00:00:00,+Inf,1,+Inf,a
2017-10-01 00:00:00,1e300,1,1e300,a
2017-10-01 00:00:00,1,1.5,1.5,a
2017-10-01 00:00:00,1,x,1,a
2017-10-01 00:00:00,1,0,0,a
2017-10-01 00:00:00,1,-4,-4,a
2017-10-01 00:00:00,1,2,3,a
2017-10-01 00:00:00,1,2,,a

2017-10-01 00:00:00,1,1,1,c
2017-10-01 00:00:00,1,1,1,
2017-09-30 23:59:59,1,1,1,a
2017-10-03 00:00:00,1,1,1,a
2017-10-01 00:00:00,1,16,16,a
2017-10-01 00:00:00,1,32,32,b
2017-10-02 23:59:59,1,17,17,b
2017-09-01 00:00:00,1,1,1,c
2017-10-01 00:00:00,-5,0,0,zz
`

func syntheticOptions(t testing.TB) Options {
	return Options{
		Name:   "synthetic.csv",
		Window: mustWindow(t, "2017-10-01..2017-10-03"),
		VCs:    []string{"a", "b"},
		Nodes:  map[string]int{"a": 1, "b": 3},
	}
}

func TestImportSyntheticReasons(t *testing.T) {
	res, err := Import(strings.NewReader(synthetic), syntheticOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	c := res.Counts
	want := [NumReasons]int{
		BadTimestamp: 3, BadDuration: 6, BadGPUs: 2, NonPositiveGPUs: 2, BadGPUTime: 2,
		VCNotKept: 3, OutsideWindow: 2, DoesNotFit: 2,
	}
	wantLine := [NumReasons]int{
		BadTimestamp: 6, BadDuration: 9, BadGPUs: 14, NonPositiveGPUs: 16, BadGPUTime: 18,
		VCNotKept: 21, OutsideWindow: 23, DoesNotFit: 25,
	}
	if c.Rows != 27 || c.Kept != 5 || c.Skipped != want || c.FirstLine != wantLine || c.RaisedToOneSecond != 1 {
		t.Errorf("counts %+v\nwant rows 27, kept 5, skipped %v, first lines %v, 1 raised", c, want, wantLine)
	}
	ds := res.Splits[0].Dataset
	if len(ds.Instances) != 2 {
		t.Fatalf("%d instances, want 2", len(ds.Instances))
	}
	day1, day2 := ds.Instances[0], ds.Instances[1]
	if day1.Name != "philly-2017-10-01" || day2.Name != "philly-2017-10-02" {
		t.Errorf("names %q, %q", day1.Name, day2.Name)
	}
	cl := []simcore.Cluster{{Nodes: 1, GPUsPerNode: 8}, {Nodes: 3, GPUsPerNode: 8}}
	wantJobs := [][]simcore.Job{
		{
			{ID: 1, Arrival: 5, Cluster: 1, Duration: 1, Workers: 1, GPUs: 2, Priority: 1, Name: "b"},
			{ID: 2, Arrival: 5, Cluster: 1, Duration: 50, Workers: 2, GPUs: 16, Priority: 1, Name: "b"},
			{ID: 0, Arrival: 10, Cluster: 0, Duration: 100, Workers: 1, GPUs: 1, Priority: 1, Name: "a"},
		},
		{
			{ID: 3, Arrival: 43200, Cluster: 1, Duration: 7, Workers: 2, GPUs: 12, Priority: 1, Name: "b"},
			{ID: 24, Arrival: 86399, Cluster: 1, Duration: 1, Workers: 17, GPUs: 17, Priority: 1, Name: "b"},
		},
	}
	for k, in := range []simcore.Instance{day1, day2} {
		if len(in.Clusters) != 2 || in.Clusters[0] != cl[0] || in.Clusters[1] != cl[1] {
			t.Errorf("%s: clusters %+v", in.Name, in.Clusters)
		}
		if len(in.Jobs) != len(wantJobs[k]) {
			t.Fatalf("%s: jobs %+v\nwant %+v", in.Name, in.Jobs, wantJobs[k])
		}
		for i := range in.Jobs {
			if !reflect.DeepEqual(in.Jobs[i], wantJobs[k][i]) {
				t.Errorf("%s job %d: %+v, want %+v", in.Name, i, in.Jobs[i], wantJobs[k][i])
			}
		}
	}
	o := ds.Meta.Options
	for k, v := range map[string]string{
		"rows_read": "27", "rows_kept": "5", "rows_skipped": "22", "skipped.bad_duration": "6", "first_line.bad_duration": "9",
		"skipped.outside_splits": "0", "durations_raised_to_1s": "1", "cluster.1": "b", "cluster.1.nodes": "3",
		"jobs": "5", "instances": "2", "empty_spans": "0", "priority": "1", "input": "synthetic.csv",
	} {
		if o[k] != v {
			t.Errorf("meta %s = %q, want %q", k, o[k], v)
		}
	}
}

// TestImportStructuralErrors: corruption of the file's structure is one
// error naming the input, line and problem.
func TestImportStructuralErrors(t *testing.T) {
	head := "timestamp,duration,num_gpus,gpu_time,cluster\n"
	ok := "2017-10-01 00:00:00,1,1,1,a\n"
	for _, c := range []struct {
		name, in string
		line     int
		want     string
	}{
		{"empty", "", 0, "no header"},
		{"missing column", "timestamp,duration,gpu_time,cluster\n" + ok, 1, `no "num_gpus" column`},
		{"duplicate column", "timestamp,duration,num_gpus,gpu_time,cluster,duration\n", 1, `"duration" appears twice`},
		{"too many fields", head + ok + ok + "2017-10-01 00:00:00,1,1,1,a,extra\n", 4, "wrong number of fields"},
		{"too few fields", head + "2017-10-01 00:00:00,1,1,1\n", 2, "wrong number of fields"},
		{"bare quote", head + ok + "2017-10-01 00:00:00,1\"0,1,1,a\n", 3, "bare"},
		{"unterminated quote", head + "\"2017-10-01 00:00:00,1,1,1,a\n", 2, "quote"},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, err := Import(strings.NewReader(c.in), syntheticOptions(t))
			var fe *datasets.FileError
			if !errors.As(err, &fe) {
				t.Fatalf("want a *datasets.FileError, got %v (result %+v)", err, res)
			}
			if fe.File != "synthetic.csv" || fe.Line != c.line || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q (line %d), want line %d and %q", err, fe.Line, c.line, c.want)
			}
			if len(res.Splits) != 0 {
				t.Error("a structural error must produce no dataset")
			}
		})
	}
	// Extra columns and a header in another column order are accepted.
	res, err := Import(strings.NewReader("cluster,extra,num_gpus,timestamp,duration\na,x,2,2017-10-01 00:00:00,5\n"), syntheticOptions(t))
	if err != nil || res.Counts.Kept != 1 || res.Splits[0].Dataset.Instances[0].Jobs[0].GPUs != 2 {
		t.Errorf("reordered header without gpu_time: %v, %+v", err, res.Counts)
	}
}

func TestImportEmptyResult(t *testing.T) {
	o := syntheticOptions(t)
	o.Window = mustWindow(t, "2018-01-01..2018-01-02")
	res, err := Import(strings.NewReader(synthetic), o)
	if err == nil || !strings.Contains(err.Error(), "no job kept") {
		t.Fatalf("want an empty-result error, got %v", err)
	}
	if len(res.Splits) != 0 || res.Counts.Rows != 27 || res.Counts.Skipped[OutsideWindow] == 0 {
		t.Errorf("the error result must carry the counts and no dataset: %+v", res)
	}
}

func TestImportSplitsAndSpans(t *testing.T) {
	o := syntheticOptions(t)
	o.Splits = []Split{
		{Name: "train", Window: mustWindow(t, "2017-10-01..2017-10-01 12:00:00")},
		{Name: "test", Window: mustWindow(t, "2017-10-02..2017-10-03")},
	}
	o.Span = 6 * time.Hour
	res, err := Import(strings.NewReader(synthetic), o)
	if err != nil {
		t.Fatal(err)
	}
	// Job 3 (2017-10-02 12:00) and job 24 (23:59:59) are in the test split,
	// in spans 2 and 3 of 4; the day-1 jobs in span 0 of train's 2.
	if res.Counts.Skipped[OutsideSplits] != 0 || res.Counts.Kept != 5 {
		t.Errorf("counts %+v", res.Counts)
	}
	tr, te := res.Splits[0], res.Splits[1]
	if tr.Name != "train" || tr.Jobs != 3 || len(tr.Dataset.Instances) != 1 || tr.EmptySpans != 1 || tr.Dataset.Meta.Split != "train" {
		t.Errorf("train: %+v", tr)
	}
	if te.Name != "test" || te.Jobs != 2 || len(te.Dataset.Instances) != 2 || te.EmptySpans != 2 {
		t.Errorf("test: %+v", te)
	}
	if n := te.Dataset.Instances[1].Name; n != "philly-2017-10-02T180000" {
		t.Errorf("test instance 1 named %q", n)
	}
	if a := te.Dataset.Instances[1].Jobs[0].Arrival; a != 6*3600-1 {
		t.Errorf("arrival %d, want relative to the span start 18:00", a)
	}
	if m := te.Dataset.Meta.Options; m["split.train"] != "2017-10-01..2017-10-01T12:00:00Z" || m["jobs.test"] != "2" || m["empty_spans.train"] != "1" {
		t.Errorf("meta %+v", m)
	}
	// Only a gap between the windows: the row in it is outside the splits.
	o.Splits[0].Window = mustWindow(t, "2017-10-01..2017-10-01 00:00:07")
	res, err = Import(strings.NewReader(synthetic), o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Counts.Skipped[OutsideSplits] != 1 || res.Counts.FirstLine[OutsideSplits] != 2 {
		t.Errorf("outside splits %d (first line %d), want 1 on line 2", res.Counts.Skipped[OutsideSplits], res.Counts.FirstLine[OutsideSplits])
	}
}

func TestImportCapacityRules(t *testing.T) {
	// Scale: a (1 node) × 0.5 → 1, raised to 2 for its 16-GPU job; b
	// (3 nodes) × 0.5 → 2, raised to 4 for its 32-GPU job.
	o := syntheticOptions(t)
	o.Scale = 0.5
	res, err := Import(strings.NewReader(synthetic), o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Clusters[0].Nodes != 2 || res.Clusters[0].Rule != "scaled+raised" || res.Clusters[1].Nodes != 4 || res.Clusters[1].Rule != "scaled+raised" {
		t.Errorf("scaled clusters %+v", res.Clusters)
	}
	if res.Counts.Skipped[DoesNotFit] != 0 || res.Counts.Kept != 7 {
		t.Errorf("scaling raises capacities so every job fits: %+v", res.Counts)
	}
	o.Nodes = map[string]int{"a": 30, "b": 70}
	o.Scale = 0.1
	if res, err = Import(strings.NewReader(synthetic), o); err != nil {
		t.Fatal(err)
	}
	if res.Clusters[0].Nodes != 3 || res.Clusters[1].Nodes != 7 || res.Clusters[0].Rule != "scaled" || res.Clusters[1].Rule != "scaled" {
		t.Errorf("30 × 0.1 (3.0000000000000004) and 70 × 0.1 must give 3 and 7 nodes: %+v", res.Clusters)
	}

	// Load: over the 2-day window, the derived N is the smallest that keeps
	// the offered load at or below ρ and fits the largest job.
	o = syntheticOptions(t)
	o.Nodes, o.Load = nil, 1e-5
	if res, err = Import(strings.NewReader(synthetic), o); err != nil {
		t.Fatal(err)
	}
	T := 2 * 86400.0
	for p, c := range res.Clusters {
		load := func(n int) float64 { return c.GPUSeconds / (float64(n) * 8 * T) }
		if c.Rule != "load" || load(c.Nodes) > o.Load || load(c.Nodes-1) <= o.Load {
			t.Errorf("cluster %d: %d nodes, load %v (ρ %v)", p, c.Nodes, load(c.Nodes), o.Load)
		}
	}
	// ρ·G·T = 1e-5 · 8 · 172800 = 13.824 GPU·s per node.
	// a: jobs 0 (1 GPU × 100 s) and 22 (16 × 1) = 116 GPU·s → ⌈8.39⌉ = 9.
	// b: jobs 1, 2, 3, 23, 24: 2 + 800 + 84 + 32 + 17 = 935 GPU·s → ⌈67.64⌉ = 68.
	if res.Clusters[0].Nodes != 9 || res.Clusters[1].Nodes != 68 || res.Counts.Skipped[DoesNotFit] != 0 || res.Counts.Kept != 7 {
		t.Errorf("load-derived nodes %d, %d; want 9, 68 and every job kept", res.Clusters[0].Nodes, res.Clusters[1].Nodes)
	}
	// A lax target keeps the node count at what the largest job needs.
	o.Load = 100
	if res, err = Import(strings.NewReader(synthetic), o); err != nil {
		t.Fatal(err)
	}
	if res.Clusters[0].Nodes != 2 || res.Clusters[1].Nodes != 4 {
		t.Errorf("lax load target: %+v", res.Clusters)
	}
}

func TestWorkerSplit(t *testing.T) {
	for _, c := range []struct{ g, G, r int64 }{
		{1, 8, 1}, {8, 8, 1}, {16, 8, 2}, {12, 8, 2}, {24, 8, 3}, {17, 8, 17}, {128, 8, 16},
		{10, 4, 5}, {9, 4, 3}, {7, 4, 7}, {2147483647, 8, 2147483647}, {36, 8, 6},
	} {
		r := workerSplit(c.g, c.G)
		if r != c.r || c.g%r != 0 || c.g/r > c.G {
			t.Errorf("workerSplit(%d, %d) = %d, want %d", c.g, c.G, r, c.r)
		}
	}
}

func TestOptionErrors(t *testing.T) {
	for name, mod := range map[string]func(*Options){
		"no window":         func(o *Options) { o.Window = Window{} },
		"no VCs":            func(o *Options) { o.VCs = nil },
		"duplicate VC":      func(o *Options) { o.VCs = []string{"a", "a"} },
		"missing nodes":     func(o *Options) { delete(o.Nodes, "b") },
		"nodes not kept":    func(o *Options) { o.Nodes["z"] = 3 },
		"zero nodes":        func(o *Options) { o.Nodes["a"] = 0 },
		"load and nodes":    func(o *Options) { o.Load = 0.8 },
		"negative scale":    func(o *Options) { o.Scale = -1 },
		"span not seconds":  func(o *Options) { o.Span = 1500 * time.Millisecond },
		"negative priority": func(o *Options) { o.Priority = -1 },
		"single no nodes":   func(o *Options) { o.SingleCluster, o.Nodes = true, nil },
		"split outside": func(o *Options) {
			o.Splits = []Split{{Name: "x", Window: mustWindow(t, "2017-09-30..2017-10-02")}}
		},
		"splits overlap": func(o *Options) {
			o.Splits = []Split{{Name: "x", Window: mustWindow(t, "2017-10-01..2017-10-02")}, {Name: "y", Window: mustWindow(t, "2017-10-01 12:00:00..2017-10-03")}}
		},
		"record clash": func(o *Options) { o.Record = map[string]string{"rows_read": "1"} },
	} {
		o := syntheticOptions(t)
		mod(&o)
		if _, err := Import(strings.NewReader(synthetic), o); err == nil {
			t.Errorf("%s: want an error", name)
		}
	}
	for _, s := range []string{"2017-10-02..2017-10-01", "2017-10-01", "x..2017-10-02", "2017-10-01..2017-10-01"} {
		if _, err := ParseWindow(s); err == nil {
			t.Errorf("ParseWindow(%q): want an error", s)
		}
	}
}

func TestReadVCs(t *testing.T) {
	vcs, err := ReadVCs(strings.NewReader("vc,node num\nx,3\ny, 5\n"), "v.csv")
	if err != nil || len(vcs) != 2 || vcs[0] != (VC{"x", 3}) || vcs[1] != (VC{"y", 5}) {
		t.Fatalf("%v %+v", err, vcs)
	}
	for in, want := range map[string]string{
		"":                        "empty",
		"vc,node num\n":           "no VCs",
		"vc,node num\nx,0\n":      "line 2",
		"vc,node num\nx,3\nx,4\n": "twice",
		"vc,node num\nx,3,1\n":    "wrong number of fields",
		"vc,node num\n,3\n":       "non-empty",
		"vc,node num\nx,three\n":  "integer",
	} {
		if _, err := ReadVCs(strings.NewReader(in), "v.csv"); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want %q", in, err, want)
		}
	}
	// The Helios file: 11 VCs, 352 nodes (README).
	vcs, err = ReadVCFile(tracefiles.Philly(t, "helios_philly_vc.csv"))
	if err != nil {
		t.Fatal(err)
	}
	sum := 0
	for _, v := range vcs {
		sum += v.Nodes
	}
	if len(vcs) != 11 || sum != 352 || vcs[0] != (VC{"6214e9", 64}) {
		t.Errorf("Helios VCs %+v (%d nodes)", vcs, sum)
	}
}

// A quote opened on line 101 and left open swallows the lines after it;
// the error names line 101, where the broken field starts, not the line
// where the reader gave up (151), and says how far it ran on.
func TestImportBrokenQuoteLine(t *testing.T) {
	var b strings.Builder
	b.WriteString("timestamp,duration,num_gpus,gpu_time,cluster\n")
	for line := 2; line <= 200; line++ {
		switch line {
		case 101:
			b.WriteString("2017-10-01 00:00:00,\"1,1,1,a\n")
		case 151:
			b.WriteString("2017-10-01 00:00:00,1,1,1,a\"x\n")
		default:
			b.WriteString("2017-10-01 00:00:00,1,1,1,a\n")
		}
	}
	_, err := Import(strings.NewReader(b.String()), syntheticOptions(t))
	var fe *datasets.FileError
	if !errors.As(err, &fe) {
		t.Fatalf("want a *datasets.FileError, got %v", err)
	}
	if fe.Line != 101 || fe.Row != 100 || !strings.Contains(err.Error(), "line 151") {
		t.Fatalf("error %q: line %d row %d, want line 101, row 100 and a mention of line 151", err, fe.Line, fe.Row)
	}
	// The same for the VC file.
	_, err = ReadVCs(strings.NewReader("vc,node num\na,1\n\"b,2\nc,3\nd\"x,4\n"), "vc.csv")
	if !errors.As(err, &fe) || fe.Line != 3 || !strings.Contains(err.Error(), "line 5") {
		t.Fatalf("VC file: %v", err)
	}
}

package datasets

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/evogp/evogp/simcore"
)

// handInstance exercises the optional fields and awkward names.
func handInstance() simcore.Instance {
	return simcore.Instance{
		Name: `odd, "quoted" name`,
		Clusters: []simcore.Cluster{
			{Nodes: 2, GPUsPerNode: 8, GPUType: "A100"},
			{Nodes: 1, GPUsPerNode: 4},
		},
		Jobs: []simcore.Job{
			{ID: 10, Arrival: 0, Cluster: 1, Duration: 60, Workers: 1, GPUs: 4, Priority: 2, Deadline: 3600, Name: "bert, large"},
			{ID: -3, Arrival: 5, Cluster: 0, Duration: 1, Workers: 2, GPUs: 16, Priority: 1},
			{ID: 7, Arrival: 5, Cluster: 0, Duration: 7200, Workers: 4, GPUs: 4, Priority: 3, Name: "ünïcode"},
		},
	}
}

func testDataset(t testing.TB, n int) *Dataset {
	t.Helper()
	insts, err := Generate(smallSettings(), 5, n)
	if err != nil {
		t.Fatal(err)
	}
	seed, gs := uint64(5), smallSettings()
	insts = append(insts, handInstance())
	return &Dataset{Instances: insts, Meta: Meta{Split: "train", Source: "generator", Seed: &seed, GenerateSeed: &seed, Generator: &gs}}
}

func TestRoundTrip(t *testing.T) {
	ds := testDataset(t, 4)
	var read [2]*Dataset
	for i, format := range []string{FormatParquet, FormatCSV} {
		dir := filepath.Join(t.TempDir(), "ds")
		if err := Write(dir, ds, format); err != nil {
			t.Fatal(err)
		}
		got, err := Read(dir)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got.Instances, ds.Instances) {
			t.Fatalf("%s: instances differ after write → read", format)
		}
		m := got.Meta
		jobs := 0
		for _, in := range ds.Instances {
			jobs += len(in.Jobs)
		}
		if m.Format != format || m.Split != "train" || m.Instances != len(ds.Instances) || m.Jobs != jobs ||
			m.Seed == nil || *m.Seed != 5 || m.Generator == nil || !reflect.DeepEqual(*m.Generator, smallSettings()) {
			t.Fatalf("%s: meta not preserved: %+v", format, m)
		}
		if ds.Meta.Format != "" || ds.Meta.Instances != 0 {
			t.Fatal("Write modified its argument's Meta")
		}
		read[i] = got
	}
	if !reflect.DeepEqual(read[0].Instances, read[1].Instances) {
		t.Fatal("Parquet and CSV give different instances")
	}
}

// TestWriteDeterministic: the same settings and seed give byte-identical
// files in both formats.
func TestWriteDeterministic(t *testing.T) {
	for _, format := range []string{FormatParquet, FormatCSV} {
		var files [2]map[string][]byte
		for k := range files {
			ds := testDataset(t, 3)
			dir := filepath.Join(t.TempDir(), "ds")
			if err := Write(dir, ds, format); err != nil {
				t.Fatal(err)
			}
			files[k] = map[string][]byte{}
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				b, err := os.ReadFile(filepath.Join(dir, e.Name()))
				if err != nil {
					t.Fatal(err)
				}
				files[k][e.Name()] = b
			}
		}
		if len(files[0]) != 3 {
			t.Fatalf("%s: want 3 files, got %v", format, len(files[0]))
		}
		for name, b := range files[0] {
			if !bytes.Equal(b, files[1][name]) {
				t.Errorf("%s: %s differs between two identical runs", format, name)
			}
		}
	}
}

func TestWriteRefuses(t *testing.T) {
	dir := t.TempDir() // exists, non-empty after the next line
	keep := filepath.Join(dir, "keep.txt")
	os.WriteFile(keep, []byte("x"), 0o644)
	if err := Write(dir, testDataset(t, 1), FormatCSV); err == nil {
		t.Fatal("Write into a non-empty directory succeeded")
	}
	if b, err := os.ReadFile(keep); err != nil || string(b) != "x" {
		t.Fatal("existing content disturbed")
	}
	bad := []struct {
		name string
		ds   *Dataset
		fmt  string
	}{
		{"empty", &Dataset{}, FormatCSV},
		{"format", testDataset(t, 1), "xlsx"},
		{"duplicate names", &Dataset{Instances: []simcore.Instance{handInstance(), handInstance()}}, FormatCSV},
		{"control character", &Dataset{Instances: []simcore.Instance{{Name: "a\tb", Clusters: handInstance().Clusters, Jobs: handInstance().Jobs}}}, FormatCSV},
		{"unnamed", &Dataset{Instances: []simcore.Instance{{Clusters: handInstance().Clusters, Jobs: handInstance().Jobs}}}, FormatCSV},
		{"invalid", &Dataset{Instances: []simcore.Instance{{Name: "x", Clusters: handInstance().Clusters}}}, FormatParquet},
	}
	for _, b := range bad {
		out := filepath.Join(t.TempDir(), "out")
		if err := Write(out, b.ds, b.fmt); err == nil {
			t.Errorf("%s: Write succeeded", b.name)
		}
		if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s: output directory left behind", b.name)
		}
	}
}

const goodClusters = "instance,cluster,nodes,gpus_per_node\na,0,2,8\na,1,1,4\nb,0,1,8\n"
const jobsHeader = "instance,job,arrival,cluster,duration,workers,gpus,priority\n"
const goodJobs = jobsHeader + "a,0,0,0,100,1,8,1\na,1,10,1,50,1,4,2\nb,0,0,0,30,2,8,3\n"

// writeCSVDir writes a CSV dataset directory from raw table text.
func writeCSVDir(t testing.TB, clusters, jobs string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "clusters.csv"), []byte(clusters), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "jobs.csv"), []byte(jobs), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestReadCSVGood(t *testing.T) {
	// Columns in another order, optional columns present but empty, a BOM,
	// and integral decimals as dataframe tools write them.
	clusters := "\ufeffnodes,instance,gpus_per_node,cluster,gpu_type\n1,b,8,0,\n2,a,8,0,V100\n1,a,4,1,\n"
	jobs := "instance,job,arrival,cluster,duration,workers,gpus,priority,deadline,name\n" +
		"a,0,0,0,100,1,8,1,,\na,1,10.0,1,5e1,1,4,2,500,x\nb,0,0,0,30,2,8,3,,\n"
	ds, err := Read(writeCSVDir(t, clusters, jobs))
	if err != nil {
		t.Fatal(err)
	}
	want := []simcore.Instance{
		{Name: "b", Clusters: []simcore.Cluster{{Nodes: 1, GPUsPerNode: 8}},
			Jobs: []simcore.Job{{ID: 0, Cluster: 0, Duration: 30, Workers: 2, GPUs: 8, Priority: 3}}},
		{Name: "a", Clusters: []simcore.Cluster{{Nodes: 2, GPUsPerNode: 8, GPUType: "V100"}, {Nodes: 1, GPUsPerNode: 4}},
			Jobs: []simcore.Job{
				{ID: 0, Arrival: 0, Cluster: 0, Duration: 100, Workers: 1, GPUs: 8, Priority: 1},
				{ID: 1, Arrival: 10, Cluster: 1, Duration: 50, Workers: 1, GPUs: 4, Priority: 2, Deadline: 500, Name: "x"},
			}},
	}
	if !reflect.DeepEqual(ds.Instances, want) {
		t.Fatalf("got %+v\nwant %+v", ds.Instances, want)
	}
	if ds.Meta.Source != "" || ds.Meta.Format != FormatCSV || ds.Meta.Instances != 2 || ds.Meta.Jobs != 3 || ds.Meta.Clusters != 3 {
		t.Fatalf("meta without dataset.yaml: %+v", ds.Meta)
	}
}

// TestReadBad runs every bad-input case of SPEC §9 through Read and checks
// that the one error names the file, the row and the problem.
func TestReadBad(t *testing.T) {
	cases := []struct {
		name     string
		clusters string
		jobs     string
		meta     string // dataset.yaml content, if any
		file     string // base name of the file the error must name
		row      int    // data row it must name (0 = whole file)
		want     []string
	}{
		{"missing column", goodClusters, "instance,job,arrival,cluster,workers,gpus,priority\na,0,0,0,1,8,1\n",
			"", "jobs.csv", 0, []string{`missing column "duration"`}},
		{"missing cluster column", "instance,nodes,gpus_per_node\na,2,8\n", goodJobs,
			"", "clusters.csv", 0, []string{`missing column "cluster"`}},
		{"unknown column", goodClusters, "instance,job,arrival,cluster,duration,workers,gpus,priority,deadlin\na,0,0,0,1,1,8,1,5\n",
			"", "jobs.csv", 0, []string{`unknown column "deadlin"`}},
		{"repeated column", goodClusters, "instance,job,job,arrival,cluster,duration,workers,gpus,priority\n",
			"", "jobs.csv", 0, []string{`"job" appears twice`}},
		{"zero duration", goodClusters, goodJobs + "a,2,20,0,0,1,1,1\n",
			"", "jobs.csv", 4, []string{`instance "a": job 2`, "duration = 0"}},
		{"negative duration", goodClusters, goodJobs + "a,2,20,0,-5,1,1,1\n",
			"", "jobs.csv", 4, []string{`job 2`, "duration = -5"}},
		{"gpus not divisible", goodClusters, goodJobs + "a,2,20,0,9,3,4,1\n",
			"", "jobs.csv", 4, []string{`job 2`, "not divisible by workers"}},
		{"unknown cluster", goodClusters, goodJobs + "b,2,20,1,9,1,1,1\n",
			"", "jobs.csv", 4, []string{`instance "b": job 2`, "unknown cluster 1"}},
		{"feasible nowhere", goodClusters, goodJobs + "a,2,20,0,9,2,32,1\n",
			"", "jobs.csv", 4, []string{`job 2`, "feasible on no cluster"}},
		{"duplicate id", goodClusters, goodJobs + "a,1,20,0,9,1,1,1\n",
			"", "jobs.csv", 4, []string{`instance "a": job 1`, "duplicate job id (first at row 2)"}},
		{"NaN", goodClusters, goodJobs + "a,2,NaN,0,9,1,1,1\n",
			"", "jobs.csv", 4, []string{`job 2`, "column arrival", "NaN/Inf"}},
		{"Inf", goodClusters, goodJobs + "a,2,0,0,+Inf,1,1,1\n",
			"", "jobs.csv", 4, []string{"column duration", "NaN/Inf"}},
		{"fraction", goodClusters, goodJobs + "a,2,0,0,9,1,2.5,1\n",
			"", "jobs.csv", 4, []string{"column gpus", `"2.5" is not an integer`}},
		{"text", "instance,cluster,nodes,gpus_per_node\na,0,two,8\n", goodJobs,
			"", "clusters.csv", 1, []string{`instance "a"`, "column nodes", `"two" is not an integer`}},
		{"missing value", goodClusters, goodJobs + "a,2,0,0,,1,1,1\n",
			"", "jobs.csv", 4, []string{"column duration: missing value"}},
		{"out of range", goodClusters, goodJobs + "a,2,0,0,9,1,1,99999999999\n",
			"", "jobs.csv", 4, []string{"priority", "out of range"}},
		{"empty dataset", "instance,cluster,nodes,gpus_per_node\n", jobsHeader,
			"", "clusters.csv", 0, []string{"empty dataset"}},
		{"empty file", "", goodJobs, "", "clusters.csv", 0, []string{"empty file"}},
		{"no job rows", goodClusters, jobsHeader, "", "jobs.csv", 0, []string{"empty dataset: no job rows"}},
		{"instance without jobs", goodClusters + "c,0,1,8\n", goodJobs,
			"", "jobs.csv", 0, []string{`instance "c" has clusters but no jobs`}},
		{"clusters not 0..P-1", "instance,cluster,nodes,gpus_per_node\na,0,2,8\na,2,1,4\n", goodJobs,
			"", "clusters.csv", 2, []string{`instance "a": cluster 2`, "numbered 0..1", "cluster 1 is missing"}},
		{"duplicate cluster", "instance,cluster,nodes,gpus_per_node\na,0,2,8\na,0,1,4\n", goodJobs,
			"", "clusters.csv", 2, []string{"duplicate cluster (first at row 1)"}},
		{"negative cluster", "instance,cluster,nodes,gpus_per_node\na,-1,2,8\n", goodJobs,
			"", "clusters.csv", 1, []string{"cluster -1", "cluster index"}},
		{"zero nodes", "instance,cluster,nodes,gpus_per_node\na,0,0,8\n", goodJobs,
			"", "clusters.csv", 1, []string{"nodes = 0"}},
		{"job of unknown instance", goodClusters, goodJobs + "zz,0,0,0,9,1,1,1\n",
			"", "jobs.csv", 4, []string{`instance "zz": job 0`, "has no clusters"}},
		{"empty instance name", goodClusters, goodJobs + ",0,0,0,9,1,1,1\n",
			"", "jobs.csv", 4, []string{"empty instance name"}},
		{"line break in a name", goodClusters, "instance,job,arrival,cluster,duration,workers,gpus,priority,name\na,2,0,0,9,1,1,1,\"x\ny\"\n",
			"", "jobs.csv", 1, []string{`job 2: name "x\ny" contains a control character`}},
		{"wrong field count", goodClusters, goodJobs + "a,2,0,0,9,1,1\n",
			"", "jobs.csv", 4, []string{"wrong number of fields"}},
		{"bad priority", goodClusters, goodJobs + "a,2,0,0,9,1,1,0\n",
			"", "jobs.csv", 4, []string{"priority = 0"}},
		{"meta count mismatch", goodClusters, goodJobs, "version: 1\ninstances: 3\n",
			"dataset.yaml", 0, []string{"says 3 instances but the tables hold 2"}},
		{"meta unknown key", goodClusters, goodJobs, "version: 1\nsplitt: train\n",
			"dataset.yaml", 0, []string{"splitt"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := writeCSVDir(t, c.clusters, c.jobs)
			if c.meta != "" {
				os.WriteFile(filepath.Join(dir, MetaFile), []byte(c.meta), 0o644)
			}
			ds, err := Read(dir)
			if err == nil {
				t.Fatalf("accepted: %+v", ds.Instances)
			}
			msg := err.Error()
			var fe *FileError
			if !errors.As(err, &fe) {
				t.Fatalf("not a *FileError: %v", err)
			}
			if filepath.Base(fe.File) != c.file || fe.Row != c.row {
				t.Errorf("error locates %s row %d, want %s row %d: %v", filepath.Base(fe.File), fe.Row, c.file, c.row, err)
			}
			if !strings.Contains(msg, filepath.Join(dir, c.file)) {
				t.Errorf("message does not name the file path: %v", err)
			}
			if fe.Row > 0 && c.file != "dataset.yaml" && fe.Line != fe.Row+1 {
				t.Errorf("CSV line %d, want %d", fe.Line, fe.Row+1)
			}
			for _, w := range c.want {
				if !strings.Contains(msg, w) {
					t.Errorf("message %q lacks %q", msg, w)
				}
			}
		})
	}
}

func TestReadDirectoryProblems(t *testing.T) {
	if _, err := Read(filepath.Join(t.TempDir(), "nope")); err == nil {
		t.Error("missing directory accepted")
	}
	dir := t.TempDir()
	if _, err := Read(dir); err == nil || !strings.Contains(err.Error(), "no clusters.parquet or clusters.csv") {
		t.Errorf("empty directory: %v", err)
	}
	dir = writeCSVDir(t, goodClusters, goodJobs)
	os.WriteFile(filepath.Join(dir, "clusters.parquet"), []byte("x"), 0o644)
	if _, err := Read(dir); err == nil || !strings.Contains(err.Error(), "both clusters.parquet and clusters.csv") {
		t.Errorf("both formats: %v", err)
	}
}

// writeParquet writes rows of any struct type as dir/name.
func writeParquet[T any](t *testing.T, path string, rows []T) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := parquet.NewGenericWriter[T](f)
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
}

// TestReadParquetForeign reads Parquet files written the way other tools
// write them: INT32 columns, nullable required columns, no optional columns.
func TestReadParquetForeign(t *testing.T) {
	type c32 struct {
		Instance    string `parquet:"instance"`
		Cluster     int32  `parquet:"cluster"`
		Nodes       int32  `parquet:"nodes"`
		GPUsPerNode int32  `parquet:"gpus_per_node"`
	}
	type jNullable struct {
		Instance *string `parquet:"instance,optional"`
		Job      *int64  `parquet:"job,optional"`
		Arrival  *int64  `parquet:"arrival,optional"`
		Cluster  *int64  `parquet:"cluster,optional"`
		Duration *int64  `parquet:"duration,optional"`
		Workers  *int64  `parquet:"workers,optional"`
		GPUs     *int64  `parquet:"gpus,optional"`
		Priority *int64  `parquet:"priority,optional"`
	}
	s := func(v string) *string { return &v }
	i := func(v int64) *int64 { return &v }
	dir := t.TempDir()
	writeParquet(t, filepath.Join(dir, "clusters.parquet"), []c32{{"a", 0, 2, 8}, {"a", 1, 1, 4}})
	jobs := []jNullable{
		{s("a"), i(0), i(0), i(0), i(100), i(1), i(8), i(1)},
		{s("a"), i(1), i(3), i(1), i(50), i(2), i(4), i(2)},
	}
	writeParquet(t, filepath.Join(dir, "jobs.parquet"), jobs)
	ds, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := simcore.Instance{Name: "a", Clusters: []simcore.Cluster{{Nodes: 2, GPUsPerNode: 8}, {Nodes: 1, GPUsPerNode: 4}},
		Jobs: []simcore.Job{
			{ID: 0, Arrival: 0, Cluster: 0, Duration: 100, Workers: 1, GPUs: 8, Priority: 1},
			{ID: 1, Arrival: 3, Cluster: 1, Duration: 50, Workers: 2, GPUs: 4, Priority: 2},
		}}
	if len(ds.Instances) != 1 || !reflect.DeepEqual(ds.Instances[0], want) {
		t.Fatalf("got %+v", ds.Instances)
	}
	// A null in a required column is a row error, not a silent 0.
	jobs = append(jobs, jNullable{s("a"), i(2), i(5), nil, i(9), i(1), i(1), i(1)})
	os.Remove(filepath.Join(dir, "jobs.parquet"))
	writeParquet(t, filepath.Join(dir, "jobs.parquet"), jobs)
	_, err = Read(dir)
	var fe *FileError
	if !errors.As(err, &fe) || fe.Row != 3 || !strings.Contains(err.Error(), `instance "a": job 2: column cluster: missing value (null)`) {
		t.Fatalf("null cluster: %v", err)
	}
}

func TestReadParquetBad(t *testing.T) {
	goodC := []clusterRec{{Instance: "a", Cluster: 0, Nodes: 2, GPUsPerNode: 8}}
	type jDouble struct {
		Instance string  `parquet:"instance"`
		Job      int64   `parquet:"job"`
		Arrival  int64   `parquet:"arrival"`
		Cluster  int64   `parquet:"cluster"`
		Duration float64 `parquet:"duration"`
		Workers  int64   `parquet:"workers"`
		GPUs     int64   `parquet:"gpus"`
		Priority int64   `parquet:"priority"`
	}
	type jMissing struct {
		Instance string `parquet:"instance"`
		Job      int64  `parquet:"job"`
	}
	cases := []struct {
		name  string
		write func(path string)
		row   int
		want  string
	}{
		{"double column", func(p string) { writeParquet(t, p, []jDouble{{"a", 0, 0, 0, 1.5, 1, 1, 1}}) }, 0, "column duration: has type DOUBLE"},
		{"missing columns", func(p string) { writeParquet(t, p, []jMissing{{"a", 0}}) }, 0, `missing column "arrival"`},
		{"zero duration", func(p string) {
			writeParquet(t, p, []jobRec{{Instance: "a", Job: 4, Duration: 5, Workers: 1, GPUs: 1, Priority: 1}, {Instance: "a", Job: 5, Workers: 1, GPUs: 1, Priority: 1}})
		}, 2, `instance "a": job 5: duration = 0`},
		{"not parquet", func(p string) { os.WriteFile(p, []byte("instance,job\n"), 0o644) }, 0, "not a readable Parquet file"},
		{"truncated", func(p string) {
			writeParquet(t, p, []jobRec{{Instance: "a", Job: 4, Duration: 5, Workers: 1, GPUs: 1, Priority: 1}})
			b, _ := os.ReadFile(p)
			os.WriteFile(p, b[:len(b)-20], 0o644)
		}, 0, "not a readable Parquet file"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			writeParquet(t, filepath.Join(dir, "clusters.parquet"), goodC)
			path := filepath.Join(dir, "jobs.parquet")
			c.write(path)
			_, err := Read(dir)
			var fe *FileError
			if !errors.As(err, &fe) || fe.File != path || fe.Row != c.row || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v; want %s row %d: %q", err, path, c.row, c.want)
			}
		})
	}
}

// FuzzReadCSV: Read never panics on arbitrary tables; whatever it accepts
// validates and survives write → read unchanged in both formats.
func FuzzReadCSV(f *testing.F) {
	f.Add(goodClusters, goodJobs)
	f.Add("\ufeffnodes,instance,gpus_per_node,cluster,gpu_type\n1,b,8,0,x\n", "instance,job,arrival,cluster,duration,workers,gpus,priority,deadline,name\nb,0,1e1,0,3.0,1,8,1,,\"n,\"\"\"\n")
	f.Add(goodClusters, goodJobs+"a,2,NaN,0,9,1,1,1\n")
	f.Add("instance,cluster,nodes,gpus_per_node\na,1,2,8\n", goodJobs)
	f.Fuzz(func(t *testing.T, clusters, jobs string) {
		dir := writeCSVDir(t, clusters, jobs)
		ds, err := Read(dir)
		if err != nil {
			var fe *FileError
			if !errors.As(err, &fe) {
				t.Fatalf("error without file context: %v", err)
			}
			return
		}
		for i := range ds.Instances {
			if err := ds.Instances[i].Validate(); err != nil {
				t.Fatalf("accepted an invalid instance: %v", err)
			}
		}
		for _, format := range []string{FormatCSV, FormatParquet} {
			out := filepath.Join(t.TempDir(), "out")
			if err := Write(out, ds, format); err != nil {
				t.Fatalf("accepted data does not write as %s: %v", format, err)
			}
			back, err := Read(out)
			if err != nil {
				t.Fatalf("written %s does not read back: %v", format, err)
			}
			if !reflect.DeepEqual(back.Instances, ds.Instances) {
				t.Fatalf("%s round trip changed the instances", format)
			}
		}
	})
}

func BenchmarkReadParquet(b *testing.B) {
	insts, err := Generate(PaperSettings(), 1, 10)
	if err != nil {
		b.Fatal(err)
	}
	jobs := 0
	for _, in := range insts {
		jobs += len(in.Jobs)
	}
	dir := filepath.Join(b.TempDir(), "ds")
	if err := Write(dir, &Dataset{Instances: insts}, FormatParquet); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := Read(dir); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(jobs), "jobs/op")
}

package reports

import (
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
)

func sampleResults() []ResultRow {
	return []ResultRow{
		{Instance: "i0", Scheduler: "gp", Seed: 1, Jobs: 10, CQAvg: 0.1, CQMax: 2.5, Util: 0.75, Objective: 2.85, AvgJCT: 1.0 / 3, MaxQT: 1e-300, Makespan: 12, TotalTardiness: 0, DeadlineMisses: 0},
		{Instance: "i0", Scheduler: "tiresias", Seed: 1, Jobs: 10, CQAvg: 0.2, CQMax: 3, Util: 1, Objective: 3.2, AvgJCT: 2, MaxQT: 3, Makespan: 12, TotalTardiness: 4.5, DeadlineMisses: 2},
	}
}

func sampleJobs(n int) []JobRow {
	rows := make([]JobRow, n)
	for i := range rows {
		a := int64(i * 7)
		rows[i] = JobRow{Instance: "inst/1", Scheduler: []string{"gp", "spark"}[i%2], Job: int64(i), Cluster: int64(i % 3),
			UserCluster: int64(i % 2), Priority: int64(1 + i%3), GPUs: 8, Arrival: a, Duration: 100,
			Start: a + int64(i%5), Finish: a + int64(i%5) + 100 + int64(i%2), Queue: int64(i%5) + int64(i%2),
			Preemptions: int64(i % 2), Migrations: 0}
	}
	return rows
}

// Every table type round-trips through Parquet and CSV unchanged, floats
// bit for bit; 3000 job rows exercise a reader that returns rows together
// with io.EOF.
func TestTablesRoundTrip(t *testing.T) {
	dir := t.TempDir()
	gens := []GenerationRow{{Generation: 0, Best: 2.5, Median: 3, Worst: 9, BestFormula: "g*d", Size: 3, Depth: 2, Unique: 500, Evaluations: 1536, CacheHits: 12, WallSeconds: 0.25}}
	sweep := []SweepRow{{Point: "omega=0.3", Omega: 0.3, Seed: 2, AvgJCT: 1.5, MaxQT: 10, Objective: 7.45, Overrides: "gp.omega=0.3,gp.generations=5"}}
	press := []PressureRow{{Interval: 60, Scheduler: "gp", Seed: 1, Jobs: 1000, CQAvg: 1, CQMax: 2, Util: 0.5, Objective: 3.5, AvgJCT: 2, MaxQT: 4}}
	for _, ext := range []string{".parquet", ".csv"} {
		p := filepath.Join(dir, "results"+ext)
		if err := WriteResults(p, sampleResults()); err != nil {
			t.Fatal(err)
		}
		got, err := ReadResults(p)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, sampleResults()) {
			t.Fatalf("%s: results differ:\n%+v", ext, got)
		}
		p = filepath.Join(dir, "jobs"+ext)
		jobs := sampleJobs(3000)
		if err := WriteJobs(p, jobs); err != nil {
			t.Fatal(err)
		}
		gotJobs, err := ReadJobs(p)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(gotJobs, jobs) {
			t.Fatalf("%s: %d jobs read, %d written, or contents differ", ext, len(gotJobs), len(jobs))
		}
		roundTrip(t, filepath.Join(dir, "gen"+ext), gens, WriteGenerations, ReadGenerations)
		roundTrip(t, filepath.Join(dir, "sweep"+ext), sweep, WriteSweep, ReadSweep)
		roundTrip(t, filepath.Join(dir, "press"+ext), press, WritePressure, ReadPressure)
	}
	// No temporary files are left behind.
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			t.Fatalf("leftover %s", e.Name())
		}
	}
}

func roundTrip[T any](t *testing.T, path string, rows []T, write func(string, []T) error, read func(string) ([]T, error)) {
	t.Helper()
	if err := write(path, rows); err != nil {
		t.Fatal(err)
	}
	got, err := read(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, rows) {
		t.Fatalf("%s: got %+v, want %+v", path, got, rows)
	}
}

// The CSV header uses the documented column names in order.
func TestCSVHeader(t *testing.T) {
	p := filepath.Join(t.TempDir(), "r.csv")
	if err := WriteResults(p, sampleResults()[:1]); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	want := "instance,scheduler,seed,jobs,cq_avg,cq_max,util,objective,avg_jct,max_qt,makespan,total_tardiness,deadline_misses\n"
	if !strings.HasPrefix(string(b), want) {
		t.Fatalf("header:\n%s", b)
	}
}

func TestWriteRejectsBadRows(t *testing.T) {
	dir := t.TempDir()
	bad := sampleResults()
	bad[1].Objective = math.NaN()
	p := filepath.Join(dir, "r.parquet")
	err := WriteResults(p, bad)
	if err == nil || !strings.Contains(err.Error(), "row 2") || !strings.Contains(err.Error(), "objective") {
		t.Fatalf("err = %v", err)
	}
	if _, statErr := os.Stat(p); !os.IsNotExist(statErr) {
		t.Fatal("a file was written for a bad table")
	}
	jobs := sampleJobs(3)
	jobs[2].Queue++
	if err := WriteJobs(filepath.Join(dir, "j.csv"), jobs); err == nil || !strings.Contains(err.Error(), "queue") {
		t.Fatalf("inconsistent queue: err = %v", err)
	}
	if err := WriteResults(filepath.Join(dir, "r.json"), sampleResults()); err == nil {
		t.Fatal("unknown extension accepted")
	}
}

func TestReadRejectsBadFiles(t *testing.T) {
	dir := t.TempDir()
	// A Parquet file without the objective column.
	type partial struct {
		Instance  string `parquet:"instance"`
		Scheduler string `parquet:"scheduler"`
	}
	p := filepath.Join(dir, "partial.parquet")
	if err := parquet.WriteFile(p, []partial{{"a", "b"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadResults(p); err == nil || !strings.Contains(err.Error(), `missing column "seed"`) {
		t.Fatalf("missing column: err = %v", err)
	}
	// A column of the wrong type.
	type wrong struct {
		Generation string `parquet:"generation"`
	}
	p = filepath.Join(dir, "wrong.parquet")
	if err := parquet.WriteFile(p, []wrong{{"x"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadGenerations(p); err == nil || !strings.Contains(err.Error(), `column "generation" has type`) {
		t.Fatalf("wrong type: err = %v", err)
	}
	// Not Parquet at all.
	p = filepath.Join(dir, "junk.parquet")
	os.WriteFile(p, []byte("not parquet"), 0o644)
	if _, err := ReadResults(p); err == nil || !strings.Contains(err.Error(), "junk.parquet") {
		t.Fatalf("junk: err = %v", err)
	}
	// CSV: a bad number names the line and column.
	p = filepath.Join(dir, "bad.csv")
	if err := WriteResults(p, sampleResults()); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	os.WriteFile(p, []byte(strings.Replace(string(b), "2.85", "2.8x", 1)), 0o644)
	if _, err := ReadResults(p); err == nil || !strings.Contains(err.Error(), "line 2") || !strings.Contains(err.Error(), `"objective"`) {
		t.Fatalf("bad number: err = %v", err)
	}
	// Duplicate keys.
	p = filepath.Join(dir, "dup.parquet")
	rows := append(sampleResults(), sampleResults()[0])
	if err := WriteResults(p, rows); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadResults(p); err == nil || !strings.Contains(err.Error(), "duplicate") {
		t.Fatalf("duplicate: err = %v", err)
	}
	// A row that violates a constraint is caught on read too.
	p = filepath.Join(dir, "neg.parquet")
	neg := sampleResults()
	neg[0].Util = 1.5
	if err := parquet.WriteFile(p, neg); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadResults(p); err == nil || !strings.Contains(err.Error(), "row 1") || !strings.Contains(err.Error(), "util") {
		t.Fatalf("util above 1: err = %v", err)
	}
	if _, err := ReadResults(filepath.Join(dir, "absent.parquet")); err == nil {
		t.Fatal("absent file accepted")
	}
}

// Each validation rule rejects the row that breaks it, naming the column.
func TestRowChecks(t *testing.T) {
	okJob := sampleJobs(1)[0]
	job := func(f func(*JobRow)) JobRow { j := okJob; f(&j); return j }
	okRes := sampleResults()[0]
	res := func(f func(*ResultRow)) ResultRow { r := okRes; f(&r); return r }
	okGen := GenerationRow{Best: 1, Median: 2, Worst: 3}
	gen := func(f func(*GenerationRow)) genCheck { g := okGen; f(&g); return genCheck{g} }
	okP := PressureRow{Interval: 60, Scheduler: "a", Util: 0.5}
	press := func(f func(*PressureRow)) PressureRow { p := okP; f(&p); return p }
	cases := []struct {
		row  interface{ check() error }
		want string
	}{
		{res(func(r *ResultRow) { r.Instance = "" }), "instance"},
		{res(func(r *ResultRow) { r.Scheduler = "" }), "scheduler"},
		{res(func(r *ResultRow) { r.Jobs = -1 }), "jobs"},
		{res(func(r *ResultRow) { r.DeadlineMisses = -1 }), "deadline_misses"},
		{res(func(r *ResultRow) { r.CQMax = -1 }), "cq_max"},
		{res(func(r *ResultRow) { r.Makespan = math.Inf(1) }), "makespan"},
		{job(func(j *JobRow) { j.Instance = "" }), "instance"},
		{job(func(j *JobRow) { j.Scheduler = "" }), "scheduler"},
		{job(func(j *JobRow) { j.Job = -1 }), "job"},
		{job(func(j *JobRow) { j.Cluster = -1 }), "cluster"},
		{job(func(j *JobRow) { j.GPUs = 0 }), "gpus"},
		{job(func(j *JobRow) { j.Duration = 0 }), "duration"},
		{job(func(j *JobRow) { j.Arrival = -5 }), "arrival"},
		{job(func(j *JobRow) { j.Start = j.Arrival - 1 }), "before arrival"},
		{job(func(j *JobRow) { j.Finish = j.Start }), "finish"},
		{job(func(j *JobRow) { j.Migrations = -1 }), "migrations"},
		{gen(func(g *GenerationRow) { g.Generation = -1 }), "generation"},
		{gen(func(g *GenerationRow) { g.Median = math.NaN() }), "median"},
		{gen(func(g *GenerationRow) { g.Best = 5 }), "best ≤ median"},
		{gen(func(g *GenerationRow) { g.CacheHits = -1 }), "cache_hits"},
		{gen(func(g *GenerationRow) { g.WallSeconds = -1 }), "wall_seconds"},
		{SweepRow{Omega: 0.5}, "point"},
		{SweepRow{Point: "p", Omega: math.NaN()}, "omega"},
		{SweepRow{Point: "p", MaxQT: -1}, "max_qt"},
		{press(func(p *PressureRow) { p.Scheduler = "" }), "scheduler"},
		{press(func(p *PressureRow) { p.Interval = 0 }), "interval"},
		{press(func(p *PressureRow) { p.Jobs = -1 }), "jobs"},
		{press(func(p *PressureRow) { p.Util = 1.01 }), "util"},
		{press(func(p *PressureRow) { p.AvgJCT = -1 }), "avg_jct"},
	}
	for i, c := range cases {
		err := c.row.check()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("case %d (%+v): err = %v, want %q", i, c.row, err, c.want)
		}
	}
	for _, r := range []interface{ check() error }{okJob, okRes, genCheck{okGen}, okP, SweepRow{Point: "p"}} {
		if err := r.check(); err != nil {
			t.Errorf("valid row %+v rejected: %v", r, err)
		}
	}
}

// genCheck gives a GenerationRow (internal/runlog, exported Check) the
// check method of reports' own row types.
type genCheck struct{ GenerationRow }

func (g genCheck) check() error { return g.Check() }

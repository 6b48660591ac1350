package datasets

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// issue 32 item 3: nodes = gpus_per_node = 2^31−1 (the README's five-job
// dataset otherwise) is refused at its row, naming the field, instead of
// passing validation and running the simulator out of memory.
func TestReadHugeClusterRefused(t *testing.T) {
	clusters := "instance,cluster,nodes,gpus_per_node\na,0,2147483647,2147483647\n"
	dir := writeCSVDir(t, clusters, jobsHeader+"a,0,0,0,100,1,8,1\n")
	_, err := Read(dir)
	var fe *FileError
	if !errors.As(err, &fe) || filepath.Base(fe.File) != "clusters.csv" || fe.Row != 1 || !strings.Contains(err.Error(), "nodes = 2147483647 is above the maximum") {
		t.Fatalf("got %v, want clusters.csv row 1 naming nodes and its maximum", err)
	}
	clusters = "instance,cluster,nodes,gpus_per_node\na,0,2,8\na,1,1024,65536\n"
	_, err = Read(writeCSVDir(t, clusters, jobsHeader+"a,0,0,0,100,1,8,1\n"))
	if !errors.As(err, &fe) || fe.Row != 2 || !strings.Contains(err.Error(), "nodes × gpus_per_node") {
		t.Fatalf("got %v, want row 2 naming nodes × gpus_per_node", err)
	}
}

// issue 32 item 4: a named pipe as jobs.csv (or clusters.csv, or
// dataset.yaml) is refused at once instead of blocking the read forever.
func TestReadRefusesNonRegularFiles(t *testing.T) {
	for _, name := range []string{"jobs.csv", "clusters.csv", MetaFile} {
		dir := writeCSVDir(t, goodClusters, goodJobs)
		p := filepath.Join(dir, name)
		if err := os.Remove(p); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		if err := mkfifo(p); err != nil {
			t.Skipf("cannot make a named pipe here: %v", err)
		}
		done := make(chan error, 1)
		go func() { _, err := Read(dir); done <- err }()
		select {
		case err := <-done:
			var fe *FileError
			if !errors.As(err, &fe) || filepath.Base(fe.File) != name || !strings.Contains(err.Error(), "not a regular file (a named pipe)") {
				t.Errorf("%s: got %v, want an error naming the file as a named pipe", name, err)
			}
		case <-time.After(5 * time.Second):
			// Unblock the reader so that the test can end.
			if f, err := os.OpenFile(p, os.O_WRONLY, 0); err == nil {
				f.Close()
			}
			t.Fatalf("%s: Read blocked on a named pipe", name)
		}
	}
	dir := writeCSVDir(t, goodClusters, goodJobs)
	if err := os.Mkdir(filepath.Join(dir, "jobs.parquet"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(dir); err == nil || !strings.Contains(err.Error(), "not a regular file (a directory)") {
		t.Errorf("a directory jobs.parquet: got %v", err)
	}
}

// issue 32 item 4: a load honours cancellation while it reads, not only
// after: a cancelled context stops a 200k-row read within the first few
// thousand rows, in CSV and in Parquet.
func TestReadContextCancels(t *testing.T) {
	var jobs strings.Builder
	jobs.WriteString(jobsHeader)
	const n = 200_000
	for i := range n {
		fmt.Fprintf(&jobs, "a,%d,%d,0,100,1,8,1\n", i, i)
	}
	dir := writeCSVDir(t, goodClusters, jobs.String()+"b,0,0,0,30,2,8,3\n")
	ds, err := Read(dir)
	if err != nil || len(ds.Instances[0].Jobs) != n {
		t.Fatalf("uncancelled read: %v", err)
	}
	pq := filepath.Join(t.TempDir(), "pq")
	if err := Write(pq, ds, FormatParquet); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{dir, pq} {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		start := time.Now()
		_, err := ReadContext(ctx, d)
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s: got %v, want context.Canceled", d, err)
		}
		if !strings.Contains(fmt.Sprint(err), "jobs.") {
			t.Errorf("%s: %v does not name the file being read", d, err)
		}
		if el := time.Since(start); el > time.Second {
			t.Errorf("%s: cancelled read took %v", d, el)
		}
	}
}

// issue 32 item 12: a YAML syntax error in dataset.yaml names its real
// line (yaml/v3 reports parser errors one line early).
func TestMetaYAMLErrorLine(t *testing.T) {
	dir := writeCSVDir(t, goodClusters, goodJobs)
	meta := "version: 1\nformat: csv\ninstances: 2\nclusters: 3\nseed: [1\n"
	if err := os.WriteFile(filepath.Join(dir, MetaFile), []byte(meta), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Read(dir)
	if err == nil || !strings.Contains(err.Error(), MetaFile+": yaml: line 5:") {
		t.Fatalf("got %v, want dataset.yaml line 5", err)
	}
}

// issue 32 item 13: generation stops within a second of cancellation (it
// used to run every instance first), and a cancelled write leaves no
// directory behind, not even a temporary one.
func TestGenerateAndWriteCancel(t *testing.T) {
	s := smallSettings()
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	start := time.Now()
	insts, err := GenerateContext(ctx, s, 7, 50_000_000)
	if !errors.Is(err, context.Canceled) || insts != nil {
		t.Fatalf("got %d instances and %v, want context.Canceled", len(insts), err)
	}
	if el := time.Since(start); el > time.Second+50*time.Millisecond {
		t.Errorf("generation stopped %v after the start (cancelled at 50 ms)", el)
	}
	// Cancelling changes nothing for a run that is not cancelled.
	a, err := GenerateContext(context.Background(), s, 7, 5)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Generate(s, 7, 5)
	if fmt.Sprint(a) != fmt.Sprint(b) {
		t.Error("GenerateContext and Generate differ")
	}

	parent := t.TempDir()
	out := filepath.Join(parent, "g")
	done, stop := context.WithCancel(context.Background())
	stop()
	if err := WriteContext(done, out, &Dataset{Instances: a}, FormatCSV); !errors.Is(err, context.Canceled) {
		t.Fatalf("write: got %v, want context.Canceled", err)
	}
	if left, _ := os.ReadDir(parent); len(left) != 0 {
		t.Errorf("a cancelled write left %v", left)
	}
	// The context is also looked at while the tables are written.
	many, err := Generate(s, 7, 400)
	if err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{FormatCSV, FormatParquet} {
		var calls int
		ctx, cancel := context.WithCancel(context.Background())
		w := ctxWriter{ctx, writerFunc(func(p []byte) (int, error) {
			calls++
			if calls == 2 {
				cancel()
			}
			return len(p), nil
		})}
		write := writeJobsCSV
		if format == FormatParquet {
			write = writeJobsParquet
		}
		if err := write(w, many); !errors.Is(err, context.Canceled) {
			t.Errorf("%s: writing the jobs table under a cancelled context gave %v", format, err)
		}
		cancel()
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

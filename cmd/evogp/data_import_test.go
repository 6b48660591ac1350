package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/datasets"
	"github.com/evogp/evogp/internal/tracefiles"
)

func TestDataImportPhillyBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("helios_philly_vc.csv", "vc,node num\na,2\nb,4\n")
	head := "timestamp,duration,num_gpus,gpu_time,cluster\n"
	good := write("good.csv", head+"2017-10-01 00:00:00,10,1,10,a\n2017-10-01 01:00:00,10,8,80,b\n")
	corrupt := write("corrupt.csv", head+"2017-10-01 00:00:00,10,1,10,a\n2017-10-01 01:00:00,10,8,80\n")
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"wrong field count", []string{"--in", corrupt}, "corrupt.csv: row 2 (line 3): wrong number of fields"},
		{"no such file", []string{"--in", filepath.Join(dir, "nope.csv")}, "nope.csv"},
		{"empty result", []string{"--in", good, "--from", "2018-01-01", "--to", "2018-02-01"}, "no job kept"},
		{"empty split", []string{"--in", good, "--train", "2017-10-01..2017-10-02", "--test", "2017-10-05..2017-10-06"}, "split test"},
		{"unknown VC capacity", []string{"--in", good, "--vcs", "a,c"}, "VC c has no node count"},
		{"bad capacity", []string{"--in", good, "--capacity", "lots"}, "want helios"},
		{"bad load", []string{"--in", good, "--capacity", "load:-1"}, "load:RHO"},
		{"nodes without single", []string{"--in", good, "--nodes", "5"}, "--single-cluster"},
		{"single with per-VC", []string{"--in", good, "--single-cluster", "--capacity", "a=1,b=1"}, "--nodes"},
		{"bad window", []string{"--in", good, "--train", "2017-10-02..2017-10-01"}, "--train"},
		{"overlapping splits", []string{"--in", good, "--train", "2017-10-01..2017-10-03", "--test", "2017-10-02..2017-10-04"}, "overlap"},
		{"bad format", []string{"--in", good, "--format", "xlsx"}, "--format"},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			_, _, err := runApp(t, append([]string{"data", "import", "philly", "--out", out}, c.args...)...)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one containing %q", err, c.want)
			}
			if _, err := os.Stat(out); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("bad input left %s behind (%v)", out, err)
			}
		})
	}
	// The good file imports with the VC file found beside it, and a second
	// import into the same directory is refused.
	out := filepath.Join(t.TempDir(), "out")
	stdout, _, err := runApp(t, "data", "import", "philly", "--in", good, "--out", out, "--format", "csv")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout, "2 rows, 2 kept") {
		t.Errorf("report: %s", stdout)
	}
	if _, _, err := runApp(t, "data", "import", "philly", "--in", good, "--out", out); err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Errorf("second import into %s: %v", out, err)
	}
}

// TestPhillyConfigCommands runs the `evogp data import philly` command
// written at the top of each Philly config (with the trace and output
// paths of the test) and checks it produces the data dirs the config reads,
// with as many instances as the config's data sizes say.
func TestPhillyConfigCommands(t *testing.T) {
	in := tracefiles.Philly(t, "philly.csv")
	for _, name := range []string{"philly-single", "philly-multi"} {
		t.Run(name, func(t *testing.T) {
			text, err := os.ReadFile(filepath.Join("..", "..", "configs", name+".yaml"))
			if err != nil {
				t.Fatal(err)
			}
			var cmd strings.Builder
			for _, line := range strings.Split(string(text), "\n") {
				l := strings.TrimSpace(strings.TrimPrefix(line, "#"))
				if strings.HasPrefix(l, "evogp data import philly") || cmd.Len() > 0 {
					cmd.WriteString(strings.TrimSuffix(l, "\\") + " ")
					if !strings.HasSuffix(l, "\\") {
						break
					}
				}
			}
			args := strings.Fields(cmd.String())
			if len(args) < 4 {
				t.Fatalf("no `evogp data import philly` command in the comment of %s.yaml", name)
			}
			args = args[1:]
			cfg, err := configs.Load(name)
			if err != nil {
				t.Fatal(err)
			}
			root := t.TempDir()
			for i := range args {
				switch {
				case i > 0 && args[i-1] == "--in":
					args[i] = in
				case i > 0 && args[i-1] == "--out":
					if want := "data/" + name; args[i] != want || filepath.Dir(cfg.Data.TrainDir) != want {
						t.Fatalf("--out %s, config reads %s", args[i], cfg.Data.TrainDir)
					}
					args[i] = filepath.Join(root, args[i])
				}
			}
			if _, _, err := runApp(t, args...); err != nil {
				t.Fatalf("%v: %v", args, err)
			}
			for _, d := range []struct {
				dir  string
				size int
			}{{cfg.Data.TrainDir, cfg.Data.Train}, {cfg.Data.ValDir, cfg.Data.Validation}, {cfg.Data.TestDir, cfg.Data.Test}} {
				ds, err := datasets.Read(filepath.Join(root, d.dir))
				if err != nil {
					t.Fatal(err)
				}
				if len(ds.Instances) != d.size || len(ds.Instances) < cfg.GP.Subset && d.dir == cfg.Data.TrainDir {
					t.Errorf("%s: %d instances, config says %d (subset %d)", d.dir, len(ds.Instances), d.size, cfg.GP.Subset)
				}
			}
		})
	}
}

// A missing --in is reported as such, not as the VC file looked up beside
// it; a broken quote is reported at the line where it opens.
func TestDataImportPhillyMissingInputAndQuote(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	_, _, err := runApp(t, "data", "import", "philly", "--in", filepath.Join(dir, "nope.csv"), "--out", out)
	if err == nil || !strings.Contains(err.Error(), "nope.csv") || strings.Contains(err.Error(), "helios_philly_vc.csv") {
		t.Fatalf("missing input: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "helios_philly_vc.csv"), []byte("vc,node num\na,2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	body := "timestamp,duration,num_gpus,gpu_time,cluster\n" +
		"2017-10-01 00:00:00,10,1,10,a\n" +
		"2017-10-01 00:00:00,\"10,1,10,a\n" + // line 3: the quote opens here
		"2017-10-01 00:00:00,10,1,10,a\n" +
		"2017-10-01 00:00:00,10,1,10,a\"x\n" // line 5: the reader gives up here
	in := filepath.Join(dir, "broken.csv")
	if err := os.WriteFile(in, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err = runApp(t, "data", "import", "philly", "--in", in, "--out", out)
	if err == nil || !strings.Contains(err.Error(), "broken.csv: row 2 (line 3)") {
		t.Fatalf("broken quote: %v", err)
	}
	if _, err := os.Stat(out); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("bad input left %s behind", out)
	}
}

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evogp/evogp/reports"
)

// report redraws, from the Parquet tables alone, exactly the files eval
// drew, with eval's reference and instance taken from its marker file.
func TestReportRedrawsEvalFromTables(t *testing.T) {
	data := smokeDataset(t)
	out := filepath.Join(t.TempDir(), "eval")
	if _, _, err := runApp(t, "eval", "--dataset", data, "--quiet", "--out", out, "--format", "svg", "--schedulers", "tiresias,lyra,mine=d",
		"--reference", "lyra", "--instance", "inst-0001"); err != nil {
		t.Fatal(err)
	}
	names := []string{"summary.md", "summary.csv", "ranking.svg", "breakdown_mean.svg", "breakdown_inst-0001.svg", "queue_density_inst-0001.svg", "jct_cdf.svg"}
	orig := map[string][]byte{}
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(out, n))
		if err != nil {
			t.Fatal(err)
		}
		orig[n] = b
		os.Remove(filepath.Join(out, n))
	}
	stdout, _, err := runApp(t, "report", out, "--format", "svg")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout, "ranking.svg") {
		t.Fatalf("stdout %q", stdout)
	}
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(out, n))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(b, orig[n]) {
			t.Fatalf("%s redrawn differently", n)
		}
	}
	if md := string(orig["summary.md"]); !strings.Contains(md, "objective of `lyra`") {
		t.Fatalf("eval ignored --reference:\n%s", md)
	}
	// Flags override the marker file; PDF on request.
	if _, _, err := runApp(t, "report", out, "--format", "pdf", "--instance", "inst-0000", "--reference", "tiresias"); err != nil {
		t.Fatal(err)
	}
	if md, _ := os.ReadFile(filepath.Join(out, "summary.md")); !strings.Contains(string(md), "objective of `tiresias`") {
		t.Fatalf("report ignored --reference:\n%s", md)
	}
	for _, n := range []string{"breakdown_inst-0000.pdf", "queue_density_inst-0000.pdf", "ranking.pdf"} {
		if _, err := os.Stat(filepath.Join(out, n)); err != nil {
			t.Fatal(err)
		}
	}
}

// Learner, sweep and pressure tables give the convergence, trade-off and
// pressure figures.
func TestReportOtherTables(t *testing.T) {
	dir := t.TempDir()
	gens := []reports.GenerationRow{{Generation: 0, Best: 3, Median: 3.5, Worst: 5}, {Generation: 1, Best: 2.8, Median: 3.1, Worst: 4}}
	sweep := []reports.SweepRow{{Point: "omega=0.2", Omega: 0.2, Seed: 1, AvgJCT: 3, MaxQT: 9}, {Point: "omega=0.8", Omega: 0.8, Seed: 1, AvgJCT: 2, MaxQT: 12}}
	press := []reports.PressureRow{{Interval: 60, Scheduler: "gp", Seed: 1, Objective: 3}, {Interval: 120, Scheduler: "gp", Seed: 1, Objective: 2}}
	if err := reports.WriteGenerations(filepath.Join(dir, "generations.parquet"), gens); err != nil {
		t.Fatal(err)
	}
	if err := reports.WriteSweep(filepath.Join(dir, "sweep.parquet"), sweep); err != nil {
		t.Fatal(err)
	}
	if err := reports.WritePressure(filepath.Join(dir, "pressure.parquet"), press); err != nil {
		t.Fatal(err)
	}
	base := []reports.ResultRow{{Instance: "t0", Scheduler: "tiresias", Jobs: 3, AvgJCT: 1.5, MaxQT: 20, Objective: 10}}
	if err := reports.WriteResults(filepath.Join(dir, "baselines.parquet"), base); err != nil {
		t.Fatal(err)
	}
	if _, _, err := runApp(t, "report", dir); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"convergence.png", "convergence.svg", "tradeoff.svg", "pressure.png"} {
		if _, err := os.Stat(filepath.Join(dir, n)); err != nil {
			t.Fatal(err)
		}
	}
	// The sweep's baselines are the trade-off's reference lines.
	svg, _ := os.ReadFile(filepath.Join(dir, "tradeoff.svg"))
	if !strings.Contains(string(svg), ">tiresias<") {
		t.Fatal("tradeoff.svg lacks the tiresias baseline")
	}
	if _, err := os.Stat(filepath.Join(dir, "summary.md")); !os.IsNotExist(err) {
		t.Fatal("summary written without a results table")
	}
}

func TestReportBadInput(t *testing.T) {
	empty := t.TempDir()
	if _, _, err := runApp(t, "report", empty); err == nil || !strings.Contains(err.Error(), "no result table") {
		t.Fatalf("empty dir: %v", err)
	}
	if _, _, err := runApp(t, "report"); err == nil {
		t.Fatal("no directory accepted")
	}
	if _, _, err := runApp(t, "report", filepath.Join(empty, "absent")); err == nil {
		t.Fatal("absent directory accepted")
	}
	// A good directory and a corrupt one: nothing is written to either.
	good := t.TempDir()
	if err := reports.WriteGenerations(filepath.Join(good, "generations.parquet"), []reports.GenerationRow{{Best: 1, Median: 2, Worst: 3}}); err != nil {
		t.Fatal(err)
	}
	bad := t.TempDir()
	os.WriteFile(filepath.Join(bad, "results.parquet"), []byte("PAR1 broken"), 0o644)
	_, _, err := runApp(t, "report", good, bad)
	if err == nil || !strings.Contains(err.Error(), "results.parquet") {
		t.Fatalf("corrupt table: %v", err)
	}
	for _, d := range []string{good, bad} {
		entries, _ := os.ReadDir(d)
		if len(entries) != 1 {
			t.Fatalf("%s holds %d files after a failed report", d, len(entries))
		}
	}
	if _, _, err := runApp(t, "report", good, "--format", "bmp"); err == nil {
		t.Fatal("unknown format accepted")
	}
	if _, _, err := runApp(t, "report", good, "--bogus"); err == nil || !strings.Contains(err.Error(), "unknown flag --bogus") {
		t.Fatalf("unknown trailing flag: %v", err)
	}
	if _, _, err := runApp(t, "report", good, "--format"); err == nil || !strings.Contains(err.Error(), "needs a value") {
		t.Fatalf("trailing flag without value: %v", err)
	}
	out, _, err := runApp(t, "report", "--help")
	if err != nil || !strings.Contains(out, "Examples:") {
		t.Fatalf("help: %v\n%s", err, out)
	}
}

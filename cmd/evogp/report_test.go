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

func TestReportBadInput(t *testing.T) {
	// What Redraw refuses (an empty, absent or corrupt directory) is
	// tested beside it (experiment's TestRedrawRefusesBadDirectories);
	// here, the command line's own refusals.
	if _, _, err := runApp(t, "report"); err == nil {
		t.Fatal("no directory accepted")
	}
	good := t.TempDir()
	if err := reports.WriteGenerations(filepath.Join(good, "generations.parquet"), []reports.GenerationRow{{Best: 1, Median: 2, Worst: 3}}); err != nil {
		t.Fatal(err)
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

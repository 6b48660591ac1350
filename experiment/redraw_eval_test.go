package experiment_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evogp/evogp/experiment"
)

// report redraws, from the Parquet tables alone, exactly the files eval
// drew, with eval's reference and instance taken from its marker file
// (the manifest, read through runfile). (Moved from cmd/evogp.)
func TestReportRedrawsEvalFromTables(t *testing.T) {
	data := genData(t, "smoke", 2)
	out := filepath.Join(t.TempDir(), "eval")
	if _, err := runEvalFigures(t, data, out, "tiresias,lyra,mine=d",
		experiment.FigureOptions{Reference: "lyra", RequireReference: true, Instance: "inst-0001"}); err != nil {
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
	var w bytes.Buffer
	if err := experiment.Redraw(context.Background(), experiment.RedrawOptions{Dirs: []string{out}, Formats: "svg"}, &w); err != nil {
		t.Fatal(err)
	}
	stdout := w.String()
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
	// Given options override the marker file; PDF on request.
	if err := experiment.Redraw(context.Background(), experiment.RedrawOptions{Dirs: []string{out}, Formats: "pdf",
		Instance: "inst-0000", InstanceGiven: true, Reference: "tiresias", ReferenceGiven: true}, &w); err != nil {
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

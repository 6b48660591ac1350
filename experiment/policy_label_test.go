package experiment

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A composed or named scheduler runs under a label of the user's choosing,
// with exactly the results it has under its own name; a formula or run
// source is read as before, and ambiguity with a directory is refused.
func TestLabelledSchedulerEntries(t *testing.T) {
	ps, err := ParsePolicies("srtf=mct+srtf+bestfit,mct+srtf+bestfit,mine=evo-srsf,f=g*d", false, false)
	if err != nil {
		t.Fatal(err)
	}
	labels := []string{ps[0].Label, ps[1].Label, ps[2].Label, ps[3].Label}
	if strings.Join(labels, " ") != "srtf mct+srtf+bestfit mine f" {
		t.Fatalf("labels %v", labels)
	}
	if ps[0].Name != "mct+srtf+bestfit" || ps[0].Source != "" || ps[2].EVO == nil || ps[3].Source != "g*d" {
		t.Errorf("policies %+v", ps)
	}
	if _, err := rebuildPolicy(ps[0]); err != nil {
		t.Errorf("rebuild: %v", err)
	}
	insts := evoTestInstances(t, 2)
	opts, err := DefaultSimSettings().Options()
	if err != nil {
		t.Fatal(err)
	}
	a, err := SimulateAll(context.Background(), insts, ps[0], opts, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := SimulateAll(context.Background(), insts, ps[1], opts, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range a {
		if a[i].Metrics != b[i].Metrics {
			t.Errorf("instance %d: labelled %+v ≠ unlabelled %+v", i, a[i].Metrics, b[i].Metrics)
		}
	}
	if _, err := ParsePolicies("x=scheduler:nosuch+srtf+bestfit", false, false); err == nil || !strings.Contains(err.Error(), "scheduler x") {
		t.Errorf("forced unknown scheduler: %v", err)
	}
	if _, err := ParsePolicies("gp=mct+formula+bestfit", false, false); err == nil {
		t.Error("a formula scheduler as a source needs a formula: want an error")
	}
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.Mkdir(filepath.Join(dir, "tiresias"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := ParsePolicies("t=tiresias", false, false); err == nil || !strings.Contains(err.Error(), "scheduler:tiresias") {
		t.Errorf("ambiguous source: %v", err)
	}
	if ps, err := ParsePolicies("t=scheduler:tiresias", false, false); err != nil || ps[0].Name != "tiresias" {
		t.Errorf("forced: %v %+v", err, ps)
	}
}

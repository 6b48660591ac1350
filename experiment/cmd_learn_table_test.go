package experiment

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/datasets"
	"github.com/evogp/evogp/internal/progress"
	"github.com/evogp/evogp/learn"
	"github.com/evogp/evogp/policies"
	"github.com/evogp/evogp/runfile"
)

// RunLearnCommand (evogp learn) ends with the verdict against the best baseline and the
// held-out test table listing every baseline, the constant and SRSF; the
// same table is in best.json.
func TestLearnPrintsTestTable(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	var out, errw strings.Builder
	if err := RunLearnCommand(context.Background(), LearnCommand{Config: "smoke", Out: dir, Progress: progress.Options{Quiet: true}}, &out, &errw); err != nil {
		t.Fatalf("%v\n%s", err, errw.String())
	}
	stdout := out.String()
	best, err := learn.ReadBest(filepath.Join(dir, runfile.BestFile))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"vs best baseline " + best.BestBaseline, "test score: learned", "test split: 3 instances generated from seed 1",
		"Wilcoxon p", runfile.RowLearned, runfile.RowConstant, runfile.RowSRSF}
	want = append(want, policies.Baselines()...)
	for _, w := range want {
		if !strings.Contains(stdout, w) {
			t.Errorf("output lacks %q:\n%s", w, stdout)
		}
	}
	if best.Test == nil || len(best.Test.Rows) != len(policies.Baselines())+3 {
		t.Errorf("best.json test table: %+v", best.Test)
	}
	if strings.Contains(stdout, "better than SRSF") {
		t.Errorf("the headline still compares with SRSF:\n%s", stdout)
	}
}

// TestLearnFromDatasets: RunLearnCommand (evogp learn --train --validation) learns from dataset directories instead of generated
// instances; config.yaml records them, so --resume finds them again.
func TestLearnFromDatasets(t *testing.T) {
	parent := t.TempDir()
	cfg, err := configs.Load("smoke")
	if err != nil {
		t.Fatal(err)
	}
	insts, err := datasets.Generate(cfg.Generator.Settings(), 99, 5)
	if err != nil {
		t.Fatal(err)
	}
	train, val := filepath.Join(parent, "train"), filepath.Join(parent, "val")
	if err := datasets.Write(train, &datasets.Dataset{Instances: insts[:3]}, "csv"); err != nil {
		t.Fatal(err)
	}
	if err := datasets.Write(val, &datasets.Dataset{Instances: insts[3:]}, "parquet"); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(parent, "run")
	quiet := progress.Options{Quiet: true}
	var w, errw strings.Builder
	if err := RunLearnCommand(context.Background(), LearnCommand{Config: "smoke", Train: train, Validation: val, Out: dir, Progress: quiet}, &w, &errw); err != nil {
		t.Fatalf("%v\n%s", err, errw.String())
	}
	rc, err := learn.RunConfig(dir)
	if err != nil {
		t.Fatal(err)
	}
	if rc.Data.TrainDir != train || rc.Data.ValDir != val {
		t.Fatalf("config.yaml records data dirs %q, %q", rc.Data.TrainDir, rc.Data.ValDir)
	}
	b, err := os.ReadFile(filepath.Join(dir, runfile.BestFile))
	if err != nil {
		t.Fatal(err)
	}
	var best runfile.Best
	if err := json.Unmarshal(b, &best); err != nil || best.ValidationInstances != 2 {
		t.Fatalf("best.json: %v, %+v", err, best)
	}
	// A subset larger than the given training set is refused.
	refused := LearnCommand{Config: "smoke", Train: train, Validation: val, Out: filepath.Join(parent, "x"), Overrides: []string{"gp.subset=4"}, Progress: quiet}
	if err := RunLearnCommand(context.Background(), refused, &w, &errw); err == nil || !strings.Contains(err.Error(), "larger than the training set (3 instances)") {
		t.Errorf("subset 4 of 3 training instances: %v", err)
	}
	if _, err := os.Stat(filepath.Join(parent, "x")); err == nil {
		t.Error("a refused run left its directory")
	}
}

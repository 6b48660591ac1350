package experiment_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/experiment"
	"github.com/evogp/evogp/internal/progress"
	"github.com/evogp/evogp/reports"
	"github.com/evogp/evogp/runfile"
)

// eval runs evo-gp=RUN under EVO and gp=RUN under MCT, pairs the EVO
// schedulers with their MCT counterparts for Fig. 11b, keeps the ops log
// in the directory for Fig. 12, and report redraws both. (Moved from
// cmd/evogp.)
func TestEvalEVOGPAndReport(t *testing.T) {
	data := filepath.Join(t.TempDir(), "data") // three clusters on which MCT leaves queues
	if err := experiment.RunDataGenCommand(context.Background(), experiment.DataGenCommand{Config: "smoke", Instances: 2, InstancesGiven: true,
		Seed: 4, SeedGiven: true, Out: data, Split: "train", Format: "parquet",
		Overrides: []string{"generator.clusters=3,3", "generator.nodes=2,3", "generator.jobs_per_node=8"}}, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	run := writeRun(t, `{"infix": "g * d"}`)
	out := filepath.Join(t.TempDir(), "eval")
	err := experiment.RunEval(context.Background(), experiment.EvalCommand{
		Settings: experiment.EvalSettings{Dataset: data, Sim: experiment.DefaultSimSettings(), Out: out, TimeUnit: "hours",
			OpsOut: filepath.Join(out, "ops.parquet"), Progress: progress.Options{Quiet: true}},
		Formats: "svg", Schedulers: "liquid,tiresias,evo-fifo,evo-srsf,gp=" + run + ",evo-gp=" + run, EstimatesSource: "none",
		Builder: func() (experiment.PolicyBuilder, error) {
			return experiment.OverriddenPolicyBuilder(configs.Default(), []string{"evo.population=6", "evo.generations=3"}, false, false)
		},
		Launcher: func() (string, bool, error) { return experiment.LauncherLocal, true, nil },
	}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	m, err := runfile.ReadManifest(out)
	if err != nil || m.Eval == nil {
		t.Fatalf("manifest %+v: %v", m, err)
	}
	man := m.Eval
	if man.Schedulers[5].Name != "evo-gp[g * d]" || man.Schedulers[4].Name != "gp[g * d]" {
		t.Fatalf("evo-gp runs %q, gp runs %q", man.Schedulers[5].Name, man.Schedulers[4].Name)
	}
	if e := man.Schedulers[5].EVO; e == nil || *e != (experiment.EVORecord{Population: 6, Generations: 3, Mutation: 0.1, Init: "seeded", Seed: 1}) {
		t.Fatalf("evo-gp's recorded parameters %+v", e)
	}
	if man.Schedulers[4].EVO != nil {
		t.Fatalf("gp records EVO parameters %+v", man.Schedulers[4].EVO)
	}
	if len(man.EVOPairs) != 3 || man.EVOPairs[2] != (runfile.EVOPair{EVO: "evo-gp", MCT: "gp"}) {
		t.Fatalf("pairs %v", man.EVOPairs)
	}
	rows, _ := reports.ReadResults(filepath.Join(out, "results.parquet"))
	obj := map[string]float64{}
	for _, r := range rows {
		obj[r.Scheduler+"/"+r.Instance] = r.Objective
	}
	// g*d is SRSF: evo-gp with g*d is evo-srsf, gp with g*d is tiresias.
	for _, inst := range []string{"inst-0000", "inst-0001"} {
		if obj["evo-gp/"+inst] != obj["evo-srsf/"+inst] || obj["gp/"+inst] != obj["tiresias/"+inst] {
			t.Fatalf("%s: evo-gp %v vs evo-srsf %v, gp %v vs tiresias %v", inst, obj["evo-gp/"+inst], obj["evo-srsf/"+inst], obj["gp/"+inst], obj["tiresias/"+inst])
		}
	}
	for _, f := range []string{"evo_rankings.svg", "evo_op_time.svg", "ops.parquet"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Fatal(err)
		}
	}
	before, _ := os.ReadFile(filepath.Join(out, "evo_rankings.svg"))
	os.Remove(filepath.Join(out, "evo_rankings.svg"))
	os.Remove(filepath.Join(out, "evo_op_time.svg"))
	var w bytes.Buffer
	if err := experiment.Redraw(context.Background(), experiment.RedrawOptions{Dirs: []string{out}, Formats: "svg"}, &w); err != nil {
		t.Fatal(err)
	}
	stdout := w.String()
	if !strings.Contains(stdout, "evo_rankings.svg") || !strings.Contains(stdout, "evo_op_time.svg") {
		t.Fatalf("report wrote %q", stdout)
	}
	after, _ := os.ReadFile(filepath.Join(out, "evo_rankings.svg"))
	if !bytes.Equal(before, after) {
		t.Fatal("report redrew Fig. 11b differently")
	}
}

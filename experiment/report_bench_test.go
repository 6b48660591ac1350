package experiment_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/datasets"
	"github.com/evogp/evogp/experiment"
	"github.com/evogp/evogp/internal/progress"
)

// BenchmarkEvalReport10x5 times what report.html costs beyond the
// figures: building the report of a 10-instance eval of five schedulers
// on the quick config (figures already rendered, as eval and evogp report
// have them) and writing it. It reports the report's size too.
//
//	go test -run '^$' -bench EvalReport10x5 -count 6 ./experiment/
func BenchmarkEvalReport10x5(b *testing.B) {
	cfg, err := configs.Load("quick")
	if err != nil {
		b.Fatal(err)
	}
	cfg.Data.Test = 10
	insts, err := experiment.TestInstances(cfg)
	if err != nil {
		b.Fatal(err)
	}
	tmp := b.TempDir()
	data := filepath.Join(tmp, "data")
	if err := datasets.Write(data, &datasets.Dataset{Instances: insts}, datasets.FormatParquet); err != nil {
		b.Fatal(err)
	}
	ps, err := experiment.ParsePolicies("spark,liquid,tiresias,lyra,mine=g*d+q", false, false)
	if err != nil {
		b.Fatal(err)
	}
	out := filepath.Join(tmp, "eval")
	fo := experiment.FigureOptions{Formats: []string{"png", "svg"}, Reference: "tiresias"}
	if _, err := experiment.Eval(context.Background(), experiment.EvalSettings{Dataset: data, Policies: ps, Sim: experiment.DefaultSimSettings(),
		Figures: fo, Out: out, Progress: progress.Options{Quiet: true},
		Provenance: experiment.NewProvenance([]string{"evogp", "eval"}, time.Unix(0, 0))}); err != nil {
		b.Fatal(err)
	}
	tables, err := experiment.ReadTables(out)
	if err != nil {
		b.Fatal(err)
	}
	files, err := tables.Render(fo)
	if err != nil {
		b.Fatal(err)
	}
	size := 0
	for b.Loop() {
		rep, err := tables.Report(out, files, fo, experiment.ReportOptions{}, experiment.ReportEnv())
		if err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(out, experiment.ReportFile), rep.Data, 0o644); err != nil {
			b.Fatal(err)
		}
		size = len(rep.Data)
	}
	b.ReportMetric(float64(size), "report-bytes")
}

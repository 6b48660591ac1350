package experiment

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/datasets"
	"github.com/evogp/evogp/policies"
	"github.com/evogp/evogp/simcore"
)

// TestPrintHeteroTable prints, for generated hetero-light and hetero-heavy
// batches of 100, 200 and 400 jobs, each scheduler's total tardiness,
// deadline misses, average JCT and makespan (means over HYDRA_TABLE
// instances). A tool, not a check: it runs only with HYDRA_TABLE=N and the
// Gavel matrix beside the repository.
func TestPrintHeteroTable(t *testing.T) {
	n := 0
	fmt.Sscan(os.Getenv("HYDRA_TABLE"), &n)
	if n <= 0 {
		t.Skip("set HYDRA_TABLE=N (instances per cell) to print the table")
	}
	matrix, _ := filepath.Abs("../../../shared/traces/gavel/simulation_throughputs_isolated.csv")
	if _, err := os.Stat(matrix); err != nil {
		t.Skip("no Gavel matrix")
	}
	scheds := []string{"hydra", "hydra-swap", "edf", "sjf-fastest", "allox", "chronus", "tiresias", "lyra", "liquid", "spark"}
	fmt.Println("| config | jobs | scheduler | total tardiness (h) | deadline misses | avg JCT (h) | makespan (h) | wall (s) |")
	fmt.Println("|---|---:|---|---:|---:|---:|---:|---:|")
	for _, cfgName := range []string{"hetero-light", "hetero-heavy"} {
		for _, jobs := range []int{100, 200, 400} {
			cfg, err := configs.Load(cfgName)
			if err != nil {
				t.Fatal(err)
			}
			if cfg, err = cfg.Override(fmt.Sprintf("generator.jobs=%d", jobs), "generator.throughputs="+matrix); err != nil {
				t.Fatal(err)
			}
			insts, err := datasets.Generate(cfg.Generator.Settings(), datasets.SplitSeed(cfg.Seed, "test"), n)
			if err != nil {
				t.Fatal(err)
			}
			for _, spec := range scheds {
				s, err := policies.Parse(spec, simcore.Params{})
				if err != nil {
					t.Fatal(err)
				}
				var tard, jct, mk float64
				var miss int
				start := time.Now()
				for i := range insts {
					res, err := simcore.Simulate(context.Background(), &insts[i], s, simcore.Options{})
					if err != nil {
						t.Fatal(err)
					}
					tard += res.Metrics.TotalTardiness
					miss += res.Metrics.DeadlineMisses
					jct += res.Metrics.AvgJCT
					mk += res.Metrics.Makespan
				}
				k := float64(len(insts))
				fmt.Printf("| %s | %d | %s | %.2f | %.1f | %.3f | %.2f | %.1f |\n", cfgName, jobs, spec, tard/k, float64(miss)/k, jct/k, mk/k, time.Since(start).Seconds()/k)
			}
		}
	}
}

package experiment

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/datasets"
	"github.com/evogp/evogp/internal/progress"
	"github.com/evogp/evogp/reports"
	"github.com/evogp/evogp/simcore"
	"github.com/evogp/evogp/simcore/evo"
)

// configs checks the evo section itself (it imports no simcore); on every
// input it must agree with evo.Params.Validate, message for message.
func TestEVOValidationAgreesWithSimcore(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	pick := func(lo, hi int) int { return lo + rng.IntN(hi-lo+1) }
	for range 5000 {
		cfg := configs.Default()
		cfg.EVO = configs.EVO{
			Population:  pick(-2, 12),
			Generations: pick(-3, 5),
			Mutation:    []float64{-0.1, 0, 0.1, 1, 1.5}[rng.IntN(5)],
			Stall:       pick(-2, 3),
			Budget:      pick(-2, 20),
			Init:        []string{"seeded", "random", "", "mct"}[rng.IntN(4)],
			Workers:     pick(0, 4),
		}
		cfg.Seed = rng.Uint64()
		mine, theirs := cfg.EVO.Validate(), EVOParams(cfg).Validate()
		if (mine == nil) != (theirs == nil) || mine != nil && mine.Error() != theirs.Error() {
			t.Fatalf("%+v: configs says %v, simcore says %v", cfg.EVO, mine, theirs)
		}
		p := EVOParams(cfg)
		want := evo.Params{Population: cfg.EVO.Population, Generations: cfg.EVO.Generations, Mutation: cfg.EVO.Mutation,
			Stall: cfg.EVO.Stall, Budget: cfg.EVO.Budget, Init: cfg.EVO.Init, Seed: cfg.Seed, Workers: cfg.EVO.Workers}
		if p != want {
			t.Fatalf("EVOParams(%+v) = %+v", cfg.EVO, p)
		}
	}
}

// evoTestInstances are small generated multi-cluster instances on which
// MCT leaves queues, so that EVO has something to improve.
func evoTestInstances(t *testing.T, n int) []simcore.Instance {
	t.Helper()
	cfg, err := configs.Load("smoke")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err = cfg.Override("generator.clusters=3,3", "generator.nodes=2,3", "generator.jobs_per_node=8")
	if err != nil {
		t.Fatal(err)
	}
	insts, err := datasets.Generate(cfg.Generator.Settings(), 5, n)
	if err != nil {
		t.Fatal(err)
	}
	return insts
}

func smallEVO() evo.Params {
	p := evo.DefaultParams()
	p.Population, p.Generations = 6, 4
	return p
}

// Every spec form reaches the evo allocator with the builder's
// parameters; a formula label that is itself a formula scheduler (gp,
// evo-gp) runs under that scheduler.
func TestPolicyBuilderEVOSpecs(t *testing.T) {
	b := PolicyBuilder{EVO: smallEVO()}
	ps, err := b.Policies("liquid,evo+fifo+bestfit,evo-srsf,evo-gp=g*d,gp=g*d,mine=g*d")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range ps {
		names = append(names, p.Label+"→"+p.Name)
	}
	want := []string{"liquid→liquid", "evo+fifo+bestfit→evo+fifo+bestfit", "evo-srsf→evo-srsf",
		"evo-gp→evo-gp[g * d]", "gp→gp[g * d]", "mine→mct+formula+bestfit[g * d]"}
	if !slices.Equal(names, want) {
		t.Fatalf("policies %v, want %v", names, want)
	}
	insts := evoTestInstances(t, 2)
	opts, err := DefaultSimSettings().Options()
	if err != nil {
		t.Fatal(err)
	}
	opts.RecordOps = true
	for _, p := range ps {
		res, err := SimulateAll(context.Background(), insts, p, opts, 1, nil)
		if err != nil {
			t.Fatalf("%s: %v", p.Label, err)
		}
		ops := 0
		for _, r := range res {
			for _, o := range OpsRows(r, p.Label) {
				ops++
				// The first generation evaluates the population; each
				// later one evaluates two children per pair drawn, at most
				// population children.
				if o.Generations > 4 || o.Evaluations > int64(6*(1+o.Generations)) {
					t.Errorf("%s: operation %+v exceeds population 6 × generations 4", p.Label, o)
				}
			}
		}
		isEVO := strings.HasPrefix(p.Label, "evo")
		if isEVO != (ops > 0) {
			t.Errorf("%s: %d EVO operations recorded", p.Label, ops)
		}
	}
	// Bad parameters fail with EVOParams.Validate's message when an evo
	// scheduler is built, and do not matter to others.
	bad := PolicyBuilder{EVO: evo.Params{Population: 1, Generations: 5, Init: "seeded"}}
	if _, err := bad.Policy("evo-srsf", ""); err == nil || !strings.Contains(err.Error(), "evo.population = 1: must be ≥ 2") {
		t.Errorf("population 1: err = %v", err)
	}
	if _, err := bad.Policies("evo-gp=g*d"); err == nil || !strings.Contains(err.Error(), "evo.population = 1") {
		t.Errorf("evo-gp with population 1: err = %v", err)
	}
	if _, err := bad.Policy("tiresias", ""); err != nil {
		t.Errorf("tiresias does not use evo: %v", err)
	}
	if _, err := b.Policy("evo-gp", ""); err == nil || !strings.Contains(err.Error(), "formula ranking") {
		t.Errorf("evo-gp without formula: err = %v", err)
	}
	if _, err := b.Policy("evo-srsf", "g*d"); err == nil || !strings.Contains(err.Error(), "own ranking") {
		t.Errorf("evo-srsf with a formula: err = %v", err)
	}
}

// EVO schedulers pair with the MCT scheduler of the same ranking and
// placer, whatever name either is given by.
func TestEVOPairs(t *testing.T) {
	b := PolicyBuilder{EVO: smallEVO()}
	ps, err := b.Policies("spark,liquid,tiresias,lyra,evo-fifo,evo-srsf,evo-lyra,evo+fifo+roundrobin,gp=g*d,evo-gp=g*d,evo+formula+roundrobin=q,evo-sjf")
	if err != nil {
		t.Fatal(err)
	}
	got := EVOPairs(ps)
	want := []reports.EVOPair{{EVO: "evo-fifo", MCT: "liquid"}, {EVO: "evo-srsf", MCT: "tiresias"}, {EVO: "evo-lyra", MCT: "lyra"},
		{EVO: "evo+fifo+roundrobin", MCT: "spark"}, {EVO: "evo-gp", MCT: "gp"}}
	if !slices.Equal(got, want) {
		t.Fatalf("pairs %v, want %v", got, want)
	}
	ps, _ = b.Policies("evo-gp=g*d,gp=g*d+q")
	if got := EVOPairs(ps); len(got) != 0 {
		t.Errorf("different formulas paired: %v", got)
	}
}

// eval with an ops log inside its directory writes the log, Fig. 12 and
// Fig. 11b; report reads them back and draws the same bytes.
func TestEvalOpsAndEVOFigures(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	if err := datasets.Write(data, &datasets.Dataset{Instances: evoTestInstances(t, 2)}, datasets.FormatParquet); err != nil {
		t.Fatal(err)
	}
	b := PolicyBuilder{EVO: smallEVO()}
	ps, err := b.Policies("liquid,tiresias,evo-fifo,evo-srsf")
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "eval")
	res, err := Eval(context.Background(), EvalSettings{Dataset: data, Policies: ps, Sim: DefaultSimSettings(),
		Figures: FigureOptions{Formats: []string{"svg"}, Reference: "tiresias"}, Out: out,
		OpsOut: filepath.Join(out, OpsFile), Progress: progress.Options{Quiet: true}})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"evo_rankings.svg", "evo_op_time.svg", OpsFile} {
		if !slices.Contains(res.Files, f) {
			t.Errorf("eval wrote %v, missing %s", res.Files, f)
		}
	}
	ops, err := reports.ReadOps(filepath.Join(out, OpsFile))
	if err != nil {
		t.Fatal(err)
	}
	scheds := map[string]bool{}
	for _, o := range ops {
		scheds[o.Scheduler] = true
		if o.EVOFitness > o.MCTFitness*(1+1e-12) {
			t.Errorf("seeded EVO chose a worse assignment than the current one: %+v", o)
		}
	}
	if len(scheds) != 2 || !scheds["evo-fifo"] || !scheds["evo-srsf"] {
		t.Errorf("ops log schedulers %v, want evo-fifo and evo-srsf only", scheds)
	}
	tabs, err := ReadTables(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(tabs.Ops) != len(ops) || !slices.Equal(tabs.EVOPairs, []reports.EVOPair{{EVO: "evo-fifo", MCT: "liquid"}, {EVO: "evo-srsf", MCT: "tiresias"}}) {
		t.Fatalf("report read %d ops and pairs %v", len(tabs.Ops), tabs.EVOPairs)
	}
	files, err := tabs.Render(FigureOptions{Formats: []string{"svg"}, Reference: "tiresias"})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if f.Name != "evo_rankings.svg" && f.Name != "evo_op_time.svg" {
			continue
		}
		was, err := os.ReadFile(filepath.Join(out, f.Name))
		if err != nil {
			t.Fatal(err)
		}
		if string(was) != string(f.Data) {
			t.Errorf("report redraws %s differently from eval", f.Name)
		}
	}

	// A log outside the directory is written beside it; Fig. 12 is not
	// drawn into the directory then.
	ext := filepath.Join(dir, "ops.csv")
	res, err = Eval(context.Background(), EvalSettings{Dataset: data, Policies: ps, Sim: DefaultSimSettings(),
		Figures: FigureOptions{Formats: []string{"svg"}}, Out: filepath.Join(dir, "eval2"), OpsOut: ext, Progress: progress.Options{Quiet: true}})
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(res.Files, "evo_op_time.svg") {
		t.Error("Fig. 12 drawn although the log is kept outside the directory")
	}
	if got, err := reports.ReadOps(ext); err != nil || len(got) != len(ops) {
		t.Errorf("external log: %d rows, %v; want %d", len(got), err, len(ops))
	}
	for _, bad := range []string{filepath.Join(dir, "eval3", "results.parquet"), filepath.Join(dir, "ops.txt")} {
		_, err := Eval(context.Background(), EvalSettings{Dataset: data, Policies: ps, Sim: DefaultSimSettings(),
			Figures: FigureOptions{Formats: []string{"svg"}}, Out: filepath.Join(dir, "eval3"), OpsOut: bad, Progress: progress.Options{Quiet: true}})
		if err == nil || !strings.Contains(err.Error(), "--ops-out") {
			t.Errorf("--ops-out %s: err = %v", bad, err)
		}
		if _, err := os.Stat(filepath.Join(dir, "eval3")); err == nil {
			t.Errorf("--ops-out %s: output directory written despite the error", bad)
		}
	}
}

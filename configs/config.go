package configs

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/evogp/evogp/datasets"
	"github.com/evogp/evogp/internal/yamlerr"
	"github.com/evogp/evogp/simcore"
	"github.com/evogp/evogp/simcore/evo"
)

//go:embed *.yaml
var embedded embed.FS

// Config is one experiment. Every generator range, simulator option,
// objective weight and GP parameter is a key.
type Config struct {
	Name      string    `yaml:"name"`
	Seed      uint64    `yaml:"seed"`
	Generator Generator `yaml:"generator"`
	Data      Data      `yaml:"data"`
	Sim       Sim       `yaml:"sim"`
	Objective Objective `yaml:"objective"`
	GP        GP        `yaml:"gp"`
	Pressure  Pressure  `yaml:"pressure"`
	EVO       EVO       `yaml:"evo"`
	Rule      Rule      `yaml:"rule,omitempty"`
}

// Generator is the Table II workload generator (SPEC §7).
type Generator struct {
	Clusters      [2]int  `yaml:"clusters"`       // U{min..max} clusters per instance
	Nodes         [2]int  `yaml:"nodes"`          // U{min..max} nodes per cluster
	GPUsPerNode   int     `yaml:"gpus_per_node"`  // G_p
	JobsPerNode   float64 `yaml:"jobs_per_node"`  // jobs per cluster = JobsPerNode × N_p
	Priorities    [2]int  `yaml:"priorities"`     // U{min..max}
	LoadMin       float64 `yaml:"load_min"`       // λ_min = LoadMin × λ_max
	LoadMax       float64 `yaml:"load_max"`       // λ rate upper factor of λ_max
	Arrivals      string  `yaml:"arrivals"`       // poisson | uniform
	Interval      float64 `yaml:"interval"`       // uniform inter-arrival Δ (s), arrivals=uniform
	MinDuration   int64   `yaml:"min_duration"`   // floor for drawn durations (s), ≥ 1
	DurationScale float64 `yaml:"duration_scale"` // multiplies every type's mean duration

	// Heterogeneous GPU types and deadlines (SPEC §12); see datasets.GenSettings.
	Jobs        int                   `yaml:"jobs"`        // jobs per instance (0 = jobs_per_node × N_p)
	MaxGPUs     int                   `yaml:"max_gpus"`    // keep Table II types with ≤ this many GPUs (0 = all)
	Types       []datasets.GenType    `yaml:"types"`       // one cluster per GPU type
	Throughputs string                `yaml:"throughputs"` // throughput matrix CSV, read at generation time
	Deadlines   datasets.GenDeadlines `yaml:"deadlines"`   // {fraction, slack: [lo, hi]}
}

// Settings is the generator section as the datasets package takes it.
func (g Generator) Settings() datasets.GenSettings {
	return datasets.GenSettings{
		Clusters:      g.Clusters,
		Nodes:         g.Nodes,
		GPUsPerNode:   g.GPUsPerNode,
		JobsPerNode:   g.JobsPerNode,
		Priorities:    g.Priorities,
		LoadMin:       g.LoadMin,
		LoadMax:       g.LoadMax,
		Arrivals:      g.Arrivals,
		Interval:      g.Interval,
		MinDuration:   g.MinDuration,
		DurationScale: g.DurationScale,
		Jobs:          g.Jobs,
		MaxGPUs:       g.MaxGPUs,
		Types:         g.Types,
		Throughputs:   g.Throughputs,
		Deadlines:     g.Deadlines,
	}
}

// Data sizes the generated splits.
type Data struct {
	Train      int    `yaml:"train"`
	Validation int    `yaml:"validation"`
	Test       int    `yaml:"test"`
	TrainDir   string `yaml:"train_dir"`      // use an existing dataset instead of generating
	ValDir     string `yaml:"validation_dir"` // idem
	TestDir    string `yaml:"test_dir"`       // idem
	// Seed is the seed of the generated train, validation and test sets;
	// 0 (the default, not written out) follows the top-level seed
	// (Config.DataSeed).
	Seed uint64 `yaml:"seed,omitempty"`
}

// Sim holds simulator options.
type Sim struct {
	Trigger  string `yaml:"trigger"`  // arrival | arrival+completion
	Backfill string `yaml:"backfill"` // none | conservative | greedy | strict | preemptive
	// ArrivalTies orders same-second jobs: id (default, also when empty)
	// or numpy-quicksort (Helios's order; simcore.TiesNumpyQuicksort).
	ArrivalTies string `yaml:"arrival_ties,omitempty"`
}

// Objective selects the objective: a kind of simcore.ObjectiveKinds by
// name (multi, Eq. 5; single, Eq. 16; deadline) and its parameters.
type Objective struct {
	Kind    string     `yaml:"kind"`    // a name of simcore.ObjectiveKindNames
	Weights [3]float64 `yaml:"weights"` // ω1..ω3 of Eq. 5
	Omega   float64    `yaml:"omega"`   // ω of Eq. 16
}

// GP holds Algorithm 3's parameters.
type GP struct {
	// Seed is the seed of the learner's random stream (and of EVO's
	// operations); 0 (the default, not written out) follows the top-level
	// seed (Config.GPSeed).
	Seed         uint64  `yaml:"seed,omitempty"`
	Population   int     `yaml:"population"`
	Generations  int     `yaml:"generations"`
	Mutation     float64 `yaml:"mutation"`   // subtree mutation probability r
	Crossover    float64 `yaml:"crossover"`  // crossover probability
	Tournament   int     `yaml:"tournament"` // k
	Subset       int     `yaml:"subset"`     // α
	InitDepth    [2]int  `yaml:"init_depth"` // ramped half-and-half range
	MaxDepth     int     `yaml:"max_depth"`
	InternalProb float64 `yaml:"internal_prob"` // crossover point choice (0.9)
	TimeUnit     string  `yaml:"time_unit"`     // hours | seconds
	Constants    bool    `yaml:"constants"`     // ephemeral random constants
	HallOfFame   int     `yaml:"hall_of_fame"`
	Workers      int     `yaml:"workers"` // 0 = all cores
	// Terminals is the terminal set (SPEC §8): names from expr's catalogue,
	// default the paper's [d, q, u, g].
	Terminals []string `yaml:"terminals"`
	// Allocator and Placer form the candidate scheduler
	// allocator+formula+placer that fitness is measured under (default
	// mct, bestfit).
	Allocator string `yaml:"allocator"`
	Placer    string `yaml:"placer"`
	// SeedFormulas are formulas (e.g. the baselines' rankings "g * d" for
	// SRSF, "0 - a" for FIFO) put into the initial population in place of
	// its first members; empty in the paper.
	SeedFormulas []string `yaml:"seed_formulas"`
	// Dedup is the diversity rule of survival: "none" (the paper: the n
	// best, duplicates allowed) or "behaviour" (at most one member per
	// phenotype — the ranking decisions on a fixed sample of scheduling
	// operations — while enough distinct phenotypes exist).
	Dedup string `yaml:"dedup"`
	// DedupSample is the number of sampled scheduling operations that
	// define a phenotype (with dedup: behaviour, for the "ranks like a
	// baseline" warning, and for the characterisation of gp.surrogate).
	DedupSample int `yaml:"dedup_sample"`
	// ValidateEvery k: the best individual is scored on the validation set
	// every k generations (and at the last), for the convergence plot and
	// best.json only — it never influences selection. 0 = never.
	ValidateEvery int `yaml:"validate_every"`
	// EarlyStop stops a child's simulation as soon as a lower bound of
	// its fitness proves it cannot survive (μ + λ: worse than every
	// parent on the generation's subset). It never changes a result —
	// survivors, hall of fame, best.json, generations.parquet — only the
	// time taken (learn/evaluate.go), so a run may be resumed with it
	// toggled. Default true.
	EarlyStop bool `yaml:"early_stop"`
	// Selection is how parents and survivors are chosen: "scalar" (the
	// paper: k-tournament and the n best by the config's objective) or
	// "nsga2" (SPEC §17: a front of formulas over Objectives). See
	// selection.go (SelectionMethods) and learn.Selections.
	Selection string `yaml:"selection"`
	// Parsimony, with scalar selection, breaks survival ties on fitness
	// in favour of the smaller individual (lexicographic parsimony: equal
	// fitness → fewer nodes, then canonical hash). Off by default
	// (docs/LEARNING.md measures it).
	Parsimony bool `yaml:"parsimony"`
	// ParentSelection is how the parents of each bred pair are chosen
	// with gp.selection: scalar (survival stays the n best, μ + λ):
	// "" or "tournament" (the paper's k-tournament on fitness, k =
	// gp.tournament) or "lexicase" (ε-lexicase over the generation's
	// training instances, La Cava et al. 2016). learn's registry of parent
	// selections (learn/parents.go) checks the name; the empty default
	// marshals as before, so the ConfigHash of older configs is unchanged.
	ParentSelection string `yaml:"parent_selection,omitempty"`
	// Pick is the criterion of the final pick on validation (learn's
	// finish, PickCriteria): "" or "mean" (the default, the paper's: the
	// mean over the validation instances of O_c,i / O_SRSF,i), "pooled"
	// (Σ_i O_c,i / Σ_i O_SRSF,i, the ratio of means the held-out tables
	// report: an instance where a job starves has the largest objective
	// and weighs the most) or "mean+worst" (the mean plus the largest
	// O_c,i / O_SRSF,i: a worst-instance term). It never changes the
	// evolution, only which candidate best.json names; best.json's
	// validation score stays the mean. The empty default marshals as
	// before, so the ConfigHash of older configs is unchanged.
	Pick string `yaml:"pick,omitempty"`
	// Fitness is the training fitness criterion of scalar selection
	// (learn/evaluate.go, FitnessCriteria): "" or "mean" (the default, the
	// paper's: Σ_{i ∈ subset} O_c,i / O_SRSF,i) or "pooled" (|subset| ·
	// Σ_i O_c,i / Σ_i O_SRSF,i over the generation's subset, on the same
	// scale: the ratio of means the held-out tables report, in which an
	// instance where a job starves weighs by its objective). It changes
	// survival and the hall of fame, not the cached per-instance terms.
	// Under gp.selection: nsga2 it makes every simulated objective the
	// ratio of means over its instances (training subset and validation
	// set alike, learn/front_pooled.go) instead of the mean of ratios.
	// The empty default marshals as before, so the ConfigHash of older
	// configs is unchanged.
	Fitness string `yaml:"fitness,omitempty"`
	// Objectives are NSGA-II's objectives: two or three of
	// FrontObjectives(); empty with scalar selection.
	Objectives []string `yaml:"objectives"`
	// Niche K > 0, with gp.selection: nsga2, clears by ranking tree
	// (learn/niche.go): in the NSGA-II order of survival and of the parent
	// tournament only the first K members with the same ranking tree
	// (canonical hash) keep their place; the others follow every kept
	// member. 0 (the default, not written out, so older configs keep
	// their ConfigHash) is plain NSGA-II. Early stop's dominance bound is
	// off with it.
	Niche int `yaml:"niche,omitempty"`
	// Learn lists the trees an individual evolves (SPEC §16): empty or
	// [ranking] is the paper's learner (one ranking tree f under
	// gp.allocator); [routing, ranking] evolves a routing tree R and f
	// together, scored as rule(R, gp.scope) + f + gp.placer. A config
	// without the key marshals as before, so its ConfigHash is unchanged.
	Learn []string `yaml:"learn,omitempty"`
	// RoutingTerminals is the routing tree's terminal set (SPEC §16), with
	// gp.learn: [routing, ranking]; `m` (MCT's finish estimate) is opt-in.
	RoutingTerminals []string `yaml:"routing_terminals,omitempty"`
	// Scope is the rule allocator's scope: arrivals (as MCT) or all (every
	// queued job at every operation, as EVO). Default arrivals.
	Scope string `yaml:"scope,omitempty"`
	// SeedRouting are routing formulas (e.g. m for MCT, 0 - o for the
	// current cluster, W for the least queued work) put into the initial
	// population beside gp.seed_formulas: member i gets seed_formulas[i]
	// (if any) and seed_routing[i] (if any).
	SeedRouting []string `yaml:"seed_routing,omitempty"`
	// TreeSwap is the probability that a bred pair exchanges its routing
	// trees (the multi-tree swap operator), drawn after crossover and
	// mutation; only with two trees.
	TreeSwap float64 `yaml:"tree_swap,omitempty"`
	// Surrogate is the fitness surrogate of breeding (learn/surrogate.go):
	// "" or "none" (the default, the paper's: every offspring is
	// simulated) or "knn" (breed SurrogatePool × n offspring, simulate
	// only the n a k-nearest-neighbour model over phenotypes ranks best).
	// The surrogate keys are written only when set, so a config
	// without them keeps its ConfigHash.
	Surrogate string `yaml:"surrogate,omitempty"`
	// SurrogatePool is the pool factor (≥ 1; default 2 with knn).
	SurrogatePool int `yaml:"surrogate_pool,omitempty"`
	// SurrogateK is the number of neighbours (≥ 1; default 3 with knn).
	SurrogateK int `yaml:"surrogate_k,omitempty"`
	// SurrogateRepeats is the screen's rule for offspring that repeat a
	// parent (canonical hash): "" or "last" (the default: after every new
	// offspring) or "free" (first, since a parent's re-scoring on the
	// generation's subset makes them cache hits). Only with knn.
	SurrogateRepeats string `yaml:"surrogate_repeats,omitempty"`
}

// LearnsRouting reports whether individuals carry a routing tree
// (gp.learn: [routing, ranking]).
func (g GP) LearnsRouting() bool { return slices.Contains(g.Learn, "routing") }

// RoutingScope is gp.scope with its default (arrivals).
func (g GP) RoutingScope() string {
	if g.Scope == "" {
		return "arrivals"
	}
	return g.Scope
}

// validateLearn checks gp.learn and the keys that only mean something with
// a routing tree.
func (g GP) validateLearn() error {
	switch {
	case len(g.Learn) == 0 || slices.Equal(g.Learn, []string{"ranking"}):
		for _, k := range []struct {
			set  bool
			name string
		}{{len(g.RoutingTerminals) > 0, "gp.routing_terminals"}, {g.Scope != "", "gp.scope"}, {len(g.SeedRouting) > 0, "gp.seed_routing"}, {g.TreeSwap != 0, "gp.tree_swap"}} {
			if k.set {
				return fmt.Errorf("%s is set but gp.learn = %v learns no routing tree (use gp.learn: [routing, ranking])", k.name, g.learnList())
			}
		}
		return nil
	case slices.Equal(g.Learn, []string{"routing", "ranking"}):
	default:
		return fmt.Errorf("gp.learn = %v: must be [ranking] (the paper's learner) or [routing, ranking]", g.Learn)
	}
	if len(g.RoutingTerminals) == 0 {
		return errors.New("gp.routing_terminals: must list at least one routing terminal with gp.learn: [routing, ranking]")
	}
	if g.Scope != "" && g.Scope != "arrivals" && g.Scope != "all" {
		return fmt.Errorf("gp.scope = %q: must be arrivals or all", g.Scope)
	}
	if !(g.TreeSwap >= 0 && g.TreeSwap <= 1) {
		return fmt.Errorf("gp.tree_swap = %v: must be in [0, 1]", g.TreeSwap)
	}
	return nil
}

// normaliseLearn drops an explicit gp.learn: [ranking], the default, so
// that a config stating it has the same ConfigHash as one that does not.
func (g *GP) normaliseLearn() {
	if slices.Equal(g.Learn, []string{"ranking"}) {
		g.Learn = nil
	}
}

func (g GP) learnList() []string {
	if len(g.Learn) == 0 {
		return []string{"ranking"}
	}
	return g.Learn
}

// Pressure is the load-pressure study (paper §IV-D).
type Pressure struct {
	Clusters  int       `yaml:"clusters"`
	Nodes     int       `yaml:"nodes"`
	Intervals []float64 `yaml:"intervals"` // inter-arrival Δ values (s)
	Jobs      int       `yaml:"jobs"`      // jobs per instance
	Seeds     int       `yaml:"seeds"`
}

// EVO configures the evolutionary job-to-cluster allocator (SPEC §11),
// used by every scheduler whose allocator is evo (evo-gp, evo-fifo,
// evo+srsf+bestfit, ...). Its random stream is derived from the run seed.
type EVO struct {
	Population  int     `yaml:"population"`  // n ≥ 2
	Generations int     `yaml:"generations"` // ≥ 0
	Mutation    float64 `yaml:"mutation"`    // r ∈ [0, 1]: probability that both children mutate
	Stall       int     `yaml:"stall"`       // stop after this many generations without improvement; 0 = off
	Budget      int     `yaml:"budget"`      // at most this many evaluations per operation; 0 = off, else ≥ population
	Init        string  `yaml:"init"`        // seeded | random
	Workers     int     `yaml:"workers"`     // goroutines per operation (0 or 1 = serial); results do not depend on it
}

// Names lists the embedded configs.
func Names() []string {
	entries, _ := embedded.ReadDir(".")
	var names []string
	for _, e := range entries {
		names = append(names, strings.TrimSuffix(e.Name(), ".yaml"))
	}
	sort.Strings(names)
	return names
}

// Load returns an embedded config by name, or reads a YAML file when the
// argument names one (contains a path separator or ends in .yaml/.yml).
// An empty name is "quick". Unknown keys and out-of-range values are errors.
func Load(nameOrPath string) (Config, error) {
	if nameOrPath == "" {
		nameOrPath = "quick"
	}
	var data []byte
	var err error
	src := nameOrPath
	if strings.ContainsRune(nameOrPath, os.PathSeparator) || strings.HasSuffix(nameOrPath, ".yaml") || strings.HasSuffix(nameOrPath, ".yml") {
		data, err = os.ReadFile(nameOrPath)
		if err != nil {
			return Config{}, fmt.Errorf("config: %w", err)
		}
	} else {
		data, err = embedded.ReadFile(path.Join(".", nameOrPath+".yaml"))
		if err != nil {
			return Config{}, fmt.Errorf("config: no embedded config %q (have %s)", nameOrPath, strings.Join(Names(), ", "))
		}
		src = "embedded:" + nameOrPath
	}
	return Parse(src, data)
}

// Parse decodes YAML strictly over the defaults and validates the result.
func Parse(source string, data []byte) (Config, error) {
	c := Default()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	switch err := dec.Decode(&c); {
	case errors.Is(err, io.EOF) || err == nil && holdsNothing(data):
		// No document at all (an empty or comment-only file): refused, so
		// that a truncated or wrong file is never run as the defaults.
		return Config{}, fmt.Errorf("config %s: the file holds no settings (write {} to mean every default)", source)
	case err != nil:
		return Config{}, fmt.Errorf("config %s: %w", source, yamlerr.Fix(err, data))
	}
	c.GP.normaliseLearn()
	if err := checkSurrogateGiven(data); err != nil {
		return Config{}, fmt.Errorf("config %s: %w", source, err)
	}
	c.GP.normaliseSurrogate()
	if err := c.Validate(); err != nil {
		return Config{}, fmt.Errorf("config %s: %w", source, err)
	}
	return c, nil
}

// Marshal renders the config as YAML (the resolved config of a run).
func (c Config) Marshal() ([]byte, error) {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(c); err != nil {
		return nil, err
	}
	return b.Bytes(), enc.Close()
}

// Default is the paper's setting (SPEC §7–8); embedded configs override it.
func Default() Config {
	return Config{
		Name: "default",
		Seed: 1,
		Generator: Generator{
			Clusters: [2]int{2, 26}, Nodes: [2]int{10, 100}, GPUsPerNode: 8,
			JobsPerNode: 10, Priorities: [2]int{1, 3}, LoadMin: 0.25, LoadMax: 1,
			Arrivals: "poisson", MinDuration: 1, DurationScale: 1,
		},
		Data:      Data{Train: 50, Validation: 10, Test: 30},
		Sim:       Sim{Trigger: "arrival", Backfill: "none"},
		Objective: Objective{Kind: "multi", Weights: [3]float64{1, 1, 1}, Omega: 0.5},
		GP: GP{
			Population: 512, Generations: 100, Mutation: 0.1, Crossover: 0.9,
			Tournament: 7, Subset: 3, InitDepth: [2]int{2, 6}, MaxDepth: 7,
			InternalProb: 0.9, TimeUnit: "hours", HallOfFame: 10,
			Terminals: []string{"d", "q", "u", "g"}, Allocator: "mct", Placer: "bestfit",
			SeedFormulas: []string{}, Dedup: "none", DedupSample: 64, ValidateEvery: 10,
			EarlyStop: true, Selection: "scalar", Objectives: []string{},
		},
		Pressure: Pressure{Clusters: 5, Nodes: 40, Intervals: []float64{60, 120, 180, 240, 300, 360}, Jobs: 1000, Seeds: 5},
		EVO:      EVO{Population: 100, Generations: 200, Mutation: 0.1, Init: "seeded", Workers: 1},
	}
}

// Validate checks every range.
func (c Config) Validate() error {
	g := c.Generator
	checks := []struct {
		bad bool
		msg string
	}{
		{g.Clusters[0] < 1 || g.Clusters[1] < g.Clusters[0], fmt.Sprintf("generator.clusters = %v: need 1 ≤ min ≤ max", g.Clusters)},
		{g.Nodes[0] < 1 || g.Nodes[1] < g.Nodes[0], fmt.Sprintf("generator.nodes = %v: need 1 ≤ min ≤ max", g.Nodes)},
		{g.GPUsPerNode < 1, fmt.Sprintf("generator.gpus_per_node = %d: must be ≥ 1", g.GPUsPerNode)},
		{!(g.JobsPerNode > 0) || math.IsInf(g.JobsPerNode, 0), fmt.Sprintf("generator.jobs_per_node = %v: must be > 0", g.JobsPerNode)},
		{g.Priorities[0] < 1 || g.Priorities[1] < g.Priorities[0], fmt.Sprintf("generator.priorities = %v: need 1 ≤ min ≤ max", g.Priorities)},
		{!(g.LoadMin > 0) || g.LoadMax < g.LoadMin || math.IsInf(g.LoadMax, 0), fmt.Sprintf("generator.load_min/load_max = %v/%v: need 0 < min ≤ max", g.LoadMin, g.LoadMax)},
		{g.Arrivals != "poisson" && g.Arrivals != "uniform" && g.Arrivals != "batch", fmt.Sprintf("generator.arrivals = %q: must be poisson, uniform or batch", g.Arrivals)},
		{g.Arrivals == "uniform" && !(g.Interval > 0), fmt.Sprintf("generator.interval = %v: must be > 0 with uniform arrivals", g.Interval)},
		{g.MinDuration < 1, fmt.Sprintf("generator.min_duration = %d: must be ≥ 1", g.MinDuration)},
		{!(g.DurationScale > 0) || math.IsInf(g.DurationScale, 0), fmt.Sprintf("generator.duration_scale = %v: must be > 0", g.DurationScale)},
		{c.Data.Train < 0 || c.Data.Validation < 0 || c.Data.Test < 0, "data: sizes must be ≥ 0"},
		{c.Sim.Trigger != "arrival" && c.Sim.Trigger != "arrival+completion", fmt.Sprintf("sim.trigger = %q: must be arrival or arrival+completion", c.Sim.Trigger)},
		{!slices.Contains([]string{"none", "conservative", "greedy", "strict", "preemptive"}, c.Sim.Backfill), fmt.Sprintf("sim.backfill = %q: must be none, conservative, greedy, strict or preemptive", c.Sim.Backfill)},
		{!slices.Contains([]string{"", "id", "numpy-quicksort"}, c.Sim.ArrivalTies), fmt.Sprintf("sim.arrival_ties = %q: must be id or numpy-quicksort", c.Sim.ArrivalTies)},
		{!slices.Contains(simcore.ObjectiveKindNames(), c.Objective.Kind), fmt.Sprintf("objective.kind = %q: must be %s", c.Objective.Kind, simcore.OneOf(simcore.ObjectiveKindNames()))},
		{!(c.Objective.Omega >= 0 && c.Objective.Omega <= 1), fmt.Sprintf("objective.omega = %v: must be in [0, 1]", c.Objective.Omega)},
		{c.GP.Population < 2, fmt.Sprintf("gp.population = %d: must be ≥ 2", c.GP.Population)},
		{c.GP.Generations < 0, fmt.Sprintf("gp.generations = %d: must be ≥ 0", c.GP.Generations)},
		{!(c.GP.Mutation >= 0 && c.GP.Mutation <= 1), fmt.Sprintf("gp.mutation = %v: must be in [0, 1]", c.GP.Mutation)},
		{!(c.GP.Crossover >= 0 && c.GP.Crossover <= 1), fmt.Sprintf("gp.crossover = %v: must be in [0, 1]", c.GP.Crossover)},
		{c.GP.Tournament < 1, fmt.Sprintf("gp.tournament = %d: must be ≥ 1", c.GP.Tournament)},
		{c.GP.Subset < 1, fmt.Sprintf("gp.subset = %d: must be ≥ 1", c.GP.Subset)},
		{c.GP.MaxDepth < 2, fmt.Sprintf("gp.max_depth = %d: must be ≥ 2", c.GP.MaxDepth)},
		{c.GP.InitDepth[0] < 1 || c.GP.InitDepth[1] < c.GP.InitDepth[0] || c.GP.InitDepth[1] > c.GP.MaxDepth, fmt.Sprintf("gp.init_depth = %v: need 1 ≤ min ≤ max ≤ max_depth (%d)", c.GP.InitDepth, c.GP.MaxDepth)},
		{!(c.GP.InternalProb >= 0 && c.GP.InternalProb <= 1), fmt.Sprintf("gp.internal_prob = %v: must be in [0, 1]", c.GP.InternalProb)},
		{c.GP.TimeUnit != "hours" && c.GP.TimeUnit != "seconds", fmt.Sprintf("gp.time_unit = %q: must be hours or seconds", c.GP.TimeUnit)},
		{c.GP.HallOfFame < 1, fmt.Sprintf("gp.hall_of_fame = %d: must be ≥ 1", c.GP.HallOfFame)},
		{c.GP.Workers < 0, fmt.Sprintf("gp.workers = %d: must be ≥ 0", c.GP.Workers)},
		{len(c.GP.Terminals) == 0, "gp.terminals: must list at least one terminal"},
		{c.GP.Allocator == "" || c.GP.Placer == "", "gp.allocator and gp.placer must be set"},
		{c.GP.Dedup != "none" && c.GP.Dedup != "behaviour", fmt.Sprintf("gp.dedup = %q: must be none or behaviour", c.GP.Dedup)},
		{c.GP.Pick != "" && !slices.Contains(PickCriteria(), c.GP.Pick), fmt.Sprintf("gp.pick = %q: must be %s", c.GP.Pick, strings.Join(PickCriteria(), ", "))},
		{c.GP.Fitness != "" && !slices.Contains(FitnessCriteria(), c.GP.Fitness), fmt.Sprintf("gp.fitness = %q: must be %s", c.GP.Fitness, strings.Join(FitnessCriteria(), ", "))},
		{c.GP.ValidateEvery < 0, fmt.Sprintf("gp.validate_every = %d: must be ≥ 0", c.GP.ValidateEvery)},
		{c.GP.DedupSample < 1, fmt.Sprintf("gp.dedup_sample = %d: must be ≥ 1", c.GP.DedupSample)},
		{c.Pressure.Clusters < 1 || c.Pressure.Nodes < 1 || c.Pressure.Jobs < 1 || c.Pressure.Seeds < 1, "pressure: clusters, nodes, jobs and seeds must be ≥ 1"},
	}
	for _, ch := range checks {
		if ch.bad {
			return errors.New(ch.msg)
		}
	}
	if err := g.Settings().Validate(); err != nil {
		return err
	}
	if err := c.Rule.Validate(); err != nil {
		return err
	}
	if err := c.EVO.Validate(); err != nil {
		return err
	}
	if err := c.GP.validateSelection(); err != nil {
		return err
	}
	if err := c.GP.validateLearn(); err != nil {
		return err
	}
	if err := c.GP.validateSurrogate(); err != nil {
		return err
	}
	for i, w := range c.Objective.Weights {
		if w < 0 || math.IsNaN(w) || math.IsInf(w, 0) {
			return fmt.Errorf("objective.weights[%d] = %v: must be a finite number ≥ 0", i, w)
		}
	}
	if c.Objective.Kind == "multi" && c.Objective.Weights == [3]float64{} {
		return fmt.Errorf("objective.weights = %v: at least one weight must be > 0 (all zero scores every schedule alike)", c.Objective.Weights)
	}
	for _, iv := range c.Pressure.Intervals {
		if !(iv > 0) || math.IsInf(iv, 0) {
			return fmt.Errorf("pressure.intervals: %v must be > 0", iv)
		}
	}
	return nil
}

// Validate checks the EVO section with the rules and messages of
// evo.Params.Validate, plus workers ≥ 0.
func (e EVO) Validate() error {
	if e.Workers < 0 {
		return fmt.Errorf("evo.workers = %d: must be ≥ 0 (0 or 1 = serial)", e.Workers)
	}
	// The allocator's own rules, so the config and the registry can never
	// disagree.
	return evo.Params{Population: e.Population, Generations: e.Generations, Mutation: e.Mutation,
		Stall: e.Stall, Budget: e.Budget, Init: e.Init}.Validate()
}

// Override applies "dotted.key=value" assignments (e.g. gp.population=256,
// objective.weights=1,0,1, seed=7) in order and validates the result.
// Values are parsed against the type of the key in Config, not guessed: an
// integer key takes only an integer (seed=1.5 is an error, never 1), a
// number key one number, a fixed-size list exactly its number of
// comma-separated values ([a,b] brackets optional), a list key one or more.
// Errors name the assignment, the key, the value and the expected type;
// an unknown key suggests the nearest known one.
func (c Config) Override(assignments ...string) (Config, error) {
	for _, a := range assignments {
		key, val, ok := strings.Cut(a, "=")
		if !ok || key == "" {
			if strings.HasPrefix(a, "-") {
				return Config{}, fmt.Errorf("override %q: want key=value (this looks like a flag: give flags before the key=value overrides)", a)
			}
			return Config{}, fmt.Errorf("override %q: want key=value", a)
		}
		if err := c.set(key, val); err != nil {
			return Config{}, fmt.Errorf("override %q: %w", a, err)
		}
		if err := c.GP.checkSurrogateSet(key); err != nil {
			return Config{}, fmt.Errorf("override %q: %w", a, err)
		}
	}
	if len(assignments) == 0 {
		return c, nil
	}
	c.GP.normaliseLearn()
	c.GP.dropSurrogateParams(assignments)
	c.GP.normaliseSurrogate()
	if err := c.Validate(); err != nil {
		return Config{}, fmt.Errorf("overrides %s: %w", strings.Join(assignments, " "), err)
	}
	return c, nil
}

// Keys lists every settable dotted key of Config, in declaration order.
func Keys() []string {
	var out []string
	var walk func(t reflect.Type, prefix string)
	walk = func(t reflect.Type, prefix string) {
		for i := range t.NumField() {
			f := t.Field(i)
			name := yamlName(f)
			if name == "" {
				continue
			}
			if f.Type.Kind() == reflect.Struct {
				walk(f.Type, prefix+name+".")
				continue
			}
			if isSectionList(f.Type) {
				continue // set in YAML only (see set)
			}
			out = append(out, prefix+name)
		}
	}
	walk(reflect.TypeOf(Config{}), "")
	return out
}

func yamlName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
	if name == "-" || !f.IsExported() {
		return ""
	}
	return name
}

// set assigns the textual value val to the dotted key.
func (c *Config) set(key, val string) error {
	v := reflect.ValueOf(c).Elem()
	parts := strings.Split(key, ".")
	for i, part := range parts {
		if v.Kind() != reflect.Struct {
			return fmt.Errorf("key %q is a value, not a section", strings.Join(parts[:i], "."))
		}
		found := false
		for j := range v.NumField() {
			if yamlName(v.Type().Field(j)) == part {
				v, found = v.Field(j), true
				break
			}
		}
		if !found {
			return unknownKey(key)
		}
	}
	if v.Kind() == reflect.Struct {
		var keys []string
		for _, k := range Keys() {
			if strings.HasPrefix(k, key+".") {
				keys = append(keys, k)
			}
		}
		return fmt.Errorf("key %q is a section, not a value (its keys: %s)", key, strings.Join(keys, ", "))
	}
	if isSectionList(v.Type()) {
		return fmt.Errorf("key %q is a list of sections: set it in a YAML config file", key)
	}
	return setValue(v, key, val)
}

// isSectionList reports whether t is a list of sections (such as
// generator.types), which a key=value override cannot express.
func isSectionList(t reflect.Type) bool {
	return t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Struct
}

// setValue parses val as v's type.
func setValue(v reflect.Value, key, val string) error {
	switch v.Kind() {
	case reflect.Array, reflect.Slice:
		list := strings.TrimSpace(val)
		if strings.HasPrefix(list, "[") && strings.HasSuffix(list, "]") {
			list = list[1 : len(list)-1]
		}
		items := strings.Split(list, ",")
		elem := typeName(v.Type().Elem())
		if strings.TrimSpace(list) == "" {
			if v.Kind() == reflect.Slice && (strings.TrimSpace(val) == "[]" || strings.TrimSpace(val) == "") {
				v.Set(reflect.MakeSlice(v.Type(), 0, 0)) // "[]" or nothing: the empty list
				return nil
			}
			return fmt.Errorf("%s wants a comma-separated list of %ss, got %q", key, elem, val)
		}
		if v.Kind() == reflect.Array && len(items) != v.Len() {
			return fmt.Errorf("%s wants exactly %d comma-separated %ss, got %d in %q", key, v.Len(), elem, len(items), val)
		}
		if v.Kind() == reflect.Slice {
			v.Set(reflect.MakeSlice(v.Type(), len(items), len(items)))
		}
		for i, it := range items {
			if err := setScalar(v.Index(i), fmt.Sprintf("%s[%d]", key, i), strings.TrimSpace(it)); err != nil {
				return err
			}
		}
		return nil
	}
	if strings.Contains(val, ",") && v.Kind() != reflect.String {
		return fmt.Errorf("%s wants one %s, got the list %q (a comma-separated list sweeps the key only in a sweep: evogp learn -m)", key, typeName(v.Type()), val)
	}
	return setScalar(v, key, strings.TrimSpace(val))
}

// setScalar parses one value of v's kind.
func setScalar(v reflect.Value, key, s string) error {
	bad := func() error {
		return fmt.Errorf("%s wants %s %s, got %q", key, article(typeName(v.Type())), typeName(v.Type()), s)
	}
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, err := strconv.ParseInt(s, 10, v.Type().Bits())
		if err != nil {
			return bad()
		}
		v.SetInt(n)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		n, err := strconv.ParseUint(s, 10, v.Type().Bits())
		if err != nil {
			return bad()
		}
		v.SetUint(n)
	case reflect.Float32, reflect.Float64:
		f, err := strconv.ParseFloat(s, v.Type().Bits())
		if err != nil {
			return bad()
		}
		v.SetFloat(f)
	case reflect.Bool:
		b, err := strconv.ParseBool(s)
		if err != nil {
			return bad()
		}
		v.SetBool(b)
	case reflect.String:
		v.SetString(s)
	default:
		return fmt.Errorf("%s: cannot be set from the command line", key)
	}
	return nil
}

// typeName names a value type for error messages.
func typeName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "integer"
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "integer ≥ 0"
	case reflect.Float32, reflect.Float64:
		return "number"
	case reflect.Bool:
		return "boolean (true or false)"
	}
	return t.Kind().String()
}

func article(s string) string {
	if strings.HasPrefix(s, "integer") {
		return "an"
	}
	return "a"
}

// unknownKey is the error for a key Config does not have, with the
// nearest known keys as suggestions.
func unknownKey(key string) error {
	best, bestD := "", 1<<30
	last := key[strings.LastIndex(key, ".")+1:]
	for _, k := range Keys() {
		d := editDistance(key, k)
		if kl := k[strings.LastIndex(k, ".")+1:]; kl == last {
			d = min(d, 1) // the right name in another section
		}
		if d < bestD {
			best, bestD = k, d
		}
	}
	if bestD <= max(2, len(key)/3) {
		return fmt.Errorf("unknown key %q; did you mean %q?", key, best)
	}
	return fmt.Errorf("unknown key %q (keys: %s)", key, strings.Join(Keys(), ", "))
}

// editDistance is the Levenshtein distance between a and b in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

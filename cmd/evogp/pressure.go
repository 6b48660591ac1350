package main

import (
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/datasets"
	"github.com/evogp/evogp/internal/progress"
	"github.com/evogp/evogp/reports"
	"github.com/evogp/evogp/simcore"
)

func pressureCommand() *cli.Command {
	return &cli.Command{
		Name:  "pressure",
		Usage: "compare schedulers under load pressure: objective against the inter-arrival interval (paper Fig. 9a)",
		UsageText: "evogp pressure --out DIR [--config load] [--schedulers LIST] [--intervals 60,120,...] [--seeds N] [--jobs N] [options]\n\n" +
			"Examples:\n" +
			"   evogp pressure --config load --out out/pressure\n" +
			"   evogp pressure --config load --schedulers spark,liquid,tiresias,lyra,gp=runs/quick --seeds 3 --out out/pressure",
		Description: "Uses the config's pressure section (paper §IV-D: clusters × nodes of the generator's\n" +
			"GPUs per node, uniform arrivals). For every interval Δ and seed k = 1..seeds one instance\n" +
			"is generated with the Table II generator (one job every Δ seconds for the whole instance,\n" +
			"round(jobs/clusters) jobs per cluster); instance k has the same jobs at every Δ, so the\n" +
			"intervals differ only in load. Every scheduler runs on every instance. The simulator and\n" +
			"objective settings come from the config's sim and objective sections unless the flags\n" +
			"below are given. The output\n" +
			"directory gets pressure.parquet, the pressure figure and " + markerFile + ".\n" +
			"Scheduler entries are as in evogp eval.",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "config", Value: "load", Usage: "embedded config name or YAML file"},
			&cli.StringFlag{Name: "out", Required: true, Usage: "output directory"},
			&cli.StringFlag{Name: "schedulers", Value: "spark,liquid,tiresias,lyra", Usage: "comma-separated scheduler entries (as in eval)"},
			&cli.StringFlag{Name: "intervals", Usage: "override pressure.intervals: comma-separated Δ in seconds"},
			&cli.IntFlag{Name: "seeds", Usage: "override pressure.seeds"},
			&cli.IntFlag{Name: "jobs", Usage: "override pressure.jobs (jobs per instance)"},
			&cli.StringFlag{Name: "format", Value: "png,svg", Usage: "figure formats: png, svg, pdf"},
			&cli.IntFlag{Name: "workers", Usage: "simulations in parallel (0 = all cores)"},
			&cli.BoolFlag{Name: "quiet", Usage: "no progress output"},
		}, simFlags()...),
		Action: runPressure,
	}
}

// pressureManifest is the marker file of a pressure directory.
type pressureManifest struct {
	Command    string     `json:"command"`
	Config     string     `json:"config"`
	Seed       uint64     `json:"seed"`
	Clusters   int        `json:"clusters"`
	Nodes      int        `json:"nodes"`
	Jobs       int        `json:"jobs"`
	Seeds      int        `json:"seeds"`
	Intervals  []float64  `json:"intervals"`
	Schedulers []labelled `json:"schedulers"`
	Objective  string     `json:"objective"`
	Weights    [3]float64 `json:"weights"`
	Omega      float64    `json:"omega"`
}

// pressureInstance is one generated load-pressure instance.
type pressureInstance struct {
	interval float64
	seed     int64
	inst     simcore.Instance
}

// pressureSettings returns the generator settings of the load-pressure
// study at interval Δ: P clusters of N nodes, uniform arrivals (one job
// every Δ seconds for the whole instance), and jobs/(P·N) jobs per node so
// that each cluster gets round(jobs/P) jobs.
func pressureSettings(cfg configs.Config, interval float64) datasets.GenSettings {
	s := cfg.Generator.Settings()
	p := cfg.Pressure
	s.Clusters = [2]int{p.Clusters, p.Clusters}
	s.Nodes = [2]int{p.Nodes, p.Nodes}
	s.Arrivals = datasets.ArrivalsUniform
	s.Interval = interval
	s.JobsPerNode = float64(p.Jobs) / float64(p.Clusters*p.Nodes)
	return s
}

// pressureInstances generates seeds × intervals instances. Seed k (1-based)
// is instance k−1 of the stream SplitSeed(cfg.Seed, "pressure") at every
// interval.
func pressureInstances(cfg configs.Config) ([]pressureInstance, error) {
	p := cfg.Pressure
	switch {
	case p.Clusters < 1 || p.Nodes < 1:
		return nil, fmt.Errorf("pressure: clusters = %d, nodes = %d: need ≥ 1", p.Clusters, p.Nodes)
	case p.Jobs < 1:
		return nil, fmt.Errorf("pressure: jobs = %d: need ≥ 1", p.Jobs)
	case p.Seeds < 1:
		return nil, fmt.Errorf("pressure: seeds = %d: need ≥ 1", p.Seeds)
	case len(p.Intervals) == 0:
		return nil, fmt.Errorf("pressure: no intervals")
	}
	stream := datasets.SplitSeed(cfg.Seed, "pressure")
	var out []pressureInstance
	for _, iv := range p.Intervals {
		if !(iv > 0) || math.IsInf(iv, 0) {
			return nil, fmt.Errorf("pressure: interval %v: need a finite Δ > 0 seconds", iv)
		}
		s := pressureSettings(cfg, iv)
		for k := 1; k <= p.Seeds; k++ {
			inst, err := datasets.GenerateInstance(s, stream, k-1)
			if err != nil {
				return nil, fmt.Errorf("pressure: interval %v seed %d: %w", iv, k, err)
			}
			inst.Name = fmt.Sprintf("interval-%g-seed-%d", iv, k)
			out = append(out, pressureInstance{interval: iv, seed: int64(k), inst: inst})
		}
	}
	return out, nil
}

func parseIntervals(s string) ([]float64, error) {
	var out []float64
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil {
			return nil, fmt.Errorf("--intervals %q: %q is not a number", s, f)
		}
		out = append(out, v)
	}
	return out, nil
}

// pressureSimOptions takes the simulator and objective settings from the
// config, each overridden by its flag when the flag is given.
func pressureSimOptions(c *cli.Context, cfg configs.Config) (simcore.Options, error) {
	o := simOptions{
		Trigger: cfg.Sim.Trigger, Backfill: cfg.Sim.Backfill, Objective: cfg.Objective.Kind, Omega: cfg.Objective.Omega,
		Weights: fmt.Sprintf("%v,%v,%v", cfg.Objective.Weights[0], cfg.Objective.Weights[1], cfg.Objective.Weights[2]),
	}
	for flag, field := range map[string]*string{"trigger": &o.Trigger, "backfill": &o.Backfill, "objective": &o.Objective, "weights": &o.Weights} {
		if c.IsSet(flag) {
			*field = c.String(flag)
		}
	}
	if c.IsSet("omega") {
		o.Omega = c.Float64("omega")
	}
	return o.options()
}

func runPressure(c *cli.Context) error {
	if c.NArg() > 0 {
		return fmt.Errorf("%s: unexpected argument %q (flags only; see evogp %s --help)", c.Command.Name, c.Args().First(), c.Command.Name)
	}
	cfg, err := configs.Load(c.String("config"))
	if err != nil {
		return err
	}
	opts, err := pressureSimOptions(c, cfg)
	if err != nil {
		return err
	}
	seconds := cfg.GP.TimeUnit == "seconds"
	if c.IsSet("time-unit") {
		if seconds, err = secondsUnit(c); err != nil {
			return err
		}
	}
	formats, err := parseFormats(c.String("format"))
	if err != nil {
		return err
	}
	if c.IsSet("intervals") {
		if cfg.Pressure.Intervals, err = parseIntervals(c.String("intervals")); err != nil {
			return err
		}
	}
	if c.IsSet("seeds") {
		cfg.Pressure.Seeds = c.Int("seeds")
	}
	if c.IsSet("jobs") {
		cfg.Pressure.Jobs = c.Int("jobs")
	}
	scheds, err := parseSchedulerList(c.String("schedulers"), seconds, c.IsSet("time-unit"))
	if err != nil {
		return err
	}
	out := c.String("out")
	if err := checkOutDir(out); err != nil {
		return err
	}
	pis, err := pressureInstances(cfg)
	if err != nil {
		return err
	}
	insts := make([]simcore.Instance, len(pis))
	for i, pi := range pis {
		insts[i] = pi.inst
	}
	prog := progress.New("pressure", len(scheds)*len(insts), progress.Options{Out: c.App.ErrWriter, Quiet: c.Bool("quiet")})
	var rows []reports.PressureRow
	for _, s := range scheds {
		prog.Describe(s.Label)
		res, err := simulateAll(c.Context, insts, s.sched, opts, c.Int("workers"), prog)
		if err != nil {
			prog.Finish()
			return fmt.Errorf("scheduler %s: %w", s.Label, err)
		}
		for i, r := range res {
			m := r.Metrics
			rows = append(rows, reports.PressureRow{
				Interval: pis[i].interval, Scheduler: s.Label, Seed: pis[i].seed, Jobs: int64(m.Jobs),
				CQAvg: m.CQAvg, CQMax: m.CQMax, Util: m.Util, Objective: m.Objective, AvgJCT: m.AvgJCT, MaxQT: m.MaxQT,
			})
		}
	}
	prog.Finish()
	files, err := tables{pressure: rows}.render(figureOptions{Formats: formats})
	if err != nil {
		return err
	}
	p := cfg.Pressure
	man := pressureManifest{Command: "pressure", Config: c.String("config"), Seed: cfg.Seed, Clusters: p.Clusters, Nodes: p.Nodes,
		Jobs: p.Jobs, Seeds: p.Seeds, Intervals: p.Intervals, Schedulers: scheds, Objective: "multi", Weights: opts.Objective.Weights, Omega: opts.Objective.Omega}
	if opts.Objective.Kind == simcore.SingleCluster {
		man.Objective = "single"
	}
	err = writeOutDir(out, func(tmp string) error {
		if err := reports.WritePressure(filepath.Join(tmp, "pressure.parquet"), rows); err != nil {
			return err
		}
		if err := files.write(tmp); err != nil {
			return err
		}
		return writeManifest(filepath.Join(tmp, markerFile), man)
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(c.App.Writer, "wrote %s: %d schedulers × %d intervals × %d seeds, %s\n", out, len(scheds), len(p.Intervals), p.Seeds, strings.Join(files.names(), ", "))
	return nil
}

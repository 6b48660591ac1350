package experiment

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"time"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/datasets"
	"github.com/evogp/evogp/internal/progress"
	"github.com/evogp/evogp/reports"
	"github.com/evogp/evogp/runfile"
	"github.com/evogp/evogp/simcore"
)

// PressureInstance is one generated load-pressure instance.
type PressureInstance struct {
	Interval float64 // Δ, seconds between arrivals
	Seed     int64   // k = 1..seeds
	Instance simcore.Instance
}

// genSettings is the Table II generator setting of a config.
func genSettings(cfg configs.Config) datasets.GenSettings {
	return cfg.Generator.Settings()
}

// pressureSettings returns the generator settings of the load-pressure
// study at interval Δ: P clusters of N nodes, uniform arrivals (one job
// every Δ seconds for the whole instance), and jobs/(P·N) jobs per node so
// that each cluster gets round(jobs/P) jobs.
func pressureSettings(cfg configs.Config, interval float64) datasets.GenSettings {
	s := genSettings(cfg)
	p := cfg.Pressure
	s.Clusters = [2]int{p.Clusters, p.Clusters}
	s.Nodes = [2]int{p.Nodes, p.Nodes}
	s.Arrivals = datasets.ArrivalsUniform
	s.Interval = interval
	s.JobsPerNode = float64(p.Jobs) / float64(p.Clusters*p.Nodes)
	return s
}

// PressureInstances generates the config's seeds × intervals instances
// (paper §IV-D). Seed k (1-based) is instance k−1 of the stream
// SplitSeed(cfg.Seed, "pressure") at every interval, so instance k has the
// same jobs at every Δ and the intervals differ only in load.
func PressureInstances(cfg configs.Config) ([]PressureInstance, error) {
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
	stream := datasets.SplitSeed(cfg.DataSeed(), "pressure")
	var out []PressureInstance
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
			out = append(out, PressureInstance{Interval: iv, Seed: int64(k), Instance: inst})
		}
	}
	return out, nil
}

// PressureSettings describe one load-pressure study.
type PressureSettings struct {
	ConfigName string         // recorded in the manifest
	Config     configs.Config // its pressure, generator and seed drive the instances
	Sim        SimSettings
	Policies   []Policy
	Formats    []string
	Workers    int
	Out        string
	Force      bool // replace an earlier evogp output directory at Out
	Progress   progress.Options
	Provenance Provenance
}

// PressureManifest is the MarkerFile of a pressure directory
// (runfile.PressureManifest).
type PressureManifest = runfile.PressureManifest

// Pressure runs every policy on every pressure instance and writes Out:
// pressure.parquet, the pressure figure and MarkerFile, atomically.
func Pressure(ctx context.Context, s PressureSettings) ([]string, error) {
	if s.Workers < 0 {
		return nil, fmt.Errorf("workers = %d: must be ≥ 0 (0 = all cores)", s.Workers)
	}
	opts, err := s.Sim.Options()
	if err != nil {
		return nil, err
	}
	if err := CheckOutDir(s.Out, s.Force); err != nil {
		return nil, err
	}
	pis, err := PressureInstances(s.Config)
	if err != nil {
		return nil, err
	}
	insts := make([]simcore.Instance, len(pis))
	for i, pi := range pis {
		insts[i] = pi.Instance
	}
	prog := progress.New("pressure", len(s.Policies)*len(insts), s.Progress)
	var rows []reports.PressureRow
	for _, p := range s.Policies {
		prog.Describe(p.Label)
		res, err := SimulateAll(ctx, insts, p, opts, s.Workers, prog)
		if err != nil {
			prog.Finish()
			return nil, fmt.Errorf("scheduler %s: %w", p.Label, err)
		}
		for i, r := range res {
			m := r.Metrics
			rows = append(rows, reports.PressureRow{
				Interval: pis[i].Interval, Scheduler: p.Label, Seed: pis[i].Seed, Jobs: int64(m.Jobs),
				CQAvg: m.CQAvg, CQMax: m.CQMax, Util: m.Util, Objective: m.Objective, AvgJCT: m.AvgJCT, MaxQT: m.MaxQT,
			})
		}
	}
	prog.Finish()
	files, err := Tables{Pressure: rows}.Render(FigureOptions{Formats: s.Formats})
	if err != nil {
		return nil, err
	}
	p := s.Config.Pressure
	man := PressureManifest{Command: runfile.CommandPressure, Config: s.ConfigName, Seed: s.Config.Seed, Clusters: p.Clusters, Nodes: p.Nodes,
		Jobs: p.Jobs, Seeds: p.Seeds, Intervals: p.Intervals, Schedulers: schedulerRecords(s.Policies),
		Objective: configs.ObjectiveRecord(opts.Objective)}
	prov, err := s.Provenance.WithConfig(s.Config)
	if err != nil {
		return nil, err
	}
	prov = prov.Finished(time.Now())
	err = writeOutDir(s.Out, s.Force, func(tmp string) error {
		if err := reports.WritePressure(filepath.Join(tmp, "pressure.parquet"), rows); err != nil {
			return err
		}
		if err := files.Write(tmp); err != nil {
			return err
		}
		if err := runfile.WritePressureManifest(tmp, &man); err != nil {
			return err
		}
		if err := writeJSON(filepath.Join(tmp, ProvenanceFile), []Provenance{prov}); err != nil {
			return err
		}
		return writeReportWith(tmp, s.Out, Tables{Pressure: rows}, files, FigureOptions{Formats: s.Formats}, nil)
	})
	if err != nil {
		return nil, err
	}
	return append(files.Names(), ReportFile), nil
}

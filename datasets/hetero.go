package datasets

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/evogp/evogp/simcore"
)

// GenType is one GPU type of a heterogeneous generated instance (SPEC §12,
// generator.types): a cluster of Nodes nodes (of GPUsPerNode GPUs each)
// whose GPUs are of type Name, with the speed of the throughput matrix's
// column Column.
type GenType struct {
	Name   string `yaml:"name"`   // the cluster's gpu_type, e.g. "V100"
	Column string `yaml:"column"` // the throughput matrix column, e.g. "v100"
	Nodes  int    `yaml:"nodes"`  // nodes of the type's cluster (≥ 1)
}

// GenDeadlines gives a fraction of the jobs a deadline (SPEC §12,
// generator.deadlines): with probability Fraction, job j gets the deadline
// a_j + ⌊U[Slack[0], Slack[1]] × d_j^fastest⌋ (at least a_j + 1).
type GenDeadlines struct {
	Fraction float64    `yaml:"fraction"` // in [0, 1]; 0 = no deadlines
	Slack    [2]float64 `yaml:"slack"`    // 0 < lo ≤ hi
}

func (d GenDeadlines) validate() error {
	if !(d.Fraction >= 0 && d.Fraction <= 1) {
		return fmt.Errorf("generator.deadlines.fraction = %v: must be in [0, 1]", d.Fraction)
	}
	if d.Fraction > 0 && (!finitePositive(d.Slack[0]) || !(d.Slack[1] >= d.Slack[0]) || math.IsInf(d.Slack[1], 0)) {
		return fmt.Errorf("generator.deadlines.slack = %v: need 0 < lo ≤ hi", d.Slack)
	}
	return nil
}

func validateTypes(types []GenType, throughputs string) error {
	if len(types) == 0 {
		return nil
	}
	if strings.TrimSpace(throughputs) == "" {
		return errors.New("generator.types needs generator.throughputs (the throughput matrix CSV, e.g. ../shared/traces/gavel/simulation_throughputs_isolated.csv)")
	}
	seen := map[string]bool{}
	for i, t := range types {
		if err := checkName("gpu_type", t.Name, true); err != nil {
			return fmt.Errorf("generator.types[%d].name: %w", i, err)
		}
		if seen[t.Name] {
			return fmt.Errorf("generator.types[%d]: type %q appears twice", i, t.Name)
		}
		seen[t.Name] = true
		if t.Column == "" {
			return fmt.Errorf("generator.types[%d] (%s): empty column", i, t.Name)
		}
		if t.Nodes < 1 || int64(t.Nodes) > maxCount {
			return fmt.Errorf("generator.types[%d] (%s): nodes = %d, must be in 1..%d", i, t.Name, t.Nodes, maxCount)
		}
	}
	return nil
}

// Throughputs is a throughput matrix: per job kind (a row), the isolated
// training throughput (steps/s) on each GPU model (a column). Gavel's
// simulation_throughputs_isolated.csv (Narayanan et al., OSDI'20), with
// columns job_type,scale_factor,k80,p100,v100, is one.
type Throughputs struct {
	Columns []string    // GPU model columns, in file order
	Kinds   []string    // job kinds (rows with scale_factor 1), in file order
	Rate    [][]float64 // Rate[kind][column] > 0
}

// ReadThroughputs reads a throughput matrix CSV: a header
// job_type,scale_factor,<model>,…, then one row per (job type, scale
// factor). Only single-GPU rows (scale_factor 1) are kept, since a job's
// speed ratio across types is taken per GPU. Every rate must be a finite
// number > 0.
func ReadThroughputs(path string) (*Throughputs, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("throughput matrix: %w", err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	header, err := r.Read()
	if err != nil {
		return nil, &FileError{File: path, Err: fmt.Errorf("no header: %w", err)}
	}
	if len(header) < 3 || strings.TrimPrefix(header[0], "\ufeff") != "job_type" || header[1] != "scale_factor" {
		return nil, &FileError{File: path, Line: 1, Err: fmt.Errorf("header %q: want job_type,scale_factor,<gpu models…>", strings.Join(header, ","))}
	}
	m := &Throughputs{Columns: slices.Clone(header[2:])}
	for row := 1; ; row++ {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, &FileError{File: path, Row: row, Err: err}
		}
		scale, err := strconv.ParseFloat(rec[1], 64)
		if err != nil {
			return nil, &FileError{File: path, Row: row, Err: fmt.Errorf("scale_factor %q is not a number", rec[1])}
		}
		if scale != 1 {
			continue
		}
		rates := make([]float64, len(m.Columns))
		for c := range rates {
			v, err := strconv.ParseFloat(strings.TrimSpace(rec[c+2]), 64)
			if err != nil || !finitePositive(v) {
				return nil, &FileError{File: path, Row: row, Err: fmt.Errorf("%s: column %s: %q is not a throughput > 0", rec[0], m.Columns[c], rec[c+2])}
			}
			rates[c] = v
		}
		m.Kinds = append(m.Kinds, rec[0])
		m.Rate = append(m.Rate, rates)
	}
	if len(m.Kinds) == 0 {
		return nil, &FileError{File: path, Err: errors.New("no single-GPU (scale_factor 1) rows")}
	}
	return m, nil
}

// columnsOf maps each generator type to its matrix column index.
func (m *Throughputs) columnsOf(types []GenType) ([]int, error) {
	idx := make([]int, len(types))
	for i, t := range types {
		idx[i] = slices.Index(m.Columns, t.Column)
		if idx[i] < 0 {
			return nil, fmt.Errorf("generator.types[%d] (%s): column %q is not in the throughput matrix (it has %s)", i, t.Name, t.Column, strings.Join(m.Columns, ", "))
		}
	}
	return idx, nil
}

// heteroRand is the random stream of the heterogeneity extras (job kinds
// and deadlines) of instance index: separate from the instance's main
// stream, so that turning the extras on or off changes no other draw.
func heteroRand(seed uint64, index int) *rand.Rand {
	return instanceRand(seed^0x68657465726f2121, index) // "hetero!!"
}

// addExtras draws, for each job in id order, its throughput-matrix kind
// (uniform over the matrix's single-GPU rows; only when types are set) and
// then its deadline (only when deadlines are on). A job's drawn duration d
// is its duration on its fastest configured type: on type T it is
// ⌈d · max_T' rate_T' / rate_T⌉ (duration = steps / throughput, with the
// steps fixed by the fastest type). Job.Duration stays d.
func addExtras(inst *simcore.Instance, s GenSettings, m *Throughputs, cols []int, seed uint64, index int) {
	if len(s.Types) == 0 && s.Deadlines.Fraction == 0 {
		return
	}
	r := heteroRand(seed, index)
	for i := range inst.Jobs {
		j := &inst.Jobs[i]
		if len(s.Types) > 0 {
			rates := m.Rate[r.IntN(len(m.Kinds))]
			best := 0.0
			for _, c := range cols {
				best = max(best, rates[c])
			}
			j.TypeDurations = make(map[string]int64, len(s.Types))
			for k, t := range s.Types {
				d := math.Ceil(float64(j.Duration) * best / rates[cols[k]])
				j.TypeDurations[t.Name] = max(1, min(floorTime(d), maxTime))
			}
		}
		if s.Deadlines.Fraction > 0 && r.Float64() < s.Deadlines.Fraction {
			slack := s.Deadlines.Slack[0] + (s.Deadlines.Slack[1]-s.Deadlines.Slack[0])*r.Float64()
			j.Deadline = min(maxTime, j.Arrival+max(1, floorTime(slack*float64(j.Duration))))
		}
	}
}

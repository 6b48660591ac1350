package configs

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
)

// Memory bounds of the size-like keys. A learning run (or a generated
// dataset) is refused before anything is allocated when the estimate of the
// memory it needs exceeds the memory available. The per-unit figures were
// measured on the smoke config (heap in use at the peak of a run, Go 1.24,
// amd64) and rounded down, so the estimates err on the low side: a refused
// config cannot fit, an accepted one may still not.
const (
	// BytesPerMember is a population member during a generation: its tree,
	// its scoring state and its share of the generation's work (measured
	// about 13 KiB with gp.max_depth 7).
	BytesPerMember = 8 << 10
	// BytesPerTerm is one cached fitness term (candidate × training
	// instance): the map entry and the checkpoint log entry.
	BytesPerTerm = 64
	// BytesPerJob is one job of an instance held in memory (measured
	// about 190 bytes).
	BytesPerJob = 128
	// BytesPerGene is one job's allocation in one EVO individual.
	BytesPerGene = 16
	// DefaultAvailableMemory is assumed when the system says nothing
	// (no /proc/meminfo and no cgroup limit).
	DefaultAvailableMemory = 16 << 30
)

// MemoryPart is the estimated memory that the keys Keys drive.
type MemoryPart struct {
	Keys  string  // e.g. "gp.population"
	Bytes float64 // float64: products of huge keys must not overflow
	How   string  // how it was estimated
}

// JobsPerInstance estimates the jobs of one generated instance: generator.jobs
// if set, else jobs_per_node × the mean node count of each cluster.
func (g Generator) JobsPerInstance() float64 {
	if g.Jobs > 0 {
		return float64(g.Jobs)
	}
	if len(g.Types) > 0 {
		n := 0.0
		for _, t := range g.Types {
			n += math.Max(1, math.Round(g.JobsPerNode*float64(t.Nodes)))
		}
		return n
	}
	clusters := float64(g.Clusters[0]+g.Clusters[1]) / 2
	nodes := float64(g.Nodes[0]+g.Nodes[1]) / 2
	return clusters * math.Max(1, math.Round(g.JobsPerNode*nodes))
}

// LearnMemory estimates the peak memory of a learning run with this
// config, part by part.
func (c Config) LearnMemory() []MemoryPart {
	p, a, gens := float64(c.GP.Population), float64(c.GP.Subset), float64(c.GP.Generations)
	jobs := c.Generator.JobsPerInstance()
	var instances float64
	var which []string
	for _, s := range []struct {
		key string
		n   int
		dir string
	}{{"data.train", c.Data.Train, c.Data.TrainDir}, {"data.validation", c.Data.Validation, c.Data.ValDir}, {"data.test", c.Data.Test, c.Data.TestDir}} {
		if s.dir == "" {
			instances += float64(s.n)
			which = append(which, s.key)
		}
	}
	return []MemoryPart{
		{"gp.population", 2 * p * BytesPerMember, fmt.Sprintf("2 × %d members (parents and offspring) × %s", c.GP.Population, FormatBytes(BytesPerMember))},
		{"gp.generations × gp.population × gp.subset", 2 * p * a * (gens + 1) * BytesPerTerm,
			fmt.Sprintf("up to 2 × %d × %d cached fitness terms in each of %d generations × %d bytes", c.GP.Population, c.GP.Subset, c.GP.Generations+1, BytesPerTerm)},
		{strings.Join(which, " + "), instances * jobs * BytesPerJob, fmt.Sprintf("%.0f generated instances × about %.0f jobs × %d bytes", instances, jobs, BytesPerJob)},
		{"evo.population", 2 * float64(c.EVO.Population) * jobs * BytesPerGene, fmt.Sprintf("2 × %d EVO individuals × about %.0f jobs × %d bytes", c.EVO.Population, jobs, BytesPerGene)},
	}
}

// CheckLearnMemory refuses a config whose learning run needs more than
// available bytes (source names where that figure comes from), naming the
// key that needs the most.
func (c Config) CheckLearnMemory(available float64, source string) error {
	return checkParts(c.LearnMemory(), available, source, "a learning run")
}

// CheckMemory is CheckLearnMemory against AvailableMemory.
func (c Config) CheckMemory() error {
	avail, source := AvailableMemory()
	return c.CheckLearnMemory(avail, source)
}

// CheckInstances refuses generating n instances with these settings at
// once when they need more than the available memory (AvailableMemory).
// key names the setting that gave n in the error (for `evogp data gen`,
// "--instances"; for a learning run, "data.train + data.validation").
func (g Generator) CheckInstances(n int, key string) error {
	avail, source := AvailableMemory()
	return g.CheckInstancesIn(n, key, avail, source)
}

// CheckInstancesIn is CheckInstances against available bytes.
func (g Generator) CheckInstancesIn(n int, key string, available float64, source string) error {
	jobs := g.JobsPerInstance()
	part := MemoryPart{fmt.Sprintf("%s = %d", key, n), float64(n) * jobs * BytesPerJob, fmt.Sprintf("%d instances × about %.0f jobs × %d bytes", n, jobs, BytesPerJob)}
	return checkParts([]MemoryPart{part}, available, source, "generating the instances")
}

func checkParts(parts []MemoryPart, available float64, source, what string) error {
	total := 0.0
	big := parts[0]
	for _, p := range parts {
		total += p.Bytes
		if p.Bytes > big.Bytes {
			big = p
		}
	}
	if total <= available {
		return nil
	}
	return fmt.Errorf("%s would need about %s of memory, more than the %s available (%s); %s alone needs %s (%s): lower it",
		what, FormatBytes(total), FormatBytes(available), source, big.Keys, FormatBytes(big.Bytes), big.How)
}

// FormatBytes renders a byte count with a binary unit (12.3 GiB).
func FormatBytes(b float64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	i := 0
	for b >= 1024 && i < len(units)-1 {
		b /= 1024
		i++
	}
	if i == 0 {
		return fmt.Sprintf("%.0f B", b)
	}
	if b >= 1e4 {
		return fmt.Sprintf("%.3g %s", b, units[i])
	}
	return fmt.Sprintf("%.1f %s", b, units[i])
}

// AvailableMemory is the memory this process may still use, in bytes, and
// where the figure comes from: the smaller of MemAvailable in /proc/meminfo
// and the room left under a cgroup v2 memory limit, or
// DefaultAvailableMemory when neither can be read.
func AvailableMemory() (float64, string) {
	avail, source := 0.0, ""
	if v, ok := memAvailable(); ok {
		avail, source = v, "MemAvailable in /proc/meminfo"
	}
	if v, ok := cgroupRoom(); ok && (source == "" || v < avail) {
		avail, source = v, "the cgroup limit in /sys/fs/cgroup/memory.max"
	}
	if source == "" {
		return DefaultAvailableMemory, "assumed: the system does not say"
	}
	return avail, source
}

func memAvailable() (float64, bool) {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0, false
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 2 && f[0] == "MemAvailable:" {
			kb, err := strconv.ParseFloat(f[1], 64)
			return kb * 1024, err == nil
		}
	}
	return 0, false
}

func cgroupRoom() (float64, bool) {
	limit, err := os.ReadFile("/sys/fs/cgroup/memory.max")
	if err != nil {
		return 0, false
	}
	lim, err := strconv.ParseFloat(strings.TrimSpace(string(limit)), 64)
	if err != nil { // "max": no limit
		return 0, false
	}
	used := 0.0
	if b, err := os.ReadFile("/sys/fs/cgroup/memory.current"); err == nil {
		used, _ = strconv.ParseFloat(strings.TrimSpace(string(b)), 64)
	}
	return math.Max(0, lim-used), true
}

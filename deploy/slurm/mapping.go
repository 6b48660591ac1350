package slurm

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Mapping says how a Slurm job becomes a simulator job (SPEC §20). Each
// choice is a flag of `evogp deploy slurm` and is documented in
// MappingHelp and docs/DEPLOY.md.
type Mapping struct {
	// GPUs is where g and each node's GPUs come from: "gres" (the gpu
	// GRES: tres-per-job, else tres-per-node × nodes; sinfo's Gres for
	// nodes) or "cpus" (CPUs stand in for GPUs: the job's CPU count and
	// each node's CPUs), for clusters without GPUs such as CI's.
	GPUs string
	// Workers is where r comes from: "nodes" or "tasks".
	Workers string
	// Duration is where d comes from: "limit" (the time limit) or
	// "comment" (an estimate in the job's comment: seconds, or a Slurm
	// time such as 1:30:00; a job without one falls back to its limit).
	Duration string
	// QOSPriority maps a QOS name to u (≥ 1); any other QOS is u = 1.
	QOSPriority map[string]int
}

// DefaultMapping is the mapping with every flag at its default.
func DefaultMapping() Mapping {
	return Mapping{GPUs: "gres", Workers: "nodes", Duration: "limit"}
}

// Validate checks the choices.
func (m Mapping) Validate() error {
	if m.GPUs != "gres" && m.GPUs != "cpus" {
		return fmt.Errorf("--gpus-from %q: want gres or cpus", m.GPUs)
	}
	if m.Workers != "nodes" && m.Workers != "tasks" {
		return fmt.Errorf("--workers-from %q: want nodes or tasks", m.Workers)
	}
	if m.Duration != "limit" && m.Duration != "comment" {
		return fmt.Errorf("--duration-from %q: want limit or comment", m.Duration)
	}
	for q, u := range m.QOSPriority {
		if u < 1 {
			return fmt.Errorf("--qos-priority %s=%d: u must be ≥ 1", q, u)
		}
	}
	return nil
}

// ParseQOSPriority reads "normal=1,high=3" into a map.
func ParseQOSPriority(s string) (map[string]int, error) {
	out := map[string]int{}
	if strings.TrimSpace(s) == "" {
		return out, nil
	}
	for _, item := range strings.Split(s, ",") {
		name, val, ok := strings.Cut(strings.TrimSpace(item), "=")
		u, err := strconv.Atoi(val)
		if !ok || name == "" || err != nil || u < 1 {
			return nil, fmt.Errorf("--qos-priority %q: want QOS=U,... with U an integer ≥ 1", item)
		}
		out[name] = u
	}
	return out, nil
}

// MappingHelp documents every mapping, for --help.
func MappingHelp() string {
	return strings.Join([]string{
		"How Slurm becomes the simulator's state (SPEC §20; docs/DEPLOY.md):",
		"  cluster  each partition of --partitions; N = its nodes that can take jobs (not down, drained, failed),",
		"           G = GPUs per node from sinfo's GRES (gpu:K), or its CPUs with --gpus-from cpus; all nodes must agree",
		"  running  a running job is a fixed (Jn) job on its partition that ends at start + time limit",
		"  pending  a pending job is queued on its partition since its eligible time (q and a count from it)",
		"  d        the time limit (--duration-from limit), or the estimate in the job's comment (--duration-from comment:",
		"           seconds, or a Slurm time such as 1:30:00; without one, the limit)",
		"  g        GPUs requested: the gpu GRES of tres-per-job, else tres-per-node × nodes; CPUs with --gpus-from cpus",
		"  r        nodes requested (--workers-from nodes), or tasks (--workers-from tasks); g must be a multiple of r",
		"  u        --qos-priority QOS=U,...; any other QOS is 1",
		"  q, a     now − eligible time (for most jobs the submit time; a job with none is not eligible yet), in the run's time unit",
		"  N C f W n x h o m e  computed by the simulator from that state, as in simulate",
		"A run whose trees use a terminal Slurm cannot supply (s: no deadlines; v: no per-GPU-type durations) is refused, naming it.",
		"Skipped with a note (never changed): held jobs, jobs not yet eligible, jobs without a time limit (d from",
		"the limit), jobs requesting no GPU, jobs whose shape fits no managed partition, jobs listing several partitions.",
	}, "\n")
}

// qosU is u of a QOS.
func (m Mapping) qosU(qos string) int {
	if u, ok := m.QOSPriority[qos]; ok {
		return u
	}
	return 1
}

// duration is d of a pending job in seconds and where it came from; ok
// is false when none can be computed.
func (m Mapping) duration(j QueueJob) (secs int64, from string, ok bool) {
	if m.Duration == "comment" && j.Comment != "" {
		c := strings.TrimSpace(j.Comment)
		if n, err := strconv.ParseInt(c, 10, 64); err == nil && n >= 1 {
			return n, "comment", true
		}
		if strings.Contains(c, ":") {
			if d, err := ParseLimit(c); err == nil && d > 0 {
				return int64(d / time.Second), "comment", true
			}
		}
	}
	if j.Limit > 0 {
		return int64(j.Limit / time.Second), "limit", true
	}
	return 0, "", false
}

// shape is (g, r) of a job under the mapping.
func (m Mapping) shape(j QueueJob) (g, r int, err error) {
	switch m.GPUs {
	case "cpus":
		g = j.CPUs
	default:
		if g, err = GresGPUs(j.TresPerJob); err != nil {
			return 0, 0, err
		}
		if g == 0 {
			per, err := GresGPUs(j.TresPerNode)
			if err != nil {
				return 0, 0, err
			}
			g = per * j.Nodes
		}
	}
	r = j.Nodes
	if m.Workers == "tasks" {
		r = j.Tasks
	}
	return g, r, nil
}

// Terminals the mapping supplies, by tree (SPEC §8, §16): the job's from
// Slurm, the cluster's from the simulator's state.
var (
	rankingTerminals = []string{"d", "q", "u", "g", "a", "r", "w", "f", "n", "e"}
	routingTerminals = []string{"d", "q", "u", "g", "r", "w", "a", "N", "C", "f", "W", "n", "x", "h", "o", "m"}
)

// checkTerminals refuses a tree using a terminal Slurm cannot supply.
func checkTerminals(tree string, used []string, supplied []string) error {
	var missing []string
	for _, t := range used {
		if !slices.Contains(supplied, t) {
			missing = append(missing, t)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	sort.Strings(missing)
	why := map[string]string{"s": "slack needs a deadline, which Slurm jobs do not carry here",
		"v": "speed needs per-GPU-type durations, which Slurm does not report"}
	var parts []string
	for _, t := range missing {
		if w, ok := why[t]; ok {
			parts = append(parts, fmt.Sprintf("%s (%s)", t, w))
		} else {
			parts = append(parts, t)
		}
	}
	return fmt.Errorf("the %s tree uses terminal %s, which cannot be computed from Slurm; terminals deploy supplies: %s",
		tree, strings.Join(parts, ", "), strings.Join(supplied, " "))
}

package slurm

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/evogp/evogp/simcore"
)

// Model is the simulator's state built from a snapshot: an instance
// whose operation at Now' = Now − Origin is the deploy decision.
//
// Running jobs of the managed partitions arrive (Release 0) at their
// start (at the latest one second before now), on their partition, and
// last until start + time limit, so that at Now' they are Jn jobs with
// that remaining time. Pending jobs arrive at their eligible time and
// join at Now' (simcore.Job.Release), so that they are queued with
// q = a = now − eligible, and each is an arrival of that operation.
type Model struct {
	Now        int64 // Unix seconds
	Origin     int64 // the Unix time of instance time 0
	Partitions []string
	Instance   simcore.Instance
	// Jobs[i] is the Slurm job of Instance.Jobs[i].
	Jobs []QueueJob
	// Pending are the instance indices of the managed pending jobs, Running
	// of the running jobs, both in instance order.
	Pending, Running []int
	// Queue is every job squeue listed, in its order; Notes say which jobs
	// are left alone and why.
	Queue []QueueJob
	Notes []string
}

// Build reads the snapshot into a model of the managed partitions
// (snapshot.Meta.Partitions). user gives a pending job's user partition
// (s_j) when a restore record knows the one it was submitted to; nil
// means its current partition.
func Build(s Snapshot, m Mapping, user map[int64]string) (*Model, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	zone := s.Meta.Zone()
	queue, err := ParseSqueue(s.Squeue, zone)
	if err != nil {
		return nil, err
	}
	nodes, err := ParseSinfo(s.Sinfo)
	if err != nil {
		return nil, err
	}
	md := &Model{Now: s.Meta.Now, Partitions: s.Meta.Partitions, Queue: queue}
	index := map[string]int{}
	for p, name := range md.Partitions {
		c, notes, err := partitionCluster(name, nodes, m)
		if err != nil {
			return nil, err
		}
		md.Notes = append(md.Notes, notes...)
		index[name] = p
		md.Instance.Clusters = append(md.Instance.Clusters, c)
	}
	md.Instance.Name = "slurm@" + time.Unix(md.Now, 0).UTC().Format(time.RFC3339)
	note := func(j QueueJob, why string, a ...any) {
		md.Notes = append(md.Notes, fmt.Sprintf("job %d (%s, %s): %s", j.ID, j.Partition, strings.ToLower(j.State), fmt.Sprintf(why, a...)))
	}
	type entry struct {
		job     simcore.Job
		qj      QueueJob
		arrival int64 // Unix
		pending bool
	}
	var entries []entry
	now := md.Now
	for _, j := range queue {
		p, managed := index[j.Partition]
		if !managed {
			if j.State == "PENDING" {
				note(j, "lists partitions other than (or besides) the managed ones: left alone")
			}
			continue
		}
		g, r, err := m.shape(j)
		if err != nil {
			return nil, &ParseError{Command: "squeue", Line: j.Line, Field: "tres-per-job/tres-per-node", Value: j.TresPerJob + " " + j.TresPerNode, Why: err.Error()}
		}
		if j.State == "RUNNING" {
			if g == 0 {
				continue // holds no GPU of the model
			}
			if g < r || g%r != 0 {
				note(j, "running with g = %d, r = %d (g must be a multiple of r): its GPUs are not modelled", g, r)
				continue
			}
			end := j.Start.Unix() + int64(j.Limit/time.Second)
			if j.Limit == 0 {
				end = now + 365*86400
				note(j, "running without a time limit: taken to hold its GPUs for a year")
			}
			arr := min(j.Start.Unix(), now-1)
			end = max(end, now+1)
			entries = append(entries, entry{job: simcore.Job{ID: j.ID, Cluster: p, Duration: end - arr, Workers: r, GPUs: g, Priority: m.qosU(j.QOS)}, qj: j, arrival: arr})
			continue
		}
		switch {
		case j.Priority == 0 || strings.HasPrefix(j.Reason, "JobHeld"):
			note(j, "held (%s): left alone, since a new priority would release it", j.Reason)
			continue
		case j.Eligible.IsZero():
			note(j, "not eligible yet (%s): left alone", j.Reason)
			continue
		case j.Eligible.Unix() > now:
			note(j, "eligible only at %s: left alone", j.Eligible.Format(time.RFC3339))
			continue
		case g == 0:
			note(j, "requests no GPU (tres-per-job %q, tres-per-node %q): left alone", j.TresPerJob, j.TresPerNode)
			continue
		case g < r || g%r != 0:
			note(j, "g = %d is not a multiple of r = %d: left alone", g, r)
			continue
		}
		d, _, ok := m.duration(j)
		if !ok {
			note(j, "no time limit, so d cannot be computed: left alone")
			continue
		}
		job := simcore.Job{ID: j.ID, Cluster: p, Duration: d, Workers: r, GPUs: g, Priority: m.qosU(j.QOS)}
		if u, ok := user[j.ID]; ok {
			if up, managed := index[u]; managed {
				job.Cluster = up
			}
		}
		feasible := false
		for _, c := range md.Instance.Clusters {
			w := g / r
			if w <= c.GPUsPerNode && (c.GPUsPerNode/w)*c.Nodes >= r {
				feasible = true
			}
		}
		if !feasible {
			note(j, "g = %d on r = %d fits no managed partition: left alone", g, r)
			continue
		}
		entries = append(entries, entry{job: job, qj: j, arrival: j.Eligible.Unix(), pending: true})
	}
	md.Origin = now - 1
	for _, e := range entries {
		md.Origin = min(md.Origin, e.arrival)
	}
	for _, e := range entries {
		e.job.Arrival = e.arrival - md.Origin
		if e.pending {
			e.job.Release = now - md.Origin
			md.Pending = append(md.Pending, len(md.Jobs))
		} else {
			md.Running = append(md.Running, len(md.Jobs))
		}
		md.Instance.Jobs = append(md.Instance.Jobs, e.job)
		md.Jobs = append(md.Jobs, e.qj)
	}
	if len(md.Instance.Jobs) > 0 {
		if err := md.Instance.Validate(); err != nil {
			return nil, fmt.Errorf("the state read from Slurm: %w", err)
		}
	}
	return md, nil
}

// usableNode reports whether a node in sinfo's state can take jobs.
func usableNode(state string) bool {
	s := strings.ToLower(strings.TrimRight(state, "*~#!%$@^-+"))
	for _, bad := range []string{"down", "drain", "fail", "maint", "unk", "power", "reboot", "inval", "future", "not_responding"} {
		if strings.Contains(s, bad) {
			return false
		}
	}
	return true
}

// partitionCluster is the cluster of a partition: its usable nodes and
// their GPUs per node, which must agree.
func partitionCluster(name string, nodes []Node, m Mapping) (simcore.Cluster, []string, error) {
	var notes []string
	var listed, usable []Node
	for _, n := range nodes {
		if n.Partition == name {
			listed = append(listed, n)
			if usableNode(n.State) {
				usable = append(usable, n)
			} else {
				notes = append(notes, fmt.Sprintf("partition %s: node %s is %s: not counted", name, n.Name, n.State))
			}
		}
	}
	if len(listed) == 0 {
		return simcore.Cluster{}, nil, fmt.Errorf("partition %s: sinfo lists no node of it (no such partition?)", name)
	}
	if len(usable) == 0 {
		return simcore.Cluster{}, nil, fmt.Errorf("partition %s: none of its %d nodes can take jobs (%s is %s)", name, len(listed), listed[0].Name, listed[0].State)
	}
	per := -1
	for _, n := range usable {
		g := n.CPUs
		if m.GPUs == "gres" {
			g, _ = GresGPUs(n.Gres) // checked by ParseSinfo
			if g == 0 {
				return simcore.Cluster{}, nil, fmt.Errorf("partition %s: node %s has no gpu GRES (sinfo Gres %q, line %d); on a cluster without GPUs use --gpus-from cpus", name, n.Name, n.Gres, n.Line)
			}
		}
		if per >= 0 && g != per {
			return simcore.Cluster{}, nil, fmt.Errorf("partition %s: nodes have %d and %d %s (node %s, sinfo line %d); the simulator's cluster has equal nodes: deploy on partitions of one node type",
				name, per, g, unitName(m), n.Name, n.Line)
		}
		per = g
	}
	names := make([]string, 0, len(usable))
	for _, n := range usable {
		if !slices.Contains(names, n.Name) {
			names = append(names, n.Name)
		}
	}
	c := simcore.Cluster{Nodes: len(names), GPUsPerNode: per}
	if err := simcore.CheckClusterSize(c.Nodes, c.GPUsPerNode); err != nil {
		return c, nil, fmt.Errorf("partition %s: %w", name, err)
	}
	return c, notes, nil
}

func unitName(m Mapping) string {
	if m.GPUs == "cpus" {
		return "CPUs"
	}
	return "GPUs"
}

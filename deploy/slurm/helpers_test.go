package slurm

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/evogp/evogp/experiment"
	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/simcore"
	"github.com/evogp/evogp/simcore/rule"
)

// testNow is the time of the hand snapshots: 2026-01-01T12:00:00 UTC.
var testNow = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

// fakeJob is a job of a fake queue, written as squeue prints it.
type fakeJob struct {
	id        int64
	partition string
	state     string // PENDING or RUNNING
	submitAgo time.Duration
	startAgo  time.Duration // running jobs
	limit     string        // e.g. 1:00:00
	nodes     int
	cpus      int
	tasks     int
	perNode   string // tres-per-node, e.g. gres/gpu:2
	perJob    string
	priority  int64
	qos       string
	reason    string
	comment   string
	ineligble bool
}

func slurmTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05") }

// line is the job's squeue line (SqueueArgs).
func (j fakeJob) line(now time.Time) string {
	or := func(s, def string) string {
		if s == "" {
			return def
		}
		return s
	}
	submit := now.Add(-j.submitAgo)
	elig, start := slurmTime(submit), "N/A"
	if j.ineligble {
		elig = "N/A"
	}
	if j.state == "RUNNING" {
		start = slurmTime(now.Add(-j.startAgo))
	}
	tasks := j.tasks
	if tasks == 0 {
		tasks = j.nodes
	}
	vals := []string{fmt.Sprint(j.id), j.partition, j.state, slurmTime(submit), elig, start, or(j.limit, "1:00:00"),
		fmt.Sprint(j.nodes), fmt.Sprint(j.cpus), fmt.Sprint(tasks), or(j.perNode, "N/A"), or(j.perJob, "N/A"),
		fmt.Sprint(j.priority), or(j.qos, "normal"), or(j.reason, "None"), or(j.comment, "(null)")}
	return strings.Join(vals, "|") + "|"
}

// fakeNode is a node line of sinfo (SinfoArgs).
type fakeNode struct {
	partition, name string
	cpus            int
	gres, state     string
}

func (n fakeNode) line() string {
	g := n.gres
	if g == "" {
		g = "(null)"
	}
	st := n.state
	if st == "" {
		st = "idle"
	}
	return fmt.Sprintf("%s|%s|%d|%s|%s|", n.partition, n.name, n.cpus, g, st)
}

// snapshotOf renders a snapshot of jobs and nodes at testNow.
func snapshotOf(parts []string, jobs []fakeJob, nodes []fakeNode) Snapshot {
	var q, s strings.Builder
	for _, j := range jobs {
		q.WriteString(j.line(testNow) + "\n")
	}
	for _, n := range nodes {
		s.WriteString(n.line() + "\n")
	}
	return Snapshot{Meta: SnapshotMeta{Now: testNow.Unix(), Partitions: parts}, Squeue: q.String(), Sinfo: s.String()}
}

// gpuNodes is k nodes of g GPUs in partition p.
func gpuNodes(p string, k, g int) []fakeNode {
	var out []fakeNode
	for i := range k {
		out = append(out, fakeNode{partition: p, name: fmt.Sprintf("%s%d", p, i), cpus: 32, gres: fmt.Sprintf("gpu:%d", g)})
	}
	return out
}

// oneTree is mct+formula+bestfit with the ranking formula f (hours).
func oneTree(f string) (simcore.Scheduler, error) {
	p, err := experiment.DefaultPolicyBuilder(false).Policy(experiment.FormulaScheduler, f)
	return p.Scheduler(), err
}

// twoTree is rule+formula+bestfit with routing R, scope and ranking f.
func twoTree(routing, scope, f string) (simcore.Scheduler, error) {
	b := experiment.DefaultPolicyBuilder(false)
	tree, err := expr.Routing.Parse(routing)
	if err != nil {
		return nil, err
	}
	b.Rule = rule.Params{Routing: tree, Scope: rule.Scope(scope)}
	p, err := b.Policy("rule+formula+bestfit", f)
	return p.Scheduler(), err
}

// fakeSlurm is a Slurm that answers squeue, sinfo and scontrol update
// from its jobs and nodes, through slurmcli.Fake: updates change them.
type fakeSlurm struct {
	mu    sync.Mutex
	jobs  []fakeJob
	nodes []fakeNode
	fail  map[int64]bool // scontrol update of these jobs fails
	// squeueOut, if set, replaces the queue squeue prints.
	squeueOut *string
	// onScontrol, if set, runs before each update.
	onScontrol func()
	calls      []string
}

func newFakeSlurm(jobs []fakeJob, nodes []fakeNode) *fakeSlurm {
	return &fakeSlurm{jobs: slices.Clone(jobs), nodes: nodes, fail: map[int64]bool{}}
}

func (f *fakeSlurm) job(id int64) *fakeJob {
	for i := range f.jobs {
		if f.jobs[i].id == id {
			return &f.jobs[i]
		}
	}
	return nil
}

func (f *fakeSlurm) handle(name string, args []string) ([]byte, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, name+" "+strings.Join(args, " "))
	switch name {
	case "sinfo":
		var b strings.Builder
		for _, n := range f.nodes {
			b.WriteString(n.line() + "\n")
		}
		return []byte(b.String()), nil
	case "squeue":
		var ids []string
		for _, a := range args {
			if v, ok := strings.CutPrefix(a, "--jobs="); ok {
				ids = strings.Split(v, ",")
			}
		}
		var b strings.Builder
		if ids == nil {
			if f.squeueOut != nil {
				return []byte(*f.squeueOut), nil
			}
			for _, j := range f.jobs {
				b.WriteString(j.line(testNow) + "\n")
			}
			return []byte(b.String()), nil
		}
		for _, id := range ids {
			var n int64
			fmt.Sscan(id, &n)
			if j := f.job(n); j != nil {
				fmt.Fprintf(&b, "%d|%s|%s|%d|\n", n, j.state, j.partition, j.priority)
			}
		}
		return []byte(b.String()), nil
	case "scontrol":
		if f.onScontrol != nil {
			f.onScontrol()
		}
		var id int64
		fmt.Sscanf(args[1], "JobId=%d", &id)
		j := f.job(id)
		if j == nil || f.fail[id] {
			return nil, fmt.Errorf("scontrol %s: exit status 1: slurm_update error: Invalid job id specified", strings.Join(args, " "))
		}
		if j.state != "PENDING" {
			return nil, fmt.Errorf("scontrol: Job is no longer pending execution")
		}
		if v, ok := strings.CutPrefix(args[2], "Partition="); ok {
			j.partition = v
		}
		if v, ok := strings.CutPrefix(args[2], "Priority="); ok {
			fmt.Sscan(v, &j.priority)
		}
		return nil, nil
	}
	return nil, fmt.Errorf("%s: not faked", name)
}

// scontrolCalls are the scontrol lines run.
func (f *fakeSlurm) scontrolCalls() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for _, c := range f.calls {
		if strings.HasPrefix(c, "scontrol") {
			out = append(out, c)
		}
	}
	return out
}

// planOf builds the model of s and plans it with sched.
func planOf(s Snapshot, m Mapping, sched simcore.Scheduler) (*Model, []Decision, error) {
	md, err := Build(s, m, nil)
	if err != nil {
		return nil, nil, err
	}
	ds, err := Plan(context.Background(), md, sched, simcore.Options{}, DefaultPriorityBase)
	return md, ds, err
}

func mustOneTree(t testing.TB, f string) simcore.Scheduler {
	t.Helper()
	s, err := oneTree(f)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func simcoreOptions() simcore.Options { return simcore.Options{} }

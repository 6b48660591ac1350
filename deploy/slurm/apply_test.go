package slurm

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/evogp/evogp/internal/slurmcli"
)

// twoTreeBest is a hand-written two-tree best.json: R = h·(2 − g) moves
// one-GPU jobs to the other partition, f = g·d − q.
const twoTreeBest = `{
  "tree": ["-", ["*", "g", "d"], "q"],
  "infix": "g * d - q",
  "terminals": ["d", "q", "u", "g"],
  "candidate": "rule+formula+bestfit",
  "time_unit": "hours",
  "learn": ["routing", "ranking"],
  "routing_tree": ["*", "h", ["-", 2, "g"]],
  "routing_infix": "h * (2 - g)",
  "routing_terminals": ["g", "h"],
  "scope": "all"
}
`

func writeBest(t *testing.T, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "best.json")
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// liveQueue: partitions a and b of one node × 4 GPUs; a running job in a;
// five pending jobs of 1 and 2 GPUs.
func liveQueue() ([]fakeJob, []fakeNode) {
	jobs := []fakeJob{
		{id: 10, partition: "a", state: "RUNNING", submitAgo: time.Hour, startAgo: 50 * time.Minute, limit: "2:00:00", nodes: 1, cpus: 1, perNode: "gres/gpu:2", priority: 50},
		{id: 11, partition: "a", state: "PENDING", submitAgo: 40 * time.Minute, limit: "1:00:00", nodes: 1, cpus: 1, perNode: "gres/gpu:1", priority: 49},
		{id: 12, partition: "a", state: "PENDING", submitAgo: 30 * time.Minute, limit: "0:30:00", nodes: 1, cpus: 1, perNode: "gres/gpu:2", priority: 48},
		{id: 13, partition: "b", state: "PENDING", submitAgo: 20 * time.Minute, limit: "3:00:00", nodes: 1, cpus: 1, perNode: "gres/gpu:1", priority: 47},
		{id: 14, partition: "b", state: "PENDING", submitAgo: 10 * time.Minute, limit: "2:00:00", nodes: 1, cpus: 1, perNode: "gres/gpu:2", priority: 46},
		{id: 15, partition: "a", state: "PENDING", submitAgo: 5 * time.Minute, limit: "0:10:00", nodes: 1, cpus: 1, perNode: "gres/gpu:2", priority: 45},
	}
	return jobs, append(gpuNodes("a", 1, 4), gpuNodes("b", 1, 4)...)
}

func liveOptions(t *testing.T, f *fakeSlurm, best string) Options {
	dir := t.TempDir()
	return Options{Run: best, Partitions: []string{"a", "b"}, Mapping: DefaultMapping(), Once: true,
		Record: filepath.Join(dir, "record.json"), Runner: &slurmcli.Fake{Handle: f.handle}, Now: func() time.Time { return testNow }}
}

type state struct {
	partition string
	priority  int64
}

func queueState(f *fakeSlurm) map[int64]state {
	out := map[int64]state{}
	for _, j := range f.jobs {
		out[j.id] = state{j.partition, j.priority}
	}
	return out
}

// TestRunAppliesPlanIdempotentAndRestores: a live run leaves every job
// where the plan of its own snapshot says, with priorities in the plan's
// order; a second run changes nothing; --restore returns the queue.
func TestRunAppliesPlanIdempotentAndRestores(t *testing.T) {
	jobs, nodes := liveQueue()
	f := newFakeSlurm(jobs, nodes)
	best := writeBest(t, twoTreeBest)
	o := liveOptions(t, f, best)
	before := queueState(f)
	snapDir := filepath.Join(t.TempDir(), "snap")
	o.SaveSnapshot, o.DecisionsOut = snapDir, filepath.Join(t.TempDir(), "live.csv")
	var out bytes.Buffer
	if err := Run(t.Context(), o, &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	// The plan on the saved snapshot, with no Slurm at all.
	replay := &fakeSlurm{}
	ro := Options{Run: best, Snapshot: snapDir, Mapping: DefaultMapping(), DecisionsOut: filepath.Join(t.TempDir(), "replay.csv"),
		Record: filepath.Join(t.TempDir(), "none.json"), Runner: &slurmcli.Fake{Handle: replay.handle}}
	var rout bytes.Buffer
	if err := Run(t.Context(), ro, &rout); err != nil {
		t.Fatal(err)
	}
	if len(replay.calls) != 0 {
		t.Fatalf("a replay ran %q", replay.calls)
	}
	live, _ := os.ReadFile(o.DecisionsOut)
	again, _ := os.ReadFile(ro.DecisionsOut)
	if !bytes.Equal(live, again) || len(live) == 0 {
		t.Fatalf("decisions live:\n%s\nreplayed:\n%s", live, again)
	}
	snap, err := Load(snapDir)
	if err != nil {
		t.Fatal(err)
	}
	l, err := LoadLearned(best, 0, false)
	if err != nil {
		t.Fatal(err)
	}
	md, err := Build(snap, DefaultMapping(), nil)
	if err != nil {
		t.Fatal(err)
	}
	ds, err := Plan(t.Context(), md, l.Scheduler, l.Options, DefaultPriorityBase)
	if err != nil {
		t.Fatal(err)
	}
	moved := 0
	for _, d := range ds {
		j := f.job(d.Job.ID)
		if j.partition != d.Partition || j.priority != d.Priority {
			t.Errorf("job %d: %s/%d, plan %s/%d", j.id, j.partition, j.priority, d.Partition, d.Priority)
		}
		if d.Partition != d.Job.Partition {
			moved++
		}
	}
	if moved == 0 {
		t.Fatal("no job changed partition: the test does not exercise routing")
	}
	if j := f.job(10); j.partition != "a" || j.priority != 50 {
		t.Errorf("the running job was changed: %+v", *j)
	}
	// Idempotent.
	n := len(f.scontrolCalls())
	out.Reset()
	if err := Run(t.Context(), liveOptionsWithRecord(o), &out); err != nil {
		t.Fatal(err)
	}
	if extra := f.scontrolCalls()[n:]; len(extra) != 0 {
		t.Errorf("the second run ran %q\n%s", extra, out.String())
	}
	// Restore.
	out.Reset()
	if err := Run(t.Context(), Options{Restore: true, Record: o.Record, Runner: o.Runner}, &out); err != nil {
		t.Fatal(err)
	}
	if after := queueState(f); !mapsEqual(before, after) {
		t.Errorf("after --restore %v, before %v", after, before)
	}
	if _, err := os.Stat(o.Record); !os.IsNotExist(err) {
		t.Errorf("the record is kept after a full restore: %v", err)
	}
}

func liveOptionsWithRecord(o Options) Options {
	o.SaveSnapshot, o.DecisionsOut = "", ""
	return o
}

func mapsEqual(a, b map[int64]state) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// TestRecordBeforeAnyChange: the restore record holds every job to change
// with its earlier values when the first scontrol runs.
func TestRecordBeforeAnyChange(t *testing.T) {
	jobs, nodes := liveQueue()
	f := newFakeSlurm(jobs, nodes)
	o := liveOptions(t, f, writeBest(t, twoTreeBest))
	checked := false
	f.onScontrol = func() {
		if checked {
			return
		}
		checked = true
		rec, err := ReadRecord(o.Record)
		if err != nil || len(rec.Jobs) != 5 {
			t.Errorf("record at the first change: %+v %v", rec, err)
		}
		for _, r := range rec.Jobs {
			for _, j := range jobs {
				if j.id == r.Job && (j.partition != r.Partition || j.priority != r.Priority) {
					t.Errorf("recorded %+v, job was %s/%d", r, j.partition, j.priority)
				}
			}
		}
	}
	if err := Run(t.Context(), o, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	if !checked {
		t.Fatal("no change was made")
	}
}

// TestVanishedAndStartedJobsSkipped: a job that left the queue and one
// that started between the read and the write are skipped with a note;
// the others are changed.
func TestVanishedAndStartedJobsSkipped(t *testing.T) {
	jobs, nodes := liveQueue()
	f := newFakeSlurm(jobs, nodes)
	best := writeBest(t, twoTreeBest)
	o := liveOptions(t, f, best)
	snap, err := Read(t.Context(), o.Runner, o.Partitions, testNow)
	if err != nil {
		t.Fatal(err)
	}
	l, err := LoadLearned(best, 0, false)
	if err != nil {
		t.Fatal(err)
	}
	md, err := Build(snap, DefaultMapping(), nil)
	if err != nil {
		t.Fatal(err)
	}
	ds, err := Plan(t.Context(), md, l.Scheduler, l.Options, DefaultPriorityBase)
	if err != nil {
		t.Fatal(err)
	}
	// Between the read and the write: 12 ends, 13 starts.
	f.jobs = slices.DeleteFunc(f.jobs, func(j fakeJob) bool { return j.id == 12 })
	f.job(13).state = "RUNNING"
	changes, err := Apply(t.Context(), o.Runner, ds, o.Record, false, testNow)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range changes {
		switch c.Job.ID {
		case 12:
			if c.Action != "skipped" || !strings.Contains(c.Note, "left the queue") {
				t.Errorf("job 12: %s %s", c.Action, c.Note)
			}
		case 13:
			if c.Action != "skipped" || !strings.Contains(c.Note, "RUNNING") {
				t.Errorf("job 13: %s %s", c.Action, c.Note)
			}
		default:
			if c.Action != "changed" {
				t.Errorf("job %d: %s %s", c.Job.ID, c.Action, c.Note)
			}
		}
	}
	for _, c := range f.scontrolCalls() {
		if strings.Contains(c, "JobId=12 ") || strings.Contains(c, "JobId=13 ") {
			t.Errorf("ran %s", c)
		}
	}
	rec, _ := ReadRecord(o.Record)
	if _, ok := rec.Find(13); ok {
		t.Error("the started job was recorded")
	}
}

// TestFailedUpdateReportedOthersContinue: one scontrol fails; the others
// are changed and the run ends with an error naming the failure.
func TestFailedUpdateReportedOthersContinue(t *testing.T) {
	jobs, nodes := liveQueue()
	f := newFakeSlurm(jobs, nodes)
	f.fail[11] = true
	o := liveOptions(t, f, writeBest(t, twoTreeBest))
	var out bytes.Buffer
	err := Run(t.Context(), o, &out)
	if err == nil || !strings.Contains(err.Error(), "1 scontrol update(s) failed") {
		t.Fatalf("error %v", err)
	}
	if !strings.Contains(out.String(), "failed: scontrol") {
		t.Errorf("the failure is not reported:\n%s", out.String())
	}
	changed := 0
	for _, id := range []int64{12, 13, 14, 15} {
		if f.job(id).priority >= DefaultPriorityBase {
			changed++
		}
	}
	if changed != 4 || f.job(11).priority != 49 {
		t.Errorf("%d of the 4 others changed; job 11 priority %d", changed, f.job(11).priority)
	}
}

// TestDryRunChangesNothing: shadow mode prints the changes and Slurm's own
// order, and neither writes nor records anything.
func TestDryRunChangesNothing(t *testing.T) {
	jobs, nodes := liveQueue()
	f := newFakeSlurm(jobs, nodes)
	o := liveOptions(t, f, writeBest(t, twoTreeBest))
	o.DryRun = true
	before := queueState(f)
	var out bytes.Buffer
	if err := Run(t.Context(), o, &out); err != nil {
		t.Fatal(err)
	}
	if len(f.scontrolCalls()) != 0 || !mapsEqual(before, queueState(f)) {
		t.Errorf("a dry run changed the queue: %q", f.scontrolCalls())
	}
	if _, err := os.Stat(o.Record); !os.IsNotExist(err) {
		t.Errorf("a dry run wrote the record: %v", err)
	}
	for _, want := range []string{"dry run (shadow mode", "would change", "Slurm's own order [11 12 15]", "a -> b"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

// TestBadOutputChangesNothing: bad or partial squeue and sinfo output is
// one clear error naming the command, line and field; nothing is run or
// recorded.
func TestBadOutputChangesNothing(t *testing.T) {
	jobs, nodes := liveQueue()
	good := newFakeSlurm(jobs, nodes)
	lines := strings.Split(strings.TrimSpace(func() string { out, _ := good.handle("squeue", nil); return string(out) }()), "\n")
	cut := strings.Join(lines[:2], "\n") + "\n" + lines[2][:len(lines[2])/2] + "\n"
	replace := func(line int, field int, val string) string {
		ls := slices.Clone(lines)
		v := strings.Split(ls[line], "|")
		v[field] = val
		ls[line] = strings.Join(v, "|")
		return strings.Join(ls, "\n") + "\n"
	}
	for _, c := range []struct {
		name, squeue string
		nodes        []fakeNode
		want         string
	}{
		{"cut short", cut, nil, "squeue output line 3: does not end with the field separator"},
		{"bad job id", replace(1, 0, "12x"), nil, "squeue output line 2: field JobID = \"12x\": not a job id"},
		{"bad state", replace(1, 2, "COMPLETED"), nil, "field State = \"COMPLETED\""},
		{"bad submit time", replace(2, 3, "yesterday"), nil, "squeue output line 3: field SubmitTime = \"yesterday\""},
		{"bad limit", replace(1, 6, "1:xx:00"), nil, "field TimeLimit = \"1:xx:00\""},
		{"bad priority", replace(1, 12, "-3"), nil, "field PriorityLong = \"-3\""},
		{"running without start", replace(0, 5, "N/A"), nil, "field StartTime"},
		{"bad gres", replace(1, 10, "gres/gpu:a100:many"), nil, "tres-per-job/tres-per-node"},
		{"sinfo bad CPUs", "", []fakeNode{{partition: "a", name: "x", cpus: 0}}, "sinfo output line 1: field CPUs"},
		{"sinfo unknown partition", "", gpuNodes("a", 1, 4), "partition b: sinfo lists no node of it"},
		{"sinfo mixed nodes", "", append(append(gpuNodes("a", 1, 4), fakeNode{partition: "a", name: "big", cpus: 8, gres: "gpu:8"}), gpuNodes("b", 1, 4)...), "partition a: nodes have 4 and 8 GPUs"},
	} {
		f := newFakeSlurm(jobs, nodes)
		if c.squeue != "" {
			f.squeueOut = &c.squeue
		}
		if c.nodes != nil {
			f.nodes = c.nodes
		}
		o := liveOptions(t, f, writeBest(t, twoTreeBest))
		err := Run(t.Context(), o, &bytes.Buffer{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
		if len(f.scontrolCalls()) != 0 {
			t.Errorf("%s: ran %q", c.name, f.scontrolCalls())
		}
		if _, err := os.Stat(o.Record); !os.IsNotExist(err) {
			t.Errorf("%s: a record was written", c.name)
		}
	}
}

// TestRefusesTerminalsSlurmCannotSupply names the terminal.
func TestRefusesTerminalsSlurmCannotSupply(t *testing.T) {
	bad := strings.NewReplacer(`["-", ["*", "g", "d"], "q"]`, `["+", "s", "d"]`, `"g * d - q"`, `"s + d"`,
		`"terminals": ["d", "q", "u", "g"]`, `"terminals": ["d", "s"]`).Replace(twoTreeBest)
	_, err := LoadLearned(writeBest(t, bad), 0, false)
	if err == nil || !strings.Contains(err.Error(), "ranking tree uses terminal s (slack") {
		t.Fatalf("error %v", err)
	}
}

// TestIntervalLoopSavesEachRound: --interval repeats until the context
// ends, saving each round's snapshot; the rounds after the first change
// nothing.
func TestIntervalLoopSavesEachRound(t *testing.T) {
	jobs, nodes := liveQueue()
	f := newFakeSlurm(jobs, nodes)
	o := liveOptions(t, f, writeBest(t, twoTreeBest))
	o.Once, o.Interval = false, 20*time.Millisecond
	o.SaveSnapshot = filepath.Join(t.TempDir(), "snaps")
	ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
	defer cancel()
	var out bytes.Buffer
	if err := Run(ctx, o, &out); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(filepath.Join(o.SaveSnapshot, "0002")); err != nil {
		t.Fatalf("round 2's snapshot: %v\n%s", err, out.String())
	}
	if n := strings.Count(out.String(), " changed\n"); n != 5 {
		t.Errorf("%d changes over the rounds, want 5 (all in the first)\n%s", n, out.String())
	}
}

package rule_test

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/evogp/evogp/simcore"
	"github.com/evogp/evogp/simcore/rule"
)

// TestDecisionLogChangesNothing: WithDecisionLog's hook leaves the
// schedule as it is (job for job, segment for segment), reports each
// operation's decisions in one run of the operation's index, each job at
// most once per operation, every job of the instance decided at least
// once (scope all re-decides Js, so arrivals are all decided), the first
// decision of a job as an arrival (Current −1) and every later one from
// the cluster the previous one gave it, and the same fixed-state hash for
// the decisions of one operation.
func TestDecisionLogChangesNothing(t *testing.T) {
	rng := rand.New(rand.NewPCG(39, 13))
	for i, routing := range []string{"m + h * m", "n + (n + g * m)", "d - h + W"} {
		inst := randomInstance(rng, fmt.Sprintf("log-%d", i))
		p, err := rule.ParseParams(routing, "all", false)
		if err != nil {
			t.Fatal(err)
		}
		base, err := rule.New(p)
		if err != nil {
			t.Fatal(err)
		}
		var log []rule.Decision
		logged := rule.WithDecisionLog(base, func(d rule.Decision) { log = append(log, d) })
		want := simulate(t, inst, simcore.NewListScheduler("log", base, simcore.WeightedWait{}, simcore.BestFit{}), simcore.Options{})
		got := simulate(t, inst, simcore.NewListScheduler("log", logged, simcore.WeightedWait{}, simcore.BestFit{}), simcore.Options{})
		if !reflect.DeepEqual(got.Jobs, want.Jobs) || !reflect.DeepEqual(got.Segments, want.Segments) {
			t.Fatalf("%q: the decision log changes the schedule", routing)
		}
		if len(log) == 0 {
			t.Fatalf("%q: no decision logged", routing)
		}
		seen := map[int]bool{}
		for k, d := range log {
			if k > 0 && d.Op != log[k-1].Op && (d.Op < log[k-1].Op || seen[d.Op]) {
				t.Fatalf("%q: operation %d logged out of order or in two runs", routing, d.Op)
			}
			seen[d.Op] = true
			if k > 0 && d.Op == log[k-1].Op && (d.Now != log[k-1].Now || d.Fixed != log[k-1].Fixed) {
				t.Fatalf("%q: one operation's decisions disagree on time or fixed state", routing)
			}
		}
		last := map[int]int{}
		perOp := map[[2]int]bool{}
		for _, d := range log {
			if perOp[[2]int{d.Op, d.Job}] {
				t.Fatalf("%q: job %d decided twice at operation %d", routing, d.Job, d.Op)
			}
			perOp[[2]int{d.Op, d.Job}] = true
			if c, ok := last[d.Job]; ok {
				if d.Current != c {
					t.Fatalf("%q: job %d decided from cluster %d, last given %d", routing, d.Job, d.Current, c)
				}
			} else if d.Current != -1 {
				t.Fatalf("%q: job %d's first decision is not an arrival (current %d)", routing, d.Job, d.Current)
			}
			last[d.Job] = d.Cluster
		}
		if len(last) != len(inst.Jobs) {
			t.Fatalf("%q: %d of %d jobs decided", routing, len(last), len(inst.Jobs))
		}
	}
}

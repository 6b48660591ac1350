package experiment

import (
	"context"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/internal/progress"
	"github.com/evogp/evogp/learn"
	"github.com/evogp/evogp/runfile"
	"github.com/evogp/evogp/simcore"
)

// LABEL=RUN of a two-tree front (gp.learn: [routing, ranking]) gives one
// policy per member that runs the member's own routing tree and ranking:
// simulated on the run's validation instances, each reproduces the
// validation objectives (avg_jct, max_qt) the learner recorded for it in
// best.json: with gp.fitness mean the mean over instances of the ratios to
// SRSF's, with gp.fitness pooled the ratio of the sums (learn/front_pooled.go).
func TestFrontPoliciesRunEachMembersRoutingTree(t *testing.T) {
	for _, fitness := range []string{"mean", "pooled"} {
		t.Run(fitness, func(t *testing.T) { testFrontPolicies(t, fitness) })
	}
}

func testFrontPolicies(t *testing.T, fitness string) {
	cfg, err := configs.Load("quick")
	if err != nil {
		t.Fatal(err)
	}
	// The quick config's two-tree learner, on little data.
	cfg, err = cfg.Override("data.train=2", "data.validation=3", "gp.subset=2", "generator.clusters=[2,3]", "generator.nodes=[4,8]",
		"gp.generations=4", "gp.population=24", "gp.selection=nsga2", "gp.parent_selection=tournament", "objective.kind=single", "gp.objectives=[avg_jct,max_qt]",
		"gp.fitness="+fitness)
	if err != nil {
		t.Fatal(err)
	}
	train, val, err := learn.LoadData(cfg)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "run")
	if _, err := learn.Run(context.Background(), learn.Settings{Config: cfg, Train: train, Validation: val, Out: dir, Progress: progress.Options{Quiet: true}}); err != nil {
		t.Fatal(err)
	}
	best, err := learn.ReadBest(filepath.Join(dir, runfile.BestFile))
	if err != nil {
		t.Fatal(err)
	}
	ps, err := PolicyBuilder{}.Policies("f=" + dir + ",mct+srsf+bestfit")
	if err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	if err := best.Front.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if pooled := fitness == "pooled"; best.Front.Pooled != pooled || strings.Contains(text.String(), "sum over instances ÷ SRSF's sum") != pooled {
		t.Errorf("gp.fitness %s: best.json pooled = %v, front text %q", fitness, best.Front.Pooled, strings.SplitN(text.String(), "\n", 2)[0])
	}
	members := best.Front.Members
	if len(ps) != len(members)+1 {
		t.Fatalf("%d policies for %d members and SRSF", len(ps), len(members))
	}
	opts, err := configs.SimOptions(cfg)
	if err != nil {
		t.Fatal(err)
	}
	simulate := func(p Policy) []simcore.Metrics {
		var out []simcore.Metrics
		for i := range val {
			res, err := simcore.Simulate(context.Background(), &val[i], p.sched, opts)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, res.Metrics)
		}
		return out
	}
	srsf := simulate(ps[len(ps)-1])
	distinct := map[string]bool{}
	for k, m := range members {
		p := ps[k]
		if m.RoutingInfix == "" || p.Source != m.Formula() || !strings.HasPrefix(p.Name, "rule+formula+") {
			t.Fatalf("member %d (%s): policy %q source %q", k+1, m.Formula(), p.Name, p.Source)
		}
		distinct[m.RoutingInfix] = true
		ms := simulate(p)
		for o, value := range []func(simcore.Metrics) float64{
			func(m simcore.Metrics) float64 { return m.AvgJCT },
			func(m simcore.Metrics) float64 { return m.MaxQT },
		} {
			ratios, sum, base := 0.0, 0.0, 0.0
			for i := range ms {
				ratios += value(ms[i]) / value(srsf[i])
				sum += value(ms[i])
				base += value(srsf[i])
			}
			want := ratios / float64(len(ms))
			if fitness == "pooled" {
				want = sum / base
			}
			if math.Abs(want-m.Validation[o]) > 1e-12*max(1, want) {
				t.Errorf("member %d objective %d: the eval policy's %s ratio to SRSF's is %v, the learner recorded %v", k+1, o, fitness, want, m.Validation[o])
			}
		}
	}
	t.Logf("%d members, %d distinct routing trees", len(members), len(distinct))
}

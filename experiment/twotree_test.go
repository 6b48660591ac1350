package experiment

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/formula"
	"github.com/evogp/evogp/internal/progress"
	"github.com/evogp/evogp/policies"
	"github.com/evogp/evogp/reports"
	"github.com/evogp/evogp/runfile"
	"github.com/evogp/evogp/simcore"
	"github.com/evogp/evogp/simcore/rule"
)

// twoTreeFixed make the smoke config learn a routing tree and a ranking
// tree (issue 26), small enough for a test.
var twoTreeFixed = []string{"gp.learn=routing,ranking", "gp.routing_terminals=W,x,o,h,f", "gp.scope=arrivals",
	"gp.seed_routing=W,0-o", "gp.tree_swap=0.2", "gp.generations=2", "gp.population=8"}

// ruleOfBest is the learned scheduler of a two-tree best.json built by
// hand from its fields: rule(R, scope) + f + best fit.
func ruleOfBest(t *testing.T, bestPath string, seconds bool) simcore.Scheduler {
	t.Helper()
	routing, err := formula.ReadBestRouting(bestPath)
	if err != nil || routing == nil {
		t.Fatalf("%s: no routing tree (%v)", bestPath, err)
	}
	infix, err := formula.ReadBestInfix(bestPath)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := rule.ParseScope(routing.Scope)
	if err != nil {
		t.Fatal(err)
	}
	sched, err := policies.Parse("rule+formula+bestfit", simcore.Params{
		Rankings: map[string]simcore.Ranking{"formula": formula.NewRanking(expr.MustParse(infix), seconds)},
		Sections: map[string]any{rule.SectionName: rule.Params{Routing: expr.Routing.MustParse(routing.Infix), Scope: sc, Seconds: seconds}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return sched
}

// A sweep over two-tree configs (learn -m): every point's "gp" test rows
// are the learned rule scheduler's, instance by instance (not MCT + f);
// the sweep table, SweepBests (what export SWEEP_DIR prints) and the
// sweep's report.html name both trees; and LABEL=POINT/best.json runs the
// whole learned scheduler in a pressure study.
func TestTwoTreeSweepReportPressure(t *testing.T) {
	if testing.Short() {
		t.Skip("learns two sweep points")
	}
	dir := filepath.Join(t.TempDir(), "sweep")
	spec := SweepSpec{Config: "smoke", Fixed: twoTreeFixed, Axes: []SweepAxis{{Key: "seed", Values: []string{"1", "2"}}}}
	quiet := progress.Options{Quiet: true}
	rows, err := Sweep(context.Background(), SweepSettings{Spec: spec, Dir: dir, Jobs: 1, Progress: quiet})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 {
		t.Fatalf("rows = %+v", rows)
	}
	opts, err := DefaultSimSettings().Options()
	if err != nil {
		t.Fatal(err)
	}
	bests, isSweep, err := SweepBests(dir)
	if err != nil || !isSweep || len(bests) != 2 {
		t.Fatalf("SweepBests: %v %v %+v", err, isSweep, bests)
	}
	for k, r := range rows {
		pdir := pointDirOf(dir, r)
		bestPath := filepath.Join(pdir, formula.BestFile)
		if bests[k].Best != bestPath {
			t.Errorf("SweepBests[%d] = %s, want %s", k, bests[k].Best, bestPath)
		}
		cfg, err := pointConfig("smoke", twoTreeFixed, strings.Fields(r.Overrides))
		if err != nil {
			t.Fatal(err)
		}
		insts, err := TestInstances(cfg)
		if err != nil {
			t.Fatal(err)
		}
		results, err := reports.ReadResults(filepath.Join(pdir, "test.parquet"))
		if err != nil {
			t.Fatal(err)
		}
		simOpts, err := configs.SimOptions(cfg)
		if err != nil {
			t.Fatal(err)
		}
		sched := ruleOfBest(t, bestPath, false)
		gp := map[string]float64{}
		for _, res := range results {
			if res.Scheduler == "gp" {
				gp[res.Instance] = res.Objective
			}
		}
		if len(gp) != len(insts) {
			t.Fatalf("point %s: %d gp rows for %d test instances", r.Overrides, len(gp), len(insts))
		}
		for i := range insts {
			want, err := simcore.Simulate(context.Background(), &insts[i], sched, simOpts)
			if err != nil {
				t.Fatal(err)
			}
			if got := gp[insts[i].Name]; got != want.Metrics.Objective {
				t.Errorf("point %s, %s: the sweep's gp objective %v, the learned rule scheduler's %v", r.Overrides, insts[i].Name, got, want.Metrics.Objective)
			}
		}
	}

	// The sweep table and report.html show both trees of every point.
	lines, err := SweepLines(dir, rows)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range lines {
		if !strings.HasPrefix(l.Formula, "R = ") || !strings.Contains(l.Formula, " ; f = ") {
			t.Errorf("sweep table formula %q does not name both trees", l.Formula)
		}
	}
	if err := WriteReport(dir, ReportOptions{}); err != nil {
		t.Fatal(err)
	}
	html := readText(t, filepath.Join(dir, ReportFile))
	for _, r := range rows {
		var best runfile.Best
		data := readText(t, filepath.Join(pointDirOf(dir, r), formula.BestFile))
		if err := json.Unmarshal([]byte(data), &best); err != nil {
			t.Fatal(err)
		}
		if best.Reduced == nil {
			t.Fatalf("point %s: no reduced pair", r.Overrides)
		}
		// The reduced pair, as printed first (issue 40).
		route, rank := best.DisplayFormulas()
		if want := "R = " + route + " ; f = " + rank; !strings.Contains(html, htmlEscape(want)) {
			t.Errorf("the sweep's report.html lacks the point formula %q", want)
		}
	}

	// A point is a learn run: its report.html shows R and f.
	pdir := pointDirOf(dir, rows[0])
	if err := WriteReport(pdir, ReportOptions{}); err != nil {
		t.Fatal(err)
	}
	routing, _ := formula.ReadBestRouting(filepath.Join(pdir, formula.BestFile))
	html = readText(t, filepath.Join(pdir, ReportFile))
	rt := expr.Simplify(expr.Routing.MustParse(routing.Infix))
	if !strings.Contains(html, htmlEscape("R = "+rt.String())) || !strings.Contains(html, "f = ") {
		t.Errorf("the learn report lacks R = %s or f:\n%.2000s", rt, html)
	}

	// Pressure: mine=POINT/best.json runs rule(R, scope) + f + best fit.
	cfg, err := configs.Load("smoke")
	if err != nil {
		t.Fatal(err)
	}
	if cfg, err = cfg.Override("pressure.clusters=2", "pressure.nodes=2", "pressure.jobs=30", "pressure.seeds=1", "pressure.intervals=60,600"); err != nil {
		t.Fatal(err)
	}
	bestPath := filepath.Join(pdir, formula.BestFile)
	ps, err := DefaultPolicyBuilder(false).Policies("mine=" + bestPath + ",liquid")
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "pressure")
	if _, err := Pressure(context.Background(), PressureSettings{ConfigName: "smoke", Config: cfg, Sim: DefaultSimSettings(),
		Policies: ps, Formats: []string{"svg"}, Workers: 1, Out: out, Progress: quiet}); err != nil {
		t.Fatal(err)
	}
	prows, err := reports.ReadPressure(filepath.Join(out, "pressure.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	pis, err := PressureInstances(cfg)
	if err != nil {
		t.Fatal(err)
	}
	sched := ruleOfBest(t, bestPath, false)
	checked := 0
	for _, pi := range pis {
		want, err := simcore.Simulate(context.Background(), &pi.Instance, sched, opts)
		if err != nil {
			t.Fatal(err)
		}
		for _, pr := range prows {
			if pr.Scheduler == "mine" && pr.Interval == pi.Interval && pr.Seed == pi.Seed {
				checked++
				if pr.Objective != want.Metrics.Objective {
					t.Errorf("pressure Δ=%v: mine %v, the learned rule scheduler %v", pi.Interval, pr.Objective, want.Metrics.Objective)
				}
			}
		}
	}
	if checked != len(pis) {
		t.Errorf("checked %d pressure rows of mine, want %d", checked, len(pis))
	}
	if html := readText(t, filepath.Join(out, ReportFile)); !strings.Contains(html, "mine") {
		t.Error("the pressure report does not name the learned scheduler")
	}
}

func readText(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// htmlEscape escapes s as html/template writes text.
func htmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;").Replace(s)
}

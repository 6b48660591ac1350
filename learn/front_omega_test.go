package learn

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"

	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/internal/pareto"
	"github.com/evogp/evogp/policies"
	"github.com/evogp/evogp/simcore"
)

// A front run's ω table (best.json and omega.txt) equals one rebuilt
// from scratch: the members (from best.json), SRSF and the baselines
// simulated on the test split through the public scheduler parsers, each
// objective ÷ SRSF's per instance, baselines picked on best.json's
// validation vectors.
func TestFrontOmegaTableMatchesReference(t *testing.T) {
	cfg := frontConfig(t, "objective.omega=0.3")
	out := filepath.Join(t.TempDir(), "run")
	if _, err := Run(context.Background(), settings(t, cfg, out)); err != nil {
		t.Fatal(err)
	}
	f := readBestJSON(t, out).Front
	if f.Omega == nil || f.Omega.Note != "" || len(f.Omega.Rows) != len(pareto.OmegaGrid()) {
		t.Fatalf("ω table %+v", f.Omega)
	}
	test, err := LoadTest(cfg)
	if err != nil {
		t.Fatal(err)
	}
	opts, err := SimOptions(cfg)
	if err != nil {
		t.Fatal(err)
	}
	run := func(s simcore.Scheduler) []simcore.Metrics {
		var ms []simcore.Metrics
		for i := range test {
			res, err := simcore.Simulate(context.Background(), &test[i], s, opts)
			if err != nil {
				t.Fatal(err)
			}
			ms = append(ms, res.Metrics)
		}
		return ms
	}
	parse := func(spec string, r map[string]simcore.Ranking) simcore.Scheduler {
		s, err := policies.ParseWith(spec, r)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	srsf := run(parse(cfg.GP.Allocator+"+srsf+"+cfg.GP.Placer, nil))
	vec := func(ms []simcore.Metrics) [][]float64 {
		out := make([][]float64, len(ms))
		for i, m := range ms {
			out[i] = []float64{m.AvgJCT / srsf[i].AvgJCT, m.MaxQT / srsf[i].MaxQT}
		}
		return out
	}
	in := pareto.OmegaInput{Baselines: []string{"srsf"}, BaselineSelection: [][]float64{{1, 1}}, BaselineTest: [][][]float64{vec(srsf)}}
	for _, b := range f.Baselines {
		in.Baselines = append(in.Baselines, b.Name)
		in.BaselineSelection = append(in.BaselineSelection, b.Validation)
		in.BaselineTest = append(in.BaselineTest, vec(run(parse(b.Name, nil))))
	}
	for _, m := range f.Members {
		s := parse(candidateSpec(cfg.GP.Allocator, cfg.GP.Placer), map[string]simcore.Ranking{"formula": NewFormulaRanking(expr.Simplify(m.Tree), false)})
		in.Members = append(in.Members, m.Label)
		in.MemberSelection = append(in.MemberSelection, m.Validation)
		in.MemberTest = append(in.MemberTest, vec(run(s)))
	}
	want, err := pareto.OmegaTable(in, pareto.OmegaGrid())
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range f.Omega.Rows {
		if r != want[i] {
			t.Errorf("ω = %v: %+v, the reference %+v", r.Omega, r, want[i])
		}
		if r.Better+r.Tied+r.Worse != len(test) {
			t.Errorf("ω = %v: b/t/w %d/%d/%d over %d instances", r.Omega, r.Better, r.Tied, r.Worse, len(test))
		}
	}
	var buf bytes.Buffer
	if err := f.WriteOmega(&buf); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, filepath.Join(out, OmegaFile)); !bytes.Equal(got, buf.Bytes()) || !bytes.HasPrefix(got, []byte("ω table on 3 instances")) {
		t.Errorf("%s:\n%s\nwant:\n%s", OmegaFile, got, buf.Bytes())
	}
}

// Without a test split the run says there is no table.
func TestFrontOmegaTableNoTest(t *testing.T) {
	cfg := frontConfig(t, "data.test=0")
	out := filepath.Join(t.TempDir(), "run")
	if _, err := Run(context.Background(), settings(t, cfg, out)); err != nil {
		t.Fatal(err)
	}
	if got := string(readFile(t, filepath.Join(out, OmegaFile))); got != "ω table: no test split (data.test 0): no ω table\n" {
		t.Errorf("%s: %q", OmegaFile, got)
	}
}

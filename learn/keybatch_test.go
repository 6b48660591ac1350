package learn

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/simcore"
	"github.com/evogp/evogp/simcore/evo"
)

// oneByOne hides a ranking's KeyBatch: the engine evaluates it one view at
// a time.
type oneByOne struct{ r simcore.Ranking }

func (o oneByOne) Priority(j simcore.JobView) float64 { return o.r.Priority(j) }

func (o oneByOne) NeedsClusterState() bool {
	ca, ok := o.r.(simcore.ClusterAware)
	return ok && ca.NeedsClusterState()
}

// A candidate's simulation gives the same result and records the same
// trace whether the engine evaluates its keys in batches or one by one.
func TestKeyBatchRecordsAsOneByOne(t *testing.T) {
	for _, set := range []string{"d,q,u,g", "d,q,u,g,a,r,w,f,n,e"} {
		cfg, err := configs.Load("quick")
		if err == nil {
			cfg, err = cfg.Override("gp.terminals="+set, "data.train=2", "data.validation=1")
		}
		if err != nil {
			t.Fatal(err)
		}
		train, _, err := LoadData(cfg)
		if err != nil {
			t.Fatal(err)
		}
		terms, err := expr.ParseTerminals(cfg.GP.Terminals)
		if err != nil {
			t.Fatal(err)
		}
		slots := termSlots(cfg.GP.Terminals)
		ev, err := newEvaluator(nil, nil, simcore.Options{Objective: simcore.DefaultObjective()}, false, 1, "mct", "bestfit", evo.DefaultParams())
		if err != nil {
			t.Fatal(err)
		}
		run := func(r simcore.Ranking, inst *simcore.Instance) simcore.Result {
			s, err := ev.candidate(r)
			if err != nil {
				t.Fatal(err)
			}
			res, err := simcore.Simulate(context.Background(), inst, s, ev.opts)
			if err != nil {
				t.Fatal(err)
			}
			res.Scheduler = ""
			return res
		}
		rng := rand.New(rand.NewPCG(8, 8))
		gs := expr.GenSettings{MinDepth: 1, MaxDepth: 5, Terminals: terms}
		for trial := range 12 {
			inst := &train[trial%len(train)]
			f := NewFormulaRanking(expr.Grow(rng, 1+rng.IntN(5), gs), false)
			recA := newRecording(slots, len(inst.Clusters), 0, 0)
			recB := newRecording(slots, len(inst.Clusters), 0, 0)
			a := run(viewRecorder{f: f, terms: slots, unit: 3600, rec: recA}, inst)
			b := run(oneByOne{viewRecorder{f: f, terms: slots, unit: 3600, rec: recB}}, inst)
			c := run(oneByOne{f}, inst)
			if !reflect.DeepEqual(a, b) || !reflect.DeepEqual(a, c) {
				t.Fatalf("%s: batch keys changed the result", set)
			}
			ta, tb := recA.trace(a.Metrics.Objective, 3600), recB.trace(b.Metrics.Objective, 3600)
			if ta == nil || tb == nil || ta.n == 0 {
				t.Fatalf("%s: no trace", set)
			}
			if !reflect.DeepEqual(ta.rows, tb.rows) || !reflect.DeepEqual(ta.vars, tb.vars) || !reflect.DeepEqual(ta.group, tb.group) ||
				!reflect.DeepEqual(bitsOf(ta.keys), bitsOf(tb.keys)) {
				t.Fatalf("%s: the batch recording differs from the one-by-one recording (%d and %d views)", set, ta.n, tb.n)
			}
		}
	}
}

func bitsOf(xs []float64) []uint64 {
	out := make([]uint64, len(xs))
	for i, x := range xs {
		out[i] = math.Float64bits(x)
	}
	return out
}

// BenchmarkKeyBatch simulates paper-config training instances under MCT
// with q-dependent formulas, keys evaluated in batches or one by one.
//
//	go test ./learn -run '^$' -bench KeyBatch -count 6
func BenchmarkKeyBatch(b *testing.B) {
	cfg, err := configs.Load("paper")
	if err == nil {
		cfg, err = cfg.Override("data.train=6", "data.validation=1")
	}
	if err != nil {
		b.Fatal(err)
	}
	train, _, err := LoadData(cfg)
	if err != nil {
		b.Fatal(err)
	}
	ev, err := newEvaluator(nil, nil, simcore.Options{Objective: simcore.DefaultObjective()}, false, 1, "mct", "bestfit", evo.DefaultParams())
	if err != nil {
		b.Fatal(err)
	}
	forms := []string{"d - q * q", "((q + g) % q - u) * (d % (q + (d + g - u) % (q * q)))"}
	for _, mode := range []string{"batch", "one-by-one"} {
		for fi, src := range forms {
			for _, i := range []int{0, 5} {
				f := NewFormulaRanking(expr.MustParse(src), false)
				var r simcore.Ranking = f
				if mode == "one-by-one" {
					r = oneByOne{f}
				}
				s, err := ev.candidate(r)
				if err != nil {
					b.Fatal(err)
				}
				b.Run(fmt.Sprintf("%s/formula=%d/inst=%d", mode, fi, i), func(b *testing.B) {
					for b.Loop() {
						if _, err := simcore.Simulate(context.Background(), &train[i], s, ev.opts); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		}
	}
}

package learn

import (
	"context"
	"errors"
	"math"
	mrand "math/rand"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/expr"
)

// regression is a toy Evaluator with no simulator: symbolic regression of
// target on a fixed grid of (d, q, u, g) points. A member's cases are its
// squared errors, its fitness their sum, its objectives (fitness, size)
// for NSGA-II.
type regression struct {
	points [][4]float64
	target func(d, q, u, g float64) float64
	begun  []int
}

func newRegression() *regression {
	p := &regression{target: func(d, q, u, g float64) float64 { return d*g + q }}
	for _, d := range []float64{0.5, 1, 2, 3} {
		for _, q := range []float64{0, 1, 4} {
			for _, u := range []float64{0.3, 2} {
				for _, g := range []float64{1, 2, 8} {
					p.points = append(p.points, [4]float64{d, q, u, g})
				}
			}
		}
	}
	return p
}

func (p *regression) Begin(g int, _ *rand.Rand) { p.begun = append(p.begun, g) }

func (p *regression) Evaluate(_ context.Context, pop Members, _ int) (EvalStats, error) {
	for i := range pop.Len() {
		t := pop.Genome(i).Ranking
		cases := make([]float64, len(p.points))
		sum := 0.0
		for k, x := range p.points {
			e := t.Eval(x[0], x[1], x[2], x[3]) - p.target(x[0], x[1], x[2], x[3])
			cases[k] = min(e*e, 1e12) // finite, so that crowding distances are
			if math.IsNaN(cases[k]) {
				cases[k] = 1e12
			}
			sum += cases[k]
		}
		pop.Set(i, Score{Fitness: sum, Cases: cases, Objectives: []float64{sum, float64(t.Size())}})
	}
	return EvalStats{Evaluations: pop.Len()}, nil
}

// countingRecorder records what the loop shows its recorders.
type countingRecorder struct {
	first, last int
	seen        []int
	done        int
	doneErr     error
}

func (c *countingRecorder) Init(first, last int) error { c.first, c.last = first, last; return nil }
func (c *countingRecorder) Record(_ context.Context, g *Generation) error {
	c.seen = append(c.seen, g.Number)
	if g.Population.Len() == 0 || g.Row.Best != g.Population.Fitness(0) {
		return errors.New("the recorder was shown another population than the row's")
	}
	return nil
}
func (c *countingRecorder) Done(err error) error { c.done++; c.doneErr = err; return nil }

// toyLoop is a Loop on the regression problem with sel's operators.
func toyLoop(sel Selection, p *regression, rec Recorder, seed uint64) *Loop {
	vs := expr.VarSettings{MaxDepth: 6, InternalProb: 0.9}
	gs := expr.GenSettings{MinDepth: 2, MaxDepth: 4}
	return &Loop{
		Size: 40, Generations: 25, HallOfFame: 5, Alpha: len(p.points),
		RNG: rand.New(rand.NewPCG(seed, 1)),
		Init: func(rng *rand.Rand) []Genome {
			var out []Genome
			for _, t := range expr.RampedHalfAndHalf(rng, 40, gs) {
				out = append(out, Genome{Ranking: t})
			}
			return out
		},
		Parents:    sel.Parents,
		Variations: []Variation{Crossover{P: 0.9, Ranking: vs}, SubtreeMutation{P: 0.2, Ranking: vs}},
		Evaluator:  p,
		Survival:   sel.Survival,
		Recorders:  []Recorder{rec},
	}
}

// The loop runs on a toy fitness with no simulator: with the registered
// scalar method it finds d·g + q (zero error on every point, and on
// points it never saw); with NSGA-II (error and size) it improves the
// error; both call the evaluator and the recorders once per generation and
// give the same run twice.
func TestLoopSolvesToyRegression(t *testing.T) {
	for _, name := range []string{"scalar", "nsga2"} {
		t.Run(name, func(t *testing.T) {
			sel, err := newSelection(configs.GP{Selection: name, Tournament: 3}, Selections(), false)
			if err != nil {
				t.Fatal(err)
			}
			run := func() (*Loop, *regression, *countingRecorder) {
				p, rec := newRegression(), &countingRecorder{}
				l := toyLoop(sel, p, rec, 7)
				if err := l.Run(context.Background()); err != nil {
					t.Fatal(err)
				}
				return l, p, rec
			}
			l, p, rec := run()
			if rec.first != 0 || rec.last != 25 || len(rec.seen) != 26 || rec.seen[25] != 25 || rec.done != 1 || rec.doneErr != nil {
				t.Fatalf("recorder saw init %d..%d, generations %v, done %d (%v)", rec.first, rec.last, rec.seen, rec.done, rec.doneErr)
			}
			if len(p.begun) != 26 || l.Generation() != 25 || len(l.Rows()) != 26 {
				t.Fatalf("evaluator begun %d times, last generation %d, %d rows", len(p.begun), l.Generation(), len(l.Rows()))
			}
			if rows := l.Rows(); !(rows[0].Best > rows[25].Best) {
				t.Errorf("no progress: best %g at generation 0, %g at 25", rows[0].Best, rows[25].Best)
			}
			// NSGA-II keeps small trees on its front: it need not solve
			// the problem in 25 generations.
			best := l.Survivors().Genome(0).Ranking
			if name == "scalar" && l.Survivors().Fitness(0) != 0 {
				t.Fatalf("best %s has error %g after 25 generations", best, l.Survivors().Fitness(0))
			}
			for _, x := range [][4]float64{{7, 5, 1, 3}, {0.25, 9, 2, 11}} {
				if name != "scalar" {
					break
				}
				if got, want := best.Eval(x[0], x[1], x[2], x[3]), p.target(x[0], x[1], x[2], x[3]); math.Abs(got-want) > 1e-9*math.Abs(want) {
					t.Fatalf("best %s gives %g at %v, d·g + q = %g", best, got, x, want)
				}
			}
			l2, _, _ := run()
			a, b := slices.Clone(l.Rows()), slices.Clone(l2.Rows())
			for i := range a {
				a[i].WallSeconds, b[i].WallSeconds = 0, 0
			}
			if !slices.Equal(a, b) {
				t.Error("the same loop gave two different runs")
			}
		})
	}
}

// uniformParents is a parent selection defined in this test file alone:
// two distinct members drawn uniformly (selection pressure then comes
// from survival alone, as in a (μ + λ) evolution strategy).
type uniformParents struct{ pairs *int }

func (u uniformParents) Pair(pop Parents, mr *mrand.Rand) (int, int, error) {
	*u.pairs++
	n := pop.Len()
	i := mr.Intn(n)
	return i, (i + 1 + mr.Intn(n-1)) % n, nil
}

// Two registered selection methods run through the same loop: the
// built-in scalar one and one registered here alone (no line of
// selection.go knows it). Each is built by name from the registry, runs
// on the toy fitness, and improves it; the test one's operator is the one
// the loop called.
func TestRegisteredSelectionsShareTheLoop(t *testing.T) {
	pairs := 0
	methods := Selections()
	methods["uniform"] = func(configs.GP) (Selection, error) {
		return Selection{Parents: uniformParents{&pairs}, Survival: MuPlusLambda{}}, nil
	}
	for _, name := range []string{"scalar", "uniform"} {
		sel, err := newSelection(configs.GP{Selection: name, Tournament: 3}, methods, false)
		if err != nil {
			t.Fatal(err)
		}
		before := pairs
		p := newRegression()
		l := toyLoop(sel, p, &countingRecorder{}, 11)
		if err := l.Run(context.Background()); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		rows := l.Rows()
		if !(rows[len(rows)-1].Best < rows[0].Best) {
			t.Errorf("%s: best %g at generation 0, %g at the end", name, rows[0].Best, rows[len(rows)-1].Best)
		}
		if used := pairs > before; used != (name == "uniform") {
			t.Errorf("%s: the test's parent selection was called %d times", name, pairs-before)
		}
	}
	if _, err := newSelection(configs.GP{Selection: "uniform"}, Selections(), false); err == nil {
		t.Error("a method registered in one registry leaked into another")
	}
}

// A loop restored from the State and RNG state another loop saved after
// generation 10 — only exported API, as an outside checkpoint would use —
// finishes exactly like the uninterrupted one.
func TestLoopResumesExactly(t *testing.T) {
	sel, err := newSelection(configs.GP{Selection: "scalar", Tournament: 3}, Selections(), false)
	if err != nil {
		t.Fatal(err)
	}
	whole := toyLoop(sel, newRegression(), &countingRecorder{}, 3)
	if err := whole.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	pcg := rand.NewPCG(3, 1)
	first := toyLoop(sel, newRegression(), &countingRecorder{}, 3)
	first.RNG, first.Generations = rand.New(pcg), 10
	if err := first.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	saved, err := pcg.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	state := first.State()
	restored := rand.NewPCG(0, 0)
	if err := restored.UnmarshalBinary(saved); err != nil {
		t.Fatal(err)
	}
	rec := &countingRecorder{}
	rest := toyLoop(sel, newRegression(), rec, 99) // its own seed is replaced
	rest.RNG = rand.New(restored)
	if err := rest.Restore(state); err != nil {
		t.Fatal(err)
	}
	if err := rest.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if rec.first != 11 || len(rec.seen) != 15 {
		t.Fatalf("the resumed loop ran generations %v from %d", rec.seen, rec.first)
	}
	a, b := slices.Clone(whole.Rows()), slices.Clone(rest.Rows())
	for i := range a {
		a[i].WallSeconds, b[i].WallSeconds = 0, 0
	}
	if !slices.Equal(a, b) {
		t.Error("the resumed loop's rows differ from the uninterrupted one's")
	}
	for i := range whole.Survivors().Len() {
		if whole.Survivors().Hash(i) != rest.Survivors().Hash(i) {
			t.Fatalf("survivor %d differs after resuming", i)
		}
	}
	if len(whole.Hall()) != len(rest.Hall()) || whole.Hall()[0].Tree.String() != rest.Hall()[0].Tree.String() {
		t.Error("the resumed loop's hall of fame differs")
	}
	bad := state
	bad.Rows = bad.Rows[:3]
	if err := rest.Restore(bad); err == nil {
		t.Error("a state with too few rows was restored")
	}
}

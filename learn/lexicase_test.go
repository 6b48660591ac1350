package learn

import (
	"bytes"
	"context"
	"math"
	mrand "math/rand"
	"path/filepath"
	"strings"
	"testing"
)

// parentsOf is Parents over hand-made case vectors (fitness: their sum).
type parentsOf [][]float64

func (p parentsOf) Len() int { return len(p) }
func (p parentsOf) Fitness(i int) float64 {
	if p[i] == nil {
		return math.Inf(1)
	}
	s := 0.0
	for _, v := range p[i] {
		s += v
	}
	return s
}
func (p parentsOf) Cases(i int) []float64 { return p[i] }

// By hand: the median absolute deviation of {1, 2, 4, 8} is 1.5 (median
// 3, deviations {2, 1, 1, 5}); of an odd count the middle value.
func TestMedianAbsoluteDeviationByHand(t *testing.T) {
	for _, c := range []struct {
		xs   []float64
		want float64
	}{{[]float64{1, 2, 4, 8}, 1.5}, {[]float64{5}, 0}, {nil, 0}, {[]float64{1, 1, 2, 2, 4, 6, 9}, 1}} {
		if got := medianAbsoluteDeviation(c.xs); got != c.want {
			t.Errorf("MAD(%v) = %v, want %v", c.xs, got, c.want)
		}
	}
}

// ε-lexicase by hand. Member 0 is best on the mean but starves case 1;
// members 1 and 2 are within ε of the best on every case; member 3 is bad
// everywhere and member 4 is pruned (no cases). On case 0 the terms are
// {0.1, 0.3, 0.32, 0.9}: MAD 0.11 (median 0.31, deviations {0.21, 0.01,
// 0.01, 0.59}), so a shuffle starting with case 0 keeps only member 0 (0.3
// > 0.1 + 0.11); one starting with case 1 ({2, 0.5, 0.5, 0.9}: median 0.7,
// MAD 0.2) keeps members 1 and 2 and then case 0 keeps 1 and 2 again
// (|0.3 − 0.32| ≤ 0.11), so a coin decides. Over many events: member 0
// wins about half, 1 and 2 about a quarter each, 3 and 4 never; the second
// parent differs from the first.
func TestEpsilonLexicaseByHand(t *testing.T) {
	pop := parentsOf{{0.1, 2}, {0.3, 0.5}, {0.32, 0.5}, {0.9, 0.9}, nil}
	mr := mrand.New(mrand.NewSource(1))
	wins := make([]int, len(pop))
	const n = 4000
	for range n {
		a, b, err := (EpsilonLexicase{}).Pair(pop, mr)
		if err != nil {
			t.Fatal(err)
		}
		if a == b {
			t.Fatalf("the pair (%d, %d) is one member", a, b)
		}
		wins[a]++
	}
	if wins[3] != 0 || wins[4] != 0 {
		t.Fatalf("dominated or pruned members chosen first: %v", wins)
	}
	for i, want := range []float64{0.5, 0.25, 0.25} {
		if got := float64(wins[i]) / n; math.Abs(got-want) > 0.04 {
			t.Errorf("member %d chosen first %.3f of the time, want about %.2f (%v)", i, got, want, wins)
		}
	}
	// A tournament of 4 of 5 on the same population always samples
	// member 1 or 2 (fitness 0.8, 0.82), so member 0 (2.1) never wins.
	tr := mrand.New(mrand.NewSource(2))
	for range 500 {
		if a, _, err := (Tournament{K: 4}).Pair(pop, tr); err != nil || a == 0 {
			t.Fatalf("tournament of 4 of 5: first winner %d (%v)", a, err)
		}
	}
}

// Only pruned members left: one of them is chosen (no panic, no error).
func TestEpsilonLexicaseWithoutCases(t *testing.T) {
	a, b, err := (EpsilonLexicase{}).Pair(parentsOf{nil, nil, {1}}, mrand.New(mrand.NewSource(3)))
	if err != nil || a == b {
		t.Fatalf("got (%d, %d, %v)", a, b, err)
	}
}

// gp.parent_selection: lexicase runs from the CLI's config path: it is
// deterministic across worker counts, resumes byte-identically after an
// interruption, and learns something else than tournament on the same
// seed (the operator is really used); an unknown name is one clear error
// and nsga2 refuses it.
func TestLexicaseRunDeterministicAndResumable(t *testing.T) {
	base := []string{"gp.parent_selection=lexicase", "gp.generations=4", "gp.population=12", "gp.subset=3"}
	cfg := testConfig(t, base...)
	ref := filepath.Join(t.TempDir(), "ref")
	want, err := Run(context.Background(), settings(t, cfg, ref))
	if err != nil {
		t.Fatal(err)
	}
	cfg4 := testConfig(t, append(base, "gp.workers=4")...)
	w4 := filepath.Join(t.TempDir(), "w4")
	got4, err := Run(context.Background(), settings(t, cfg4, w4))
	if err != nil {
		t.Fatal(err)
	}
	rowsEqual(t, want.Generations, got4.Generations)
	if !bytes.Equal(readFile(t, filepath.Join(ref, BestFile)), readFile(t, filepath.Join(w4, BestFile))) {
		t.Fatal("best.json differs between 1 and 4 workers")
	}

	dir := filepath.Join(t.TempDir(), "run")
	interruptAfter(t, cfg, dir, 2)
	if !bytes.Contains(readFile(t, filepath.Join(dir, CheckpointDir, "state.json")), []byte(`"cases"`)) {
		t.Fatal("a lexicase checkpoint has no per-instance cases")
	}
	res, err := Resume(context.Background(), dir, settings(t, cfg, ""))
	if err != nil {
		t.Fatal(err)
	}
	rowsEqual(t, want.Generations, res.Generations)
	for _, f := range []string{BestFile, HallFile} {
		if !bytes.Equal(readFile(t, filepath.Join(ref, f)), readFile(t, filepath.Join(dir, f))) {
			t.Errorf("%s differs after resume", f)
		}
	}

	tour, err := Run(context.Background(), settings(t, testConfig(t, base[1:]...), filepath.Join(t.TempDir(), "tour")))
	if err != nil {
		t.Fatal(err)
	}
	same := true
	for i := range tour.Generations {
		same = same && tour.Generations[i].BestFormula == want.Generations[i].BestFormula && tour.Generations[i].Median == want.Generations[i].Median
	}
	if same {
		t.Fatal("lexicase and tournament runs are identical: the operator is not used")
	}

	bad := testConfig(t, "gp.parent_selection=roulette")
	if _, err := Run(context.Background(), settings(t, bad, filepath.Join(t.TempDir(), "bad"))); err == nil || !strings.Contains(err.Error(), `gp.parent_selection = "roulette": unknown (have lexicase, tournament)`) {
		t.Fatalf("unknown parent selection: %v", err)
	}
	if _, err := cfg.Override("gp.selection=nsga2", "objective.kind=multi", "gp.objectives=[cq_avg,cq_max]"); err == nil || !strings.Contains(err.Error(), "parent_selection") {
		t.Fatalf("nsga2 with lexicase: %v", err)
	}
}

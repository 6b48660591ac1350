package learn

import (
	"bytes"
	"context"
	"math"
	"path/filepath"
	"testing"

	"github.com/evogp/evogp/configs"
)

// pickScore by hand: objectives 2, 1, 9 against SRSF's 1, 2, 3 are the
// ratios 2, 0.5, 3: mean 5.5/3, worst 3, pooled (2+1+9)/(1+2+3) = 2. An
// instance where SRSF scores 0 is not divided by (normalise): 0 against 0
// is 1 and 3 against 0 is 1 + 3.
func TestPickScoreByHand(t *testing.T) {
	obj, base := []float64{2, 1, 9}, []float64{1, 2, 3}
	zeroObj, zeroBase := []float64{0, 3}, []float64{0, 0}
	for _, c := range []struct {
		criterion string
		obj, base []float64
		want      float64
	}{
		{"", obj, base, 5.5 / 3},
		{"mean", obj, base, 5.5 / 3},
		{"pooled", obj, base, 2},
		{"mean+worst", obj, base, 5.5/3 + 3},
		{"mean", zeroObj, zeroBase, 2.5},
		{"pooled", zeroObj, zeroBase, 4},
		{"mean+worst", zeroObj, zeroBase, 2.5 + 4},
	} {
		if got := pickScore(c.criterion, c.obj, c.base); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("pickScore(%q, %v, %v) = %v, want %v", c.criterion, c.obj, c.base, got, c.want)
		}
	}
	// The mean is the validation score validate always reported: the float
	// sum of the ratios in instance order, divided by n.
	if got, want := pickScore("mean", obj, base), (2.0+0.5+3.0)/3; got != want {
		t.Errorf("mean = %v, want exactly %v", got, want)
	}
	for _, name := range configs.PickCriteria() {
		pickScore(name, obj, base) // every listed criterion is implemented (no panic)
	}
}

// finish picks the candidate with the lowest gp.pick criterion on
// validation, and best.json's validation score stays its mean. The
// expected pick is computed here from each candidate's validation
// objectives with the formulas written out again; the candidates are chosen
// so that the criteria do not all agree (else the test could not tell them
// apart).
func TestFinishPicksByGpPick(t *testing.T) {
	// On smoke's data the three criteria pick three different candidates
	// (mean: q, pooled: 0 - a, mean+worst: g * d), with no tie.
	formulas := []string{"0 - a", "d", "0 - d", "g", "q", "g * d", "a * d"}
	picks := map[string]string{}
	for _, criterion := range configs.PickCriteria() {
		cfg := testConfig(t, "gp.pick="+criterion, "gp.population=2", "data.train=2", "data.validation=6", "data.test=0")
		r, err := prepare(context.Background(), settings(t, cfg, ""))
		if err != nil {
			t.Fatal(err)
		}
		r.dir = t.TempDir()
		if err := r.ev.baselines(context.Background()); err != nil {
			t.Fatal(err)
		}
		var inds []individual
		r.pop = nil
		for _, f := range formulas {
			tr := mustParse(t, f)
			r.pop = append(r.pop, scored{tree: tr, hash: individualHash(nil, tr)})
			inds = append(inds, individual{ranking: tr})
		}
		r.hall = nil
		r.rows = []GenerationRow{{Best: 2, Median: 2, Worst: 2, BestFormula: formulas[0], Size: 3, Depth: 2, Unique: 1}}
		obj, err := r.ev.validationObjectives(context.Background(), inds)
		if err != nil {
			t.Fatal(err)
		}
		base := r.ev.baseVal
		score := func(o []float64) (crit, mean float64) {
			var sumR, worst, sumO, sumB float64
			for i := range o {
				ratio := o[i] / base[i]
				if base[i] == 0 {
					t.Fatalf("validation instance %d: SRSF scores 0, pick another config", i)
				}
				sumR += ratio
				worst = math.Max(worst, ratio)
				sumO += o[i]
				sumB += base[i]
			}
			mean = sumR / float64(len(o))
			switch criterion {
			case "pooled":
				return sumO / sumB, mean
			case "mean+worst":
				return mean + worst, mean
			}
			return mean, mean
		}
		best, bestCrit, bestMean := -1, math.Inf(1), 0.0
		for i, o := range obj {
			if c, m := score(o); c < bestCrit {
				best, bestCrit, bestMean = i, c, m
			}
		}
		res := &Result{Generations: r.rows}
		if err := r.finish(context.Background(), res); err != nil {
			t.Fatal(err)
		}
		if got := res.Best.String(); got != formulas[best] {
			t.Errorf("gp.pick=%s picked %s, want %s (criterion %v)", criterion, got, formulas[best], bestCrit)
		}
		if math.Abs(res.Validation-bestMean) > 1e-12 {
			t.Errorf("gp.pick=%s: validation score %v, want the pick's mean %v", criterion, res.Validation, bestMean)
		}
		picks[criterion] = formulas[best]
	}
	if picks["mean"] == picks["pooled"] || picks["mean"] == picks["mean+worst"] || picks["pooled"] == picks["mean+worst"] {
		t.Errorf("picks %v: two criteria agree, so the candidates do not tell them apart", picks)
	}
}

// The quick config (gp.pick: pooled) at a reduced budget: best.json and
// the hall of fame are byte-identical at 1 and 2 workers and after an
// interruption and --resume, and the pick never changes the evolution —
// the generation rows equal those of the same run picking by the mean.
func TestPickRunDeterministicAndResumable(t *testing.T) {
	quick := func(over ...string) configs.Config {
		t.Helper()
		cfg, err := configs.Load("quick")
		if err != nil {
			t.Fatal(err)
		}
		if cfg.GP.Pick != "pooled" {
			t.Fatalf("quick's gp.pick = %q, want pooled", cfg.GP.Pick)
		}
		cfg, err = cfg.Override(append([]string{"gp.population=9", "gp.generations=3", "gp.subset=2", "data.train=3", "data.validation=4", "data.test=0", "generator.clusters=[2,3]", "generator.nodes=[4,8]", "gp.workers=1"}, over...)...)
		if err != nil {
			t.Fatal(err)
		}
		return cfg
	}
	cfg := quick()
	ref := filepath.Join(t.TempDir(), "ref")
	want, err := Run(context.Background(), settings(t, cfg, ref))
	if err != nil {
		t.Fatal(err)
	}
	w2 := filepath.Join(t.TempDir(), "w2")
	got2, err := Run(context.Background(), settings(t, quick("gp.workers=2"), w2))
	if err != nil {
		t.Fatal(err)
	}
	rowsEqual(t, want.Generations, got2.Generations)
	for _, f := range []string{BestFile, HallFile} {
		if !bytes.Equal(readFile(t, filepath.Join(ref, f)), readFile(t, filepath.Join(w2, f))) {
			t.Errorf("%s differs between 1 and 2 workers", f)
		}
	}

	dir := filepath.Join(t.TempDir(), "run")
	interruptAfter(t, cfg, dir, 1)
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

	mean, err := Run(context.Background(), settings(t, quick("gp.pick=mean"), filepath.Join(t.TempDir(), "mean")))
	if err != nil {
		t.Fatal(err)
	}
	rowsEqual(t, want.Generations, mean.Generations)
}

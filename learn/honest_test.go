package learn

import (
	"bytes"
	"context"
	"errors"
	"go/build"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/policies"
	"github.com/evogp/evogp/simcore"
)

// The constant warning fires on g − g and not on g · d; g · d (SRSF) is
// reported as ranking exactly like srsf, and a formula mixing q in is not
// equivalent to any reference.
func TestWarnings(t *testing.T) {
	cfg := testConfig(t, "data.validation=2")
	_, val, err := LoadData(cfg)
	if err != nil {
		t.Fatal(err)
	}
	has := func(ws []string, s string) bool {
		for _, w := range ws {
			if strings.Contains(w, s) {
				return true
			}
		}
		return false
	}
	for _, tc := range []struct {
		formula            string
		constant, sameAsTo bool
		like               string
	}{
		{"g - g", true, true, "like fifo"},
		{"g * d", false, true, "like srsf"},
		{"0 - g * d", false, false, ""},
	} {
		ws, err := Warnings(context.Background(), cfg, expr.MustParse(tc.formula), val, 64)
		if err != nil {
			t.Fatal(err)
		}
		if got := has(ws, "constant"); got != tc.constant {
			t.Errorf("%s: constant warning %v, want %v: %q", tc.formula, got, tc.constant, ws)
		}
		if got := has(ws, "ranks jobs exactly like"); got != tc.sameAsTo {
			t.Errorf("%s: equivalence warning %v, want %v: %q", tc.formula, got, tc.sameAsTo, ws)
		}
		if tc.like != "" && !has(ws, tc.like) {
			t.Errorf("%s: no warning says %q: %q", tc.formula, tc.like, ws)
		}
	}
}

// The test table on hand-checkable identities: the constant priority is
// FIFO under mct + best fit, so it scores exactly like liquid; SRSF is
// tiresias; every instance hands out one win in total; normalised values
// are objective ÷ SRSF's.
func TestScoreOnTest(t *testing.T) {
	cfg := testConfig(t)
	test, err := LoadTest(cfg)
	if err != nil || len(test) != cfg.Data.Test {
		t.Fatalf("LoadTest: %d instances, %v", len(test), err)
	}
	tab, err := ScoreOnTest(context.Background(), cfg, expr.MustParse("g * d + q"), test, 2)
	if err != nil {
		t.Fatal(err)
	}
	names := []string{RowLearned}
	names = append(names, policies.Baselines()...)
	names = append(names, RowConstant, RowSRSF)
	if len(tab.Rows) != len(names) {
		t.Fatalf("%d rows, want %v", len(tab.Rows), names)
	}
	wins := 0.0
	for i, r := range tab.Rows {
		if r.Scheduler != names[i] || len(r.Objectives) != len(test) {
			t.Fatalf("row %d: %+v", i, r)
		}
		wins += r.Wins
		if (r.WilcoxonP == nil) != (r.Scheduler == tab.BestBaseline) {
			t.Errorf("row %s: Wilcoxon p %v (best baseline %s)", r.Scheduler, r.WilcoxonP, tab.BestBaseline)
		}
		if r.Scheduler != tab.BestBaseline && r.Better+r.Ties+r.Worse != len(test) {
			t.Errorf("row %s: %d/%d/%d of %d", r.Scheduler, r.Better, r.Ties, r.Worse, len(test))
		}
	}
	if math.Abs(wins-float64(len(test))) > 1e-9 {
		t.Errorf("wins sum to %v over %d instances", wins, len(test))
	}
	c, l, s, ti := tab.Row(RowConstant), tab.Row("liquid"), tab.Row(RowSRSF), tab.Row("tiresias")
	for i := range test {
		if c.Objectives[i] != l.Objectives[i] {
			t.Errorf("instance %d: constant %v ≠ liquid %v", i, c.Objectives[i], l.Objectives[i])
		}
		if s.Objectives[i] != ti.Objectives[i] {
			t.Errorf("instance %d: srsf %v ≠ tiresias %v", i, s.Objectives[i], ti.Objectives[i])
		}
	}
	if s.Normalised != 1 || c.Ties != len(test) && tab.BestBaseline == "liquid" {
		t.Errorf("srsf normalised %v; constant vs liquid %d/%d/%d", s.Normalised, c.Better, c.Ties, c.Worse)
	}
	want := 0.0
	for i := range test {
		want += l.Objectives[i] / s.Objectives[i] / float64(len(test))
	}
	if math.Abs(l.Normalised-want) > 1e-12 {
		t.Errorf("liquid normalised %v, want %v", l.Normalised, want)
	}
	var buf bytes.Buffer
	if err := tab.WriteText(&buf); err != nil || !strings.Contains(buf.String(), "best baseline: "+tab.BestBaseline+", chosen "+BasisTestSplit) {
		t.Errorf("text table: %v\n%s", err, buf.String())
	}
	// Against a baseline chosen on validation (here the test split's worst
	// one, so that it differs), every comparison is with it and says so.
	worst := ""
	for _, r := range tab.Rows {
		if r.Baseline && (worst == "" || r.Normalised > tab.Row(worst).Normalised) {
			worst = r.Scheduler
		}
	}
	if worst == tab.BestBaseline {
		t.Fatalf("every baseline scores alike on the test split; pick another fixture")
	}
	if err := tab.AgainstBaseline(worst, BasisValidation); err != nil {
		t.Fatal(err)
	}
	wb := tab.Row(worst).Objectives
	for _, r := range tab.Rows {
		if (r.WilcoxonP == nil) != (r.Scheduler == worst) {
			t.Errorf("row %s: Wilcoxon p %v against %s", r.Scheduler, r.WilcoxonP, worst)
		}
		better := 0
		for i, o := range r.Objectives {
			if o < wb[i] {
				better++
			}
		}
		if r.Scheduler != worst && r.Better != better {
			t.Errorf("row %s: better on %d, want %d against %s", r.Scheduler, r.Better, better, worst)
		}
	}
	buf.Reset()
	if err := tab.WriteText(&buf); err != nil || !strings.Contains(buf.String(), "best baseline: "+worst+", chosen on the validation set") {
		t.Errorf("text table: %v\n%s", err, buf.String())
	}
	if err := tab.AgainstBaseline(RowSRSF, BasisValidation); err == nil {
		t.Error("srsf (not a baseline row) accepted as best baseline")
	}
}

// A run directory is never a Go package (formula source is formula.go.txt),
// and best.json carries the test table, the baselines and the warnings.
func TestRunDirectoryIsNotAGoPackage(t *testing.T) {
	cfg := testConfig(t, "gp.generations=2")
	out := filepath.Join(t.TempDir(), "run")
	res, err := Run(context.Background(), settings(t, cfg, out))
	if err != nil {
		t.Fatal(err)
	}
	_, err = build.ImportDir(out, 0)
	var noGo *build.NoGoError
	if !errors.As(err, &noGo) {
		t.Errorf("run directory %s is a Go package (or unreadable): %v", out, err)
	}
	if src := readFile(t, filepath.Join(out, FormulaGoFile)); !bytes.Contains(src, []byte("func priority(")) {
		t.Errorf("%s holds no priority function", FormulaGoFile)
	}
	best, err := ReadBest(filepath.Join(out, BestFile))
	if err != nil {
		t.Fatal(err)
	}
	if best.Test == nil || best.Test.Instances != cfg.Data.Test || res.Test == nil || len(best.ValidationBaselines) != len(policies.Baselines()) || best.BestBaseline == "" {
		t.Errorf("best.json lacks the honest report: test %+v, baselines %+v", best.Test, best.ValidationBaselines)
	}
	if !strings.Contains(Headline(res), "best baseline "+best.BestBaseline) {
		t.Errorf("headline %q does not compare with %s", Headline(res), best.BestBaseline)
	}
}

// The terminal set, constants, seeds, behavioural de-duplication and the
// validation curve all survive an interruption: the resumed run writes the
// same best.json, which records the terminal set, and export (expr.Format)
// of its tree round-trips. A best.json whose formula uses a terminal
// outside its recorded set is refused.
func TestTerminalSetRoundTrip(t *testing.T) {
	cfg := testConfig(t, "gp.generations=4", "gp.population=12", "gp.terminals=d,q,g,a,w,s", "gp.constants=true",
		"gp.seed_formulas=g * d,0 - a", "gp.dedup=behaviour", "gp.validate_every=2")
	ref := filepath.Join(t.TempDir(), "ref")
	if _, err := Run(context.Background(), settings(t, cfg, ref)); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "run")
	interruptAfter(t, cfg, dir, 2)
	stored, err := RunConfig(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Resume(context.Background(), dir, settings(t, stored, "")); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{BestFile, HallFile, FormulaGoFile, PlotName + ".svg"} {
		if !bytes.Equal(readFile(t, filepath.Join(ref, f)), readFile(t, filepath.Join(dir, f))) {
			t.Errorf("%s differs after resume", f)
		}
	}
	best, err := ReadBest(filepath.Join(dir, BestFile))
	if err != nil {
		t.Fatal(err)
	}
	want, _ := expr.ParseTerminals([]string{"d", "q", "g", "a", "w", "s"})
	if best.Terminals != want || !best.Constants || best.Tree.Terminals().Minus(want) != 0 {
		t.Errorf("best.json terminals %v (constants %v), tree %s", best.Terminals, best.Constants, best.Tree)
	}
	if len(best.ValidationCurve) != 3 || best.ValidationCurve[1].Generation != 2 || best.ValidationCurve[2].Generation != 4 {
		t.Errorf("validation curve %+v, want generations 0, 2 and 4", best.ValidationCurve)
	}
	for _, format := range []string{"infix", "json"} {
		out, err := expr.Format(best.Tree, format)
		if err != nil {
			t.Fatal(err)
		}
		var back *expr.Tree
		if format == "infix" {
			back, err = expr.Parse(out)
		} else {
			back = new(expr.Tree)
			err = back.UnmarshalJSON([]byte(out))
		}
		if err != nil || !back.Equal(best.Tree) {
			t.Errorf("export %s round trip: %v", format, err)
		}
	}
	// A formula over a terminal the recorded set lacks is an error.
	b := readFile(t, filepath.Join(dir, BestFile))
	bad := bytes.Replace(b, []byte(`"terminals": [`), []byte(`"terminals": ["e", `), 1)
	bad = bytes.Replace(bad, []byte(`"tree": `), []byte(`"tree": ["+", "n", `), 1)
	i := bytes.Index(bad, []byte(`"tree": ["+", "n", `))
	j := bytes.Index(bad[i:], []byte(",\n  \"infix\""))
	bad = append(append(append([]byte{}, bad[:i+j]...), ']'), bad[i+j:]...)
	p := filepath.Join(t.TempDir(), "best.json")
	if err := os.WriteFile(p, bad, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadBest(p); err == nil || !strings.Contains(err.Error(), "outside the terminal set") {
		t.Errorf("best.json with n outside its terminal set: %v", err)
	}
	// Seeds outside the terminal set are refused before anything runs.
	bcfg := testConfig(t, "gp.terminals=d,q", "gp.seed_formulas=g * d")
	if _, err := Run(context.Background(), settings(t, bcfg, filepath.Join(t.TempDir(), "x"))); err == nil || !strings.Contains(err.Error(), "gp.seed_formulas") {
		t.Errorf("seed outside the terminal set: %v", err)
	}
	if _, err := Run(context.Background(), settings(t, testConfig(t, "gp.terminals=d,x"), filepath.Join(t.TempDir(), "y"))); err == nil || !strings.Contains(err.Error(), "gp.terminals") {
		t.Errorf("unknown terminal: %v", err)
	}
}

// Seed formulas are in the initial population; with behavioural
// de-duplication no two members of a population share a phenotype while
// enough phenotypes exist.
func TestSeedsAndDedup(t *testing.T) {
	cfg := testConfig(t, "gp.generations=3", "gp.population=10", "gp.seed_formulas=g * d,0 - q,d", "gp.dedup=behaviour")
	s := settings(t, cfg, filepath.Join(t.TempDir(), "run"))
	s.OnGeneration = func(snap Snapshot) {
		if snap.Row.Generation == 0 {
			for _, f := range []string{"g * d", "0 - q", "d"} {
				found := false
				for _, m := range snap.Population {
					found = found || m.Tree.Equal(expr.MustParse(f))
				}
				if !found {
					t.Errorf("seed %s not in the initial population", f)
				}
			}
		}
	}
	if _, err := Run(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	r, err := prepare(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.decisions) == 0 {
		t.Fatal("no decisions sampled")
	}
	// g·d and 2·g·d are the same behaviour, d and −q are others: survival
	// of 3 keeps one of the twins, survival of 4 needs the twin to fill.
	mk := func(f string, fit float64) scored {
		tr := expr.MustParse(f)
		return scored{tree: tr, hash: tr.Hash(), fitness: fit}
	}
	all := func() []scored { return []scored{mk("0 - q", 3), mk("g * d * 2", 1.5), mk("d", 2), mk("g * d", 1)} }
	a := all()
	r.setPhenotypes(a)
	if a[1].pheno != a[3].pheno || a[2].pheno == a[3].pheno || a[0].pheno == a[2].pheno {
		t.Fatalf("phenotypes %x %x %x %x", a[0].pheno, a[1].pheno, a[2].pheno, a[3].pheno)
	}
	got := func(pop []scored) string {
		var fs []string
		for _, c := range pop {
			fs = append(fs, c.tree.String())
		}
		return strings.Join(fs, ", ")
	}
	if g := got(survivors(Dedup{Inner: MuPlusLambda{}}, a, 3)); g != "g * d, d, 0 - q" {
		t.Errorf("distinct survival of 3: %s", g)
	}
	a = all()
	r.setPhenotypes(a)
	if g := got(survivors(Dedup{Inner: MuPlusLambda{}}, a, 4)); g != "g * d, g * d * 2, d, 0 - q" {
		t.Errorf("distinct survival of 4: %s", g)
	}
	if g := got(survivors(MuPlusLambda{}, all(), 3)); g != "g * d, g * d * 2, d" {
		t.Errorf("plain survival of 3: %s", g)
	}
}

// configs/paper.yaml keeps the paper's learner: terminals d, q, u, g, no
// constants, mct + formula + best fit, no seeds, plain survival.
func TestPaperConfigIsThePapersLearner(t *testing.T) {
	cfg, err := configs.Load("paper")
	if err != nil {
		t.Fatal(err)
	}
	gp := cfg.GP
	terms, err := expr.ParseTerminals(gp.Terminals)
	if err != nil || terms != expr.PaperTerminals || gp.Constants || gp.Allocator != "mct" || gp.Placer != "bestfit" ||
		len(gp.SeedFormulas) != 0 || gp.Dedup != "none" || gp.Subset != 3 || gp.Population != 512 || gp.Generations != 100 {
		t.Errorf("paper config's learner: %+v", gp)
	}
	if def := configs.Default().GP; !reflect.DeepEqual(def, gp) {
		t.Errorf("paper GP section differs from the defaults:\n%+v\n%+v", gp, def)
	}
}

// w − a − w is −a up to rounding: on jobs that arrived together with
// different w the rounding orders them by w, not by id as FIFO does, so the
// orders are not identical, but the formula never contradicts FIFO's
// strict order. The values are those of a Philly decision on which the
// exact-equivalence check alone stayed silent.
func TestCompareOrdersUpToTies(t *testing.T) {
	now := int64(234229 + 293)
	d := decision{
		{ID: 72066, Arrival: 234229, Now: now, Workers: 1, PerWorker: 1, GPUs: 1},
		{ID: 72256, Arrival: 234229, Now: now, Workers: 1, PerWorker: 2, GPUs: 2},
		{ID: 72300, Arrival: 234300, Now: now, Workers: 1, PerWorker: 1, GPUs: 1},
	}
	formula := NewFormulaRanking(expr.MustParse("w - a - w"), false)
	if k0, k1 := formula.Priority(d[0]), formula.Priority(d[1]); !(k1 < k0) {
		t.Fatalf("the case needs rounding to put the w = 2 job first: keys %v, %v", k0, k1)
	}
	for _, tc := range []struct {
		name       string
		a          simcore.Ranking
		same, tied int
	}{
		{"w-a-w vs fifo", formula, 0, 1},
		{"fifo vs fifo", simcore.FIFO{}, 1, 0},
		{"-a in seconds vs fifo", NewFormulaRanking(expr.MustParse("0 - a"), true), 1, 0},
		{"0-g*a vs fifo (orders the tie by g)", NewFormulaRanking(expr.MustParse("0 - g * a"), false), 0, 1},
		{"a vs fifo (newest first)", NewFormulaRanking(expr.MustParse("a"), false), 0, 0},
	} {
		same, tied := compareOrders(tc.a, simcore.FIFO{}, []decision{d})
		if same != tc.same || tied != tc.tied {
			t.Errorf("%s: same %d, tied %d; want %d, %d", tc.name, same, tied, tc.same, tc.tied)
		}
	}
}

package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/evogp/evogp/internal/pareto"
	"github.com/evogp/evogp/learn"
	"github.com/evogp/evogp/reports"
	"github.com/evogp/evogp/runfile"
)

func main() {
	results := flag.String("results", "", "results.parquet of the eval (a comma list: evals of the same dataset)")
	run := flag.String("run", "", "the front run's directory (best.json)")
	label := flag.String("front", "front", "the front's label in the eval")
	objs := flag.String("objectives", "avg_jct,max_qt", "the front's objectives")
	sweep := flag.String("sweep", "", "LABEL=ω,… of the scalar runs in the eval")
	srsf := flag.String("srsf", "mct+srsf+bestfit", "the SRSF scheduler's label")
	bases := flag.String("baselines", "spark,liquid,tiresias,lyra", "baseline labels")
	third := flag.Float64("third", 0, "weight of the third objective (three objectives)")
	eq5 := flag.String("eq5", "", "if set, a comma list of the baselines of issue 42's Eq. 5 check (e.g. spark,liquid,tiresias,lyra,wait-first,evo-srsf)")
	own := ownEvals{}
	flag.Var(own, "eq5-own", "ω1,ω2,ω3=results.parquet of an eval run with --weights ω1,ω2,ω3 (repeatable): its -eq5 baselines count as more baselines of that vector (EVO optimises the weights it is given)")
	flag.Parse()
	if err := study(*results, *run, *label, strings.Split(*objs, ","), *sweep, *srsf, strings.Split(*bases, ","), *third); err != nil {
		log.Fatal(err)
	}
	if *eq5 == "" {
		return
	}
	if err := eq5Study(*results, *run, *label, strings.Split(*eq5, ","), own); err != nil {
		log.Fatal(err)
	}
}

func component(name string, r reports.ResultRow) float64 {
	switch name {
	case "cq_avg":
		return r.CQAvg
	case "cq_max":
		return r.CQMax
	case "util":
		return 1 - r.Util
	case "avg_jct":
		return r.AvgJCT
	case "max_qt":
		return r.MaxQT
	case "tardiness":
		return r.TotalTardiness
	}
	log.Fatalf("unknown objective %s", name)
	return 0
}

func normalise(obj, base float64) float64 { // as learn's
	if base == 0 {
		if obj == 0 {
			return 1
		}
		return 1 + obj
	}
	return obj / base
}

func study(results, run, label string, names []string, sweepSpec, srsf string, bases []string, third float64) error {
	var rows []reports.ResultRow
	for _, path := range strings.Split(results, ",") { // evals of the same dataset
		rs, err := reports.ReadResults(path)
		if err != nil {
			return err
		}
		rows = append(rows, rs...)
	}
	vec, err := normalisedMeans(rows, srsf, names)
	if err != nil {
		return err
	}
	srsfInsts := map[string]bool{} // by name: evals given together may each hold SRSF
	for _, r := range rows {
		if r.Scheduler == srsf {
			srsfInsts[r.Instance] = true
		}
	}
	nInst := len(srsfInsts)
	best, err := learn.ReadBest(filepath.Join(run, runfile.BestFile))
	if err != nil {
		return err
	}
	if best.Front == nil {
		return fmt.Errorf("%s has no front", run)
	}
	var front, val [][]float64
	for k, m := range best.Front.Members {
		v, err := vec(fmt.Sprintf("%s-%d", label, k+1))
		if err != nil {
			return err
		}
		front, val = append(front, v), append(val, m.Validation)
	}
	type point struct {
		label string
		omega float64
		v     []float64
	}
	var sw []point
	for _, e := range strings.Split(sweepSpec, ",") {
		if e == "" {
			continue // no sweep: the front alone
		}
		l, w, _ := strings.Cut(e, "=")
		om, err := strconv.ParseFloat(w, 64)
		if err != nil {
			return fmt.Errorf("-sweep %q: %w", e, err)
		}
		v, err := vec(l)
		if err != nil {
			return err
		}
		sw = append(sw, point{l, om, v})
	}
	baseV := map[string][]float64{}
	for _, b := range bases {
		v, err := vec(b)
		if err != nil {
			return err
		}
		baseV[b] = v
	}
	refPt := referencePoint(baseV, len(names))
	var swPts [][]float64
	for _, p := range sw {
		swPts = append(swPts, p.v)
	}
	hvF, err := pareto.Hypervolume(front, refPt)
	if err != nil {
		return err
	}
	hvS, err := pareto.Hypervolume(swPts, refPt)
	if err != nil {
		return err
	}
	dominated := func(pts [][]float64) []string {
		var out []string
		for _, b := range bases {
			for _, p := range pts {
				if pareto.Dominates(p, baseV[b]) {
					out = append(out, b)
					break
				}
			}
		}
		return out
	}
	fmtV := func(v []float64) string {
		s := make([]string, len(v))
		for i, x := range v {
			s[i] = fmt.Sprintf("%.4f", x)
		}
		return "(" + strings.Join(s, ", ") + ")"
	}
	w := os.Stdout
	fmt.Fprintf(w, "Test objectives ÷ SRSF's, mean over %d instances: %s; reference point %s.\n\n", nInst, strings.Join(names, ", "), fmtV(refPt))
	fmt.Fprintf(w, "| | points | test hypervolume | baselines dominated |\n|---|---:|---:|---|\n")
	df, ds := dominated(front), dominated(swPts)
	fmt.Fprintf(w, "| NSGA-II front | %d | %.4f | %d %v |\n", len(front), hvF, len(df), df)
	fmt.Fprintf(w, "| scalar ω sweep | %d | %.4f | %d %v |\n\n", len(sw), hvS, len(ds), ds)
	fmt.Fprintf(w, "| ω | front pick (validation) | front pick, test | best member on test | scalar run, test | best baseline, test |\n|---:|---|---:|---:|---:|---|\n")
	weights := func(om float64) []float64 {
		if len(names) == 3 {
			return []float64{om, 1 - om, third}
		}
		return []float64{om, 1 - om}
	}
	dot := func(a, b []float64) float64 {
		s := 0.0
		for i := range a {
			s += a[i] * b[i]
		}
		return s
	}
	for _, p := range sw {
		wt := weights(p.omega)
		pick := pareto.PickWeights(val, wt)
		bb := append([]string(nil), bases...)
		sort.SliceStable(bb, func(i, j int) bool { return dot(wt, baseV[bb[i]]) < dot(wt, baseV[bb[j]]) })
		oracle := pareto.PickWeights(front, wt) // hindsight: the member best on test
		fmt.Fprintf(w, "| %g | %s-%d | %.4f | %.4f (%s-%d) | %.4f | %.4f (%s) |\n", p.omega, label, pick+1, dot(wt, front[pick]),
			dot(wt, front[oracle]), label, oracle+1, dot(wt, p.v), dot(wt, baseV[bb[0]]), bb[0])
	}
	fmt.Fprintf(w, "\nTest vectors:\n\n")
	for k, v := range front {
		fmt.Fprintf(w, "- %s-%d %s %s\n", label, k+1, fmtV(v), best.Front.Members[k].SimplifiedFormula())
	}
	for _, p := range sw {
		fmt.Fprintf(w, "- %s %s\n", p.label, fmtV(p.v))
	}
	for _, b := range bases {
		fmt.Fprintf(w, "- %s %s\n", b, fmtV(baseV[b]))
	}
	return nil
}

// eq5Study prints the Eq. 5 check of the front's members against bases.
func eq5Study(results, run, label string, bases []string, own ownEvals) error {
	var rows []reports.ResultRow
	for _, path := range strings.Split(results, ",") {
		rs, err := reports.ReadResults(path)
		if err != nil {
			return err
		}
		rows = append(rows, rs...)
	}
	best, err := learn.ReadBest(filepath.Join(run, runfile.BestFile))
	if err != nil {
		return err
	}
	var members []string
	for k := range best.Front.Members {
		members = append(members, fmt.Sprintf("%s-%d", label, k+1))
	}
	n := map[string]bool{}
	for _, r := range rows {
		n[r.Instance] = true
	}
	tab, err := eq5Table(rows, Eq5Vectors, members, bases, own)
	if err != nil {
		return err
	}
	writeEq5(os.Stdout, tab, len(n), bases)
	return nil
}

// normalisedMeans returns, for a scheduler, its objectives divided by the
// SRSF scheduler's on the same instance (learn's normalise), averaged
// over SRSF's instances; a scheduler without a row on one of them is an
// error.
func normalisedMeans(rows []reports.ResultRow, srsf string, names []string) (func(string) ([]float64, error), error) {
	by := map[string]map[string]reports.ResultRow{} // scheduler → instance → row
	for _, r := range rows {
		if by[r.Scheduler] == nil {
			by[r.Scheduler] = map[string]reports.ResultRow{}
		}
		if _, dup := by[r.Scheduler][r.Instance]; !dup {
			by[r.Scheduler][r.Instance] = r
		}
	}
	ref, ok := by[srsf]
	if !ok {
		return nil, fmt.Errorf("no %s in the results", srsf)
	}
	// Instances in name order: a sum in map order differs in the last
	// bits from run to run, and two schedulers with identical results
	// must get identical means (else one "dominates" the other).
	insts := make([]string, 0, len(ref))
	for inst := range ref {
		insts = append(insts, inst)
	}
	sort.Strings(insts)
	return func(s string) ([]float64, error) {
		rs, ok := by[s]
		if !ok {
			return nil, fmt.Errorf("no scheduler %s in the results", s)
		}
		v := make([]float64, len(names))
		for _, inst := range insts {
			b := ref[inst]
			r, ok := rs[inst]
			if !ok {
				return nil, fmt.Errorf("%s has no instance %s", s, inst)
			}
			for k, n := range names {
				v[k] += normalise(component(n, r), component(n, b))
			}
		}
		for k := range v {
			v[k] /= float64(len(ref))
		}
		return v, nil
	}, nil
}

// referencePoint is 1.1 × the worst of SRSF (1) and the baselines per
// objective.
func referencePoint(base map[string][]float64, n int) []float64 {
	ref := make([]float64, n)
	for k := range ref {
		ref[k] = 1
		for _, v := range base {
			ref[k] = max(ref[k], v[k])
		}
		ref[k] *= 1.1
	}
	return ref
}

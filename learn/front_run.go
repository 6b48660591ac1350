package learn

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/internal/frontplot"
	"github.com/evogp/evogp/internal/pareto"
	"github.com/evogp/evogp/internal/runlog"
	"github.com/evogp/evogp/internal/tablefile"
	"github.com/evogp/evogp/runfile"
	"github.com/evogp/evogp/simcore"
)

// FrontFile is the front of a gp.selection: nsga2 run (one row per member).
const FrontFile = runfile.FrontFile

// FrontPlotName names the validation front figure (front.png, front.svg).
const FrontPlotName = "front"

// setSelection installs gp.selection's method (r.selection, built by
// prepare) in the loop and, for a method that reads objective vectors,
// the multi-objective state, whose baselines it simulates.
func (r *runner) setSelection(ctx context.Context) error {
	r.Parents, r.Survival = r.selection.Parents, r.selection.Survival
	if !r.selection.Objectives {
		return nil
	}
	f, err := newFrontState(ctx, r.cfg, r.ev)
	if err != nil {
		return err
	}
	r.front = f
	return nil
}

// restoreFront restores the archive and hypervolumes of a checkpoint and
// checks that it matches gp.selection.
func (r *runner) restoreFront(ck *checkpoint) error {
	if r.front == nil {
		if ck.Front != nil {
			return errors.New("the checkpoint is of a gp.selection: nsga2 run")
		}
		return nil
	}
	if ck.Front == nil {
		return errors.New("the checkpoint has no archive, but gp.selection is nsga2")
	}
	for i, m := range ck.Population {
		if len(m.Objectives) != len(r.front.names) {
			return fmt.Errorf("population member %d has %d objectives, gp.objectives %d", i, len(m.Objectives), len(r.front.names))
		}
	}
	r.front.archive = ck.Front.Archive
	for i := range r.front.archive {
		a := &r.front.archive[i]
		if a.Tree.Size() == 0 || len(a.Objectives) != len(r.front.names) || (a.Routing.Tree != nil) != slices.Contains(r.cfg.GP.Learn, "routing") {
			return fmt.Errorf("archive entry %d is malformed", i)
		}
		a.hash = individualHash(a.Routing.Tree, a.Tree)
	}
	for i, c := range ck.Front.Components {
		if len(c.Values) != len(r.front.names) || c.Instance < 0 || int(c.Instance) >= len(r.front.srsfTrain) {
			return fmt.Errorf("component cache entry %d is malformed", i)
		}
		r.front.comp[cacheKey{c.Hash, c.Instance}] = c.Values
	}
	if err := r.front.restoreRetired(ck.Front.Retired, slices.Contains(r.cfg.GP.Learn, "routing")); err != nil {
		return err
	}
	if err := r.front.restoreRankZero(ck.Front.RankZero, slices.Contains(r.cfg.GP.Learn, "routing")); err != nil {
		return err
	}
	r.front.hv = slices.Clone(ck.Front.Hypervolume)
	if len(r.front.hv) != ck.Generation+1 {
		return fmt.Errorf("the checkpoint has %d hypervolumes for generation %d", len(r.front.hv), ck.Generation)
	}
	return nil
}

// FrontGenerationRow is a row of generations.parquet of an nsga2 run:
// runlog's columns plus the hypervolume of the population's non-dominated
// members on the generation's training subset and their number.
type FrontGenerationRow struct {
	Generation  int64   `parquet:"generation"`
	Best        float64 `parquet:"best"`
	Median      float64 `parquet:"median"`
	Worst       float64 `parquet:"worst"`
	BestFormula string  `parquet:"best_formula"`
	Size        int64   `parquet:"size"`
	Depth       int64   `parquet:"depth"`
	Unique      int64   `parquet:"unique"`
	Evaluations int64   `parquet:"evaluations"`
	CacheHits   int64   `parquet:"cache_hits"`
	WallSeconds float64 `parquet:"wall_seconds"`
	Hypervolume float64 `parquet:"hypervolume"`
}

func (f FrontGenerationRow) check() error {
	if err := runlog.GenerationRow(f.base()).Check(); err != nil {
		return err
	}
	return tablefile.Finite("hypervolume", f.Hypervolume)
}

func (f FrontGenerationRow) base() runlog.GenerationRow {
	return runlog.GenerationRow{Generation: f.Generation, Best: f.Best, Median: f.Median, Worst: f.Worst,
		BestFormula: f.BestFormula, Size: f.Size, Depth: f.Depth, Unique: f.Unique,
		Evaluations: f.Evaluations, CacheHits: f.CacheHits, WallSeconds: f.WallSeconds}
}

// ReadFrontGenerations reads the per-generation hypervolume of an nsga2
// run's generations.parquet.
func ReadFrontGenerations(path string) ([]FrontGenerationRow, error) {
	return tablefile.Read(path, FrontGenerationRow.check)
}

// writeGenerations writes generations.parquet (with the hypervolume
// column under nsga2).
func (r *runner) writeGenerations(path string) error {
	if r.front == nil {
		return runlog.Write(path, r.rows)
	}
	rows := make([]FrontGenerationRow, len(r.rows))
	for i, g := range r.rows {
		rows[i] = FrontGenerationRow{Generation: g.Generation, Best: g.Best, Median: g.Median, Worst: g.Worst,
			BestFormula: g.BestFormula, Size: g.Size, Depth: g.Depth, Unique: g.Unique,
			Evaluations: g.Evaluations, CacheHits: g.CacheHits, WallSeconds: g.WallSeconds, Hypervolume: r.front.hv[i]}
	}
	return tablefile.Write(path, rows, FrontGenerationRow.check)
}

// simulatedOnly drops the size objective from v (baselines have none).
func (fs *frontState) simulatedOnly(v []float64) []float64 {
	var out []float64
	for k, name := range fs.names {
		if name != "size" {
			out = append(out, v[k])
		}
	}
	return out
}

// finish scores the archive on the validation set, forms the front and
// makes its member for the config's ω the run's formula.
func (fs *frontState) finish(ctx context.Context, r *runner, res *Result) error {
	ev := r.ev
	inds := fs.candidates(r.pop)
	retired := len(inds) - len(fs.archive)
	seeds := seedCandidates(inds, r.seeds, r.routingSeeds, slices.Contains(r.cfg.GP.Learn, "routing"))
	inds = append(inds, seeds...)
	objs, scores, err := fs.validateTrees(ctx, ev, inds)
	if err != nil {
		return err
	}
	size := func(i int) int { return fs.size(inds[i].routing, inds[i].ranking, inds[i].hash()) }
	nd := pareto.NonDominated(objs)
	slices.SortStableFunc(nd, func(a, b int) int {
		return cmp.Or(slices.Compare(objs[a], objs[b]), cmp.Compare(size(a), size(b)), cmp.Compare(inds[a].hash(), inds[b].hash()))
	})
	nd = slices.CompactFunc(nd, func(a, b int) bool { return slices.Equal(objs[a], objs[b]) })
	front := &Front{Objectives: fs.names, Pooled: fs.pooled, Weights: fs.weights, Reference: fs.validationReference(), Archive: len(inds), Retired: retired, Seeds: len(seeds)}
	var pts [][]float64
	for k, i := range nd {
		t := inds[i].ranking
		m := FrontMember{
			Label: fmt.Sprintf("front-%d", k+1), Tree: t, Infix: t.String(), Simplified: expr.Simplify(t).String(),
			Size: size(i), Hash: fmt.Sprintf("%016x", inds[i].hash()), Validation: objs[i], Score: scores[i],
			Dominates: []string{},
		}
		if rt := inds[i].routing; rt != nil {
			m.Routing, m.RoutingInfix, m.RoutingSimplified = RoutingTree{Tree: rt}, rt.String(), expr.Simplify(rt).String()
		}
		for b, name := range fs.baseNames {
			if pareto.Dominates(fs.simulatedOnly(objs[i]), fs.simulatedOnly(fs.baseVal[b])) {
				m.Dominates = append(m.Dominates, name)
			}
		}
		front.Members = append(front.Members, m)
		pts = append(pts, objs[i])
	}
	if len(fs.names) == 2 {
		for _, iv := range pareto.OmegaIntervals(pts) {
			lo, hi := iv.Lo, iv.Hi
			front.Members[iv.Member].OmegaLo, front.Members[iv.Member].OmegaHi = &lo, &hi
		}
	}
	front.Pick = pareto.PickWeights(pts, fs.weights)
	if front.Hypervolume, err = pareto.Hypervolume(pts, front.Reference); err != nil {
		return err
	}
	for b, name := range fs.baseNames {
		front.Baselines = append(front.Baselines, FrontBaseline{Name: name, Validation: fs.baseVal[b]})
	}
	front.Warnings = append(fs.flatBaselines("validation"), fs.constantObjectives()...)
	best := front.Members[front.Pick]
	res.Best, res.Simplified, res.Validation = best.Tree, expr.Simplify(best.Tree), best.Score
	if rt := best.Routing.Tree; rt != nil {
		res.Routing, res.RoutingSimplified, res.Scope = rt, expr.Simplify(rt), r.cfg.GP.RoutingScope()
	}
	res.Front = front
	return nil
}

// flatBaselines warns when SRSF and the named baselines differ by less
// than 1 % on every simulated objective of set (baseVal's instances):
// there is then no trade-off to learn.
func (fs *frontState) flatBaselines(set string) []string {
	var spreads []string
	for k, name := range fs.names {
		if name == "size" {
			continue
		}
		lo, hi := 1.0, 1.0
		for _, b := range fs.baseVal {
			lo, hi = min(lo, b[k]), max(hi, b[k])
		}
		if lo > 0 && (hi-lo)/lo >= 0.01 {
			return nil
		}
		spreads = append(spreads, fmt.Sprintf("%s %.3g–%.3g", name, lo, hi))
	}
	return []string{fmt.Sprintf("the baselines differ by less than 1 %% on every objective of the %s set (normalised: %s): there is no trade-off to learn; use a higher load (fewer nodes or more jobs)", set, strings.Join(spreads, ", "))}
}

// validateTrees returns each individual's mean normalised validation
// objectives and its scalar validation score (individuals with the same
// hash are simulated once).
func (fs *frontState) validateTrees(ctx context.Context, ev *evaluator, inds []individual) ([][]float64, []float64, error) {
	index := map[uint64]int{}
	var uniq []individual
	for _, t := range inds {
		if _, ok := index[t.hash()]; !ok {
			index[t.hash()] = len(uniq)
			uniq = append(uniq, t)
		}
	}
	all := make([]int, len(ev.val))
	for i := range all {
		all[i] = i
	}
	tasks, err := ev.validationTasks(uniq, all, true)
	if err != nil {
		return nil, nil, err
	}
	out, err := ev.simulate(ctx, tasks, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("validation: %w", err)
	}
	n := len(ev.val)
	vecs := make([][]float64, len(uniq))
	sc := make([]float64, len(uniq))
	for u, t := range uniq {
		ms := make([]simcore.Metrics, n)
		for i := range n {
			ms[i] = out[u*n+i].metrics
			sc[u] += normalise(out[u*n+i].objective, ev.baseVal[i])
		}
		sc[u] /= float64(n)
		vecs[u] = fs.meanVector(ms, fs.srsfVal, fs.size(t.routing, t.ranking, t.hash()))
	}
	objs := make([][]float64, len(inds))
	scores := make([]float64, len(inds))
	for j, t := range inds {
		objs[j], scores[j] = vecs[index[t.hash()]], sc[index[t.hash()]]
	}
	return objs, scores, nil
}

// HypervolumePlotName names the hypervolume convergence figure.
const HypervolumePlotName = "hypervolume"

// writeFrontOutputs writes front.parquet, front.png/.svg and
// hypervolume.png/.svg (hv: per generation).
func writeFrontOutputs(dir string, f *Front, hv []float64) error {
	if err := runfile.WriteFront(filepath.Join(dir, FrontFile), f); err != nil {
		return err
	}
	fig, err := frontplot.Plot(FrontPlotInput(f))
	if err != nil {
		return err
	}
	if _, err = fig.Save(dir, []string{"png", "svg"}); err != nil {
		return err
	}
	hfig, err := frontplot.HypervolumePlot(HypervolumePlotName, hv, f.Hypervolume)
	if err != nil {
		return err
	}
	_, err = hfig.Save(dir, []string{"png", "svg"})
	return err
}

// FrontPlotInput is the validation front of f in the plane of its first
// two objectives, with every baseline and SRSF (1, 1).
func FrontPlotInput(f *Front) frontplot.Input {
	axis := func(k int) string {
		if f.Objectives[k] == "size" {
			return "size (nodes of the simplified tree)"
		}
		return f.Objectives[k] + " ÷ SRSF's (validation mean)"
	}
	in := frontplot.Input{
		Name: FrontPlotName, XLabel: axis(0), YLabel: axis(1),
		Title:         fmt.Sprintf("validation front (%s, hypervolume %.4g)", frontplot.Members(len(f.Members)), f.Hypervolume),
		LineLabel:     "front (validation)",
		OmegaVariable: "ω·" + f.Objectives[0] + " + (1 − ω)·" + f.Objectives[1],
	}
	if len(f.Objectives) > 2 {
		in.Title += fmt.Sprintf("; projection, third objective %s not shown", f.Objectives[2])
		in.OmegaVariable = ""
	} else {
		in.Grid = pareto.OmegaGrid() // the ω table's picks, circled
	}
	for _, m := range f.Members {
		p := frontplot.Point{Label: m.Label, X: m.Validation[0], Y: m.Validation[1], OmegaLo: math.NaN(), OmegaHi: math.NaN()}
		if m.OmegaLo != nil {
			p.OmegaLo, p.OmegaHi = *m.OmegaLo, *m.OmegaHi
		}
		in.Members = append(in.Members, p)
	}
	if f.Objectives[0] != "size" && f.Objectives[1] != "size" {
		in.Baselines = append(in.Baselines, frontplot.Point{Label: "srsf", X: 1, Y: 1})
		for _, b := range f.Baselines {
			in.Baselines = append(in.Baselines, frontplot.Point{Label: b.Name, X: b.Validation[0], Y: b.Validation[1]})
		}
	}
	return in
}

// OmegaMember is the member of the front in the best.json at path that
// the weighted sum with omega picks (Front.PickOmega), with both trees
// when the run learned a routing tree too.
func OmegaMember(path string, omega float64) (FrontMember, error) {
	b, err := ReadBest(path)
	if err != nil {
		return FrontMember{}, err
	}
	if b.Front == nil || len(b.Front.Members) == 0 {
		return FrontMember{}, fmt.Errorf("%s has no front: --omega picks a member of the front a gp.selection: nsga2 run learns (this run used scalar selection; export its formula without --omega)", path)
	}
	i, err := b.Front.PickOmega(omega)
	if err != nil {
		return FrontMember{}, fmt.Errorf("%s: %w", path, err)
	}
	return b.Front.Members[i], nil
}

// OmegaInfix is the formula (infix, as evolved) of the front member of the
// best.json at path that wins ω, and its label; a best.json without a
// front is an error.
func OmegaInfix(path string, omega float64) (infix, label string, err error) {
	m, err := OmegaMember(path, omega)
	if err != nil {
		return "", "", err
	}
	if m.RoutingInfix != "" {
		return "", "", fmt.Errorf("%s: the front's members have a routing tree (gp.learn: [routing, ranking]); a ranking formula alone would drop it — use OmegaMember, or evaluate them with evogp eval --schedulers NAME=RUN; %s: %s", path, m.Label, m.Formula())
	}
	return m.Infix, m.Label, nil
}

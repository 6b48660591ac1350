package learn

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/policies"
	"github.com/evogp/evogp/simcore"
)

// SearchSettings configure the exhaustive search of small formulas.
type SearchSettings struct {
	// Depth is the largest tree depth enumerated (a leaf has depth 1).
	Depth int
	// Screen is the number of validation instances every distinct
	// behaviour is first scored on; the best Keep of them are then scored
	// on the whole validation set. Screen ≥ |V| scores everything fully.
	Screen, Keep int
	// Workers simulate in parallel (0 = all cores); results do not depend
	// on it.
	Workers int
	// MaxTrees bounds the enumeration (0 = 2 000 000); a larger space is an
	// error rather than a run that never ends.
	MaxTrees int
	// Routing, when set, makes Search enumerate routing trees instead,
	// with a fixed ranking (see RoutingSearch).
	Routing *RoutingSearch
}

// SearchResult is one scored behaviour class of the search.
type SearchResult struct {
	Formula    *expr.Tree // the smallest formula of the class (ties: lower hash)
	Members    int        // distinct canonical formulas with this behaviour
	Screen     float64    // mean normalised objective on the screening instances
	Validation float64    // … on the whole validation set (NaN if not kept)
	Objectives []float64  // per validation instance (nil if not kept)
}

// SearchReport is the outcome of Search.
type SearchReport struct {
	// Routing is set for a search over routing trees (RoutingSearch):
	// each formula is a routing tree R scored as rule(R, Scope) + the fixed
	// Ranking + gp.placer; Behaviours is then the canonical count (no
	// decision sample) and Decisions 0.
	Routing        bool
	Ranking, Scope string
	Terminals      expr.Terminals
	Depth          int
	Enumerated     int // trees enumerated
	Canonical      int // distinct after expr.Simplify (canonical hash)
	Behaviours     int // distinct orders on the sampled decisions
	Decisions      int // decisions sampled
	Instances      int // validation instances
	Screened       []SearchResult
	Kept           []SearchResult  // scored on the whole validation set, best first
	Baselines      []BaselineScore // the named baselines on the validation set
	BaselineObj    map[string][]float64
}

// Search enumerates every tree up to depth s.Depth over cfg's terminal set
// (gp.terminals, no constants) and the four operators, merges trees with
// the same canonical form (expr.Simplify hash) and then with the same
// behaviour (the order they put jobs in on gp.dedup_sample scheduling
// decisions recorded while SRSF runs on the validation instances — an
// approximation: two formulas that agree on the sample may differ
// elsewhere), and scores one smallest representative per behaviour under
// the candidate scheduler on the validation set, in two stages (all on
// the first s.Screen instances, the best s.Keep on all). It tells whether
// a small formula beats the best baseline, i.e. whether the learner misses
// easy winners. With s.Routing it enumerates routing trees instead (see
// RoutingSearch and searchRouting).
func Search(ctx context.Context, cfg configs.Config, val []simcore.Instance, s SearchSettings) (*SearchReport, error) {
	if err := s.check(len(val)); err != nil {
		return nil, err
	}
	if s.Routing != nil {
		return searchRouting(ctx, cfg, val, s)
	}
	if s.MaxTrees == 0 {
		s.MaxTrees = 2_000_000
	}
	s.Screen = min(max(s.Screen, 1), len(val))
	s.Keep = max(s.Keep, 1)
	terms, err := expr.ParseTerminals(cfg.GP.Terminals)
	if err != nil {
		return nil, fmt.Errorf("search: gp.terminals: %w", err)
	}
	trees, err := enumerate(terms, s.Depth, s.MaxTrees)
	if err != nil {
		return nil, err
	}
	rep := &SearchReport{Terminals: terms, Depth: s.Depth, Enumerated: len(trees), Instances: len(val)}

	// Canonical de-duplication: one smallest tree per hash.
	byHash := map[uint64]*expr.Tree{}
	var hashes []uint64
	for _, t := range trees {
		h := t.Hash()
		if old, ok := byHash[h]; !ok {
			byHash[h] = t
			hashes = append(hashes, h)
		} else if t.Size() < old.Size() {
			byHash[h] = t
		}
	}
	rep.Canonical = len(hashes)

	opts, err := SimOptions(cfg)
	if err != nil {
		return nil, err
	}
	ev, err := newEvaluator(nil, val, opts, cfg.GP.TimeUnit == "seconds", s.Workers, cfg.GP.Allocator, cfg.GP.Placer, EVOParams(cfg))
	if err != nil {
		return nil, err
	}
	if err := ev.baselines(ctx); err != nil {
		return nil, err
	}
	ds, err := sampleDecisions(ctx, val, opts, ev.candidate, simcore.SRSF{}, cfg.GP.DedupSample)
	if err != nil {
		return nil, fmt.Errorf("search: sampling decisions: %w", err)
	}
	rep.Decisions = len(ds)

	// Behavioural de-duplication.
	type class struct {
		rep     *expr.Tree
		hash    uint64
		members int
	}
	byPheno := map[uint64]*class{}
	var classes []*class
	for _, h := range hashes {
		t := byHash[h]
		p := phenotype(NewFormulaRanking(t, ev.seconds), ds)
		c, ok := byPheno[p]
		if !ok {
			c = &class{rep: t, hash: h}
			byPheno[p] = c
			classes = append(classes, c)
		} else if t.Size() < c.rep.Size() || t.Size() == c.rep.Size() && h < c.hash {
			c.rep, c.hash = t, h
		}
		c.members++
	}
	rep.Behaviours = len(classes)

	reps := make([]searchClass, len(classes))
	for i, c := range classes {
		reps[i] = searchClass{rep: c.rep, members: c.members}
	}
	mk := func(t *expr.Tree) (simcore.Scheduler, error) { return ev.candidate(NewFormulaRanking(t, ev.seconds)) }
	if err := scoreSearch(ctx, ev, val, reps, mk, s, rep); err != nil {
		return nil, err
	}
	return rep, nil
}

// searchClass is one behaviour class of a search: its representative and
// how many canonical formulas it stands for.
type searchClass struct {
	rep     *expr.Tree
	members int
}

// scoreSearch scores the classes' representatives under the schedulers mk
// builds, in the two stages of s (all on the first s.Screen validation
// instances, the best s.Keep on all), and the named baselines on the
// validation set, filling rep.Screened, rep.Kept and rep.Baselines.
func scoreSearch(ctx context.Context, ev *evaluator, val []simcore.Instance, classes []searchClass, mk func(*expr.Tree) (simcore.Scheduler, error), s SearchSettings, rep *SearchReport) error {
	opts := ev.opts
	score := func(reps []*expr.Tree, insts []int) ([][]float64, error) {
		tasks := make([]task, 0, len(reps)*len(insts))
		for _, t := range reps {
			sched, err := mk(t)
			if err != nil {
				return nil, err
			}
			for _, i := range insts {
				tasks = append(tasks, task{sched: sched, inst: &val[i]})
			}
		}
		obj, err := ev.objectives(ctx, tasks, nil)
		if err != nil {
			return nil, err
		}
		out := make([][]float64, len(reps))
		for r := range reps {
			out[r] = obj[r*len(insts) : (r+1)*len(insts)]
		}
		return out, nil
	}
	norm := func(obj []float64, insts []int) float64 {
		sum := 0.0
		for k, i := range insts {
			sum += normalise(obj[k], ev.baseVal[i])
		}
		return sum / float64(len(insts))
	}
	all := make([]int, len(val))
	for i := range all {
		all[i] = i
	}
	screen := all[:s.Screen]
	reps := make([]*expr.Tree, len(classes))
	for i, c := range classes {
		reps[i] = c.rep
	}
	obj, err := score(reps, screen)
	if err != nil {
		return fmt.Errorf("search: screening: %w", err)
	}
	for i, c := range classes {
		rep.Screened = append(rep.Screened, SearchResult{Formula: c.rep, Members: c.members, Screen: norm(obj[i], screen)})
	}
	byScore := func(a, b SearchResult, va, vb float64) int {
		return cmp.Or(compareFloat(va, vb), cmp.Compare(a.Formula.Size(), b.Formula.Size()), cmp.Compare(a.Formula.Hash(), b.Formula.Hash()))
	}
	slices.SortStableFunc(rep.Screened, func(a, b SearchResult) int { return byScore(a, b, a.Screen, b.Screen) })
	kept := slices.Clone(rep.Screened[:min(s.Keep, len(rep.Screened))])
	reps = reps[:0]
	for _, k := range kept {
		reps = append(reps, k.Formula)
	}
	if obj, err = score(reps, all); err != nil {
		return fmt.Errorf("search: validation: %w", err)
	}
	for i := range kept {
		kept[i].Objectives = obj[i]
		kept[i].Validation = norm(obj[i], all)
	}
	slices.SortStableFunc(kept, func(a, b SearchResult) int { return byScore(a, b, a.Validation, b.Validation) })
	rep.Kept = kept

	// The named baselines on the same instances.
	var cs []contender
	for _, name := range policies.Baselines() {
		sc, err := policies.ParseWith(name, nil)
		if err != nil {
			return err
		}
		cs = append(cs, contender{name: name, sched: sc})
	}
	bobj, err := simulateAll(ctx, cs, val, opts, ev.workers)
	if err != nil {
		return fmt.Errorf("search: baselines: %w", err)
	}
	rep.BaselineObj = map[string][]float64{}
	for c := range cs {
		rep.Baselines = append(rep.Baselines, BaselineScore{Name: cs[c].name, Score: norm(bobj[c], all)})
		rep.BaselineObj[cs[c].name] = bobj[c]
	}
	return nil
}

// check rejects a depth outside 1..4 and an empty validation set.
func (s SearchSettings) check(instances int) error {
	if s.Depth < 1 || s.Depth > 4 {
		return fmt.Errorf("search: depth %d: want 1..4", s.Depth)
	}
	if instances == 0 {
		return errors.New("search: no validation instances")
	}
	return nil
}

// enumerate lists every tree of depth ≤ depth over the terminals and the
// four binary operators, by increasing depth.
func enumerate(terms expr.Terminals, depth, maxTrees int) ([]*expr.Tree, error) {
	var all []*expr.Tree
	for _, op := range terms.Ops() {
		all = append(all, terms.Catalogue().Terminal(op)) // a routing set gives routing leaves
	}
	for d := 2; d <= depth; d++ {
		prev := len(all)
		n := 4 * prev * prev
		if n+prev > maxTrees {
			return nil, fmt.Errorf("search: depth %d over %d terminals has more than %d trees; lower --depth or gp.terminals", depth, terms.Len(), maxTrees)
		}
		// Trees of depth ≤ d are the leaves plus op(l, r) for l, r of depth
		// ≤ d−1; those of depth ≤ d−1 are all already listed.
		next := all[:terms.Len()]
		next = slices.Clone(next)
		for _, op := range []expr.Op{expr.OpAdd, expr.OpSub, expr.OpMul, expr.OpDiv} {
			for _, l := range all[:prev] {
				for _, r := range all[:prev] {
					next = append(next, expr.Binary(op, l, r))
				}
			}
		}
		all = next
	}
	return all, nil
}

// WriteText prints the search summary and the best behaviours against the
// best baseline on the validation set (better/tied/worse per instance).
func (r *SearchReport) WriteText(w io.Writer, top int) error {
	var b strings.Builder
	best := bestBaseline(r.Baselines)
	if r.Routing {
		fmt.Fprintf(&b, "search over routing trees R on terminals [%s], depth ≤ %d, scheduler rule(R, scope %s) + ranking %s: %d trees, %d canonical forms\n",
			r.Terminals, r.Depth, r.Scope, r.Ranking, r.Enumerated, r.Canonical)
	} else {
		fmt.Fprintf(&b, "search over terminals [%s], depth ≤ %d: %d trees, %d canonical forms, %d behaviours on %d sampled decisions\n",
			r.Terminals, r.Depth, r.Enumerated, r.Canonical, r.Behaviours, r.Decisions)
	}
	fmt.Fprintf(&b, "validation (%d instances; mean objective ÷ SRSF's, lower is better); baselines:", r.Instances)
	for _, bs := range r.Baselines {
		fmt.Fprintf(&b, " %s %.4f", bs.Name, bs.Score)
	}
	fmt.Fprintf(&b, "\n%4s %10s %8s  %-16s %s\n", "rank", "validation", "members", "vs "+best.Name+" (b/t/w)", "formula")
	ref := r.BaselineObj[best.Name]
	for i, k := range r.Kept[:min(top, len(r.Kept))] {
		bt, tt, wt := 0, 0, 0
		for j, o := range k.Objectives {
			switch {
			case o < ref[j]:
				bt++
			case o > ref[j]:
				wt++
			default:
				tt++
			}
		}
		fmt.Fprintf(&b, "%4d %10.4f %8d  %-16s %s\n", i+1, k.Validation, k.Members, fmt.Sprintf("%d / %d / %d", bt, tt, wt), r.label(k.Formula))
	}
	if len(r.Kept) > 0 {
		verdict := "no enumerated formula beats"
		if r.Kept[0].Validation < best.Score {
			verdict = fmt.Sprintf("the best enumerated formula (%s) beats", r.label(r.Kept[0].Formula))
		}
		fmt.Fprintf(&b, "%s the best baseline %s (%.4f) on validation\n", verdict, best.Name, best.Score)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// label names a searched formula: "R = …" in a routing search.
func (r *SearchReport) label(t *expr.Tree) string {
	if r.Routing {
		return "R = " + t.String()
	}
	return t.String()
}

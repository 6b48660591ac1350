package experiment

import (
	"fmt"
	"strings"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/formula"
	"github.com/evogp/evogp/policies"
	"github.com/evogp/evogp/reports"
	"github.com/evogp/evogp/runfile"
	"github.com/evogp/evogp/simcore"
	"github.com/evogp/evogp/simcore/evo"
	"github.com/evogp/evogp/simcore/rule"
)

// FormulaScheduler is the scheduler a learned or given formula runs under:
// MCT allocation + the formula as ranking + best-fit placement (MCT-GP,
// SPEC §5.3).
const FormulaScheduler = "mct+formula+bestfit"

// Baselines are the paper's baseline schedulers (policies.Baselines, where
// they are defined); they are the default scheduler list of eval and
// pressure and the references of every sweep point.
func Baselines() []string { return policies.Baselines() }

// Policy is a scheduler under the label it has in result tables. The
// scheduler itself is opaque: it was built by PolicyBuilder (through
// the policies registry) and is only ever passed to simcore.Simulate.
type Policy struct {
	// SchedulerRecord is what a manifest records of the policy (label, entry,
	// resolved scheduler, formula, its time unit, EVO parameters); its
	// fields are Policy's, and Policy's JSON is the record's.
	runfile.SchedulerRecord
	sched simcore.Scheduler
	front *reports.FrontSet // the front a LABEL=RUN member belongs to (front.go)
}

// PolicyBuilder builds policies from scheduler specs with the run's policy
// parameters. It is the one place where evogp turns a spec into a
// scheduler: every spec goes through policies.Parse (the one registry) with the
// learned formula (if any) as the extra ranking "formula" and the EVO
// parameters as the section "evo", so evo+fifo+bestfit, evo-srsf and
// evo-gp=RUN/best.json all run with the configured evo.* values.
type PolicyBuilder struct {
	// Seconds is the caller's unit of d and q inside formulas.
	Seconds bool
	// Explicit makes Seconds override a learner run's own gp.time_unit.
	Explicit bool
	// EVO are the parameters of the evo allocator (EVOParams of a config).
	EVO evo.Params
	// Rule are the parameters of the rule allocator (SPEC §16: routing
	// tree and scope); the zero value is rule.DefaultParams. Its time unit
	// follows Seconds.
	Rule rule.Params
}

// DefaultPolicyBuilder builds with SPEC §11's default EVO parameters
// (seed 1) and the given formula unit.
func DefaultPolicyBuilder(seconds bool) PolicyBuilder {
	return PolicyBuilder{Seconds: seconds, EVO: evo.DefaultParams()}
}

// ConfigPolicyBuilder builds with cfg's evo section and run seed
// (EVOParams) and its rule section (configs.RuleParams, SPEC §16), and the
// given formula unit.
func ConfigPolicyBuilder(cfg configs.Config, seconds, explicit bool) (PolicyBuilder, error) {
	rp, err := configs.RuleParams(cfg)
	if err != nil {
		return PolicyBuilder{}, err
	}
	return PolicyBuilder{Seconds: seconds, Explicit: explicit, EVO: EVOParams(cfg), Rule: rp}, nil
}

// EVOParams translates a config's evo section and run seed into the evo
// allocator's parameters (SPEC §11): operation k of a simulation draws
// from a generator seeded by (cfg.Seed, k).
func EVOParams(cfg configs.Config) evo.Params { return configs.EVOParams(cfg) }

// parse resolves spec with simcore's registry, the builder's EVO
// parameters and the extra rankings.
func (b PolicyBuilder) parse(spec string, rankings map[string]simcore.Ranking) (simcore.Scheduler, error) {
	return b.parseWith(spec, rankings, nil)
}

// parseWith is parse with further parameter sections (they replace the
// builder's own of the same name).
func (b PolicyBuilder) parseWith(spec string, rankings map[string]simcore.Ranking, sections map[string]any) (simcore.Scheduler, error) {
	rp := b.Rule
	rp.Seconds = b.Seconds
	all := map[string]any{"evo": b.EVO, rule.SectionName: rp}
	for k, v := range sections {
		all[k] = v
	}
	return policies.Parse(spec, simcore.Params{Rankings: rankings, Sections: all})
}

// usesFormula reports whether spec resolves only with a "formula" ranking
// (gp, evo-gp, mct+formula+bestfit, ...). It is a question about the
// spec's shape, so it is asked with the default parameters: invalid EVO
// parameters must not turn evo-gp=RUN into MCT-GP.
func usesFormula(spec string) bool {
	d := DefaultPolicyBuilder(false)
	if _, err := d.parse(spec, nil); err == nil {
		return false
	}
	_, err := d.parse(spec, map[string]simcore.Ranking{"formula": simcore.FIFO{}})
	return err == nil
}

// EVORecord is the part of evo.Params that determines results: all
// but the worker count (runfile.EVORecord, as manifests record it).
type EVORecord = runfile.EVORecord

// withEVO records b's EVO parameters in p when p's scheduler uses the evo
// allocator.
func (b PolicyBuilder) withEVO(p Policy) Policy {
	if alloc, _ := allocation(p); alloc == "evo" {
		e := b.EVO
		p.EVO = &EVORecord{Population: e.Population, Generations: e.Generations, Mutation: e.Mutation,
			Stall: e.Stall, Budget: e.Budget, Init: e.Init, Seed: e.Seed}
	}
	return p
}

// NewPolicy is PolicyBuilder.Policy with the default EVO parameters.
func NewPolicy(spec, formula string, seconds bool) (Policy, error) {
	return DefaultPolicyBuilder(seconds).Policy(spec, formula)
}

// Policy resolves a scheduler spec (a named scheduler or
// ALLOCATOR+RANKING+PLACER) and an optional priority formula over d, q, u,
// g. A formula is the ranking named "formula", so it needs a spec that
// uses that ranking (for example mct+formula+bestfit or evo-gp); giving
// one with a spec that has its own ranking is an error, as is a formula
// spec without a formula. b.Seconds selects the unit of d and q inside the
// formula (SPEC §2). The policy's label and name are the spec,
// lower-cased, followed by the formula in brackets when there is one.
//
// The scheduler stays opaque: whether a spec uses the formula ranking is
// decided by the registry itself, by resolving the spec without the
// "formula" ranking.
func (b PolicyBuilder) Policy(spec, formula string) (Policy, error) {
	name := strings.ToLower(strings.TrimSpace(spec))
	own, ownErr := b.parse(spec, nil)
	if formula == "" {
		if ownErr != nil {
			if usesFormula(spec) {
				return Policy{}, fmt.Errorf("scheduler %q uses a formula ranking: give it with --priority", spec)
			}
			return Policy{}, ownErr
		}
		return b.withEVO(Policy{SchedulerRecord: runfile.SchedulerRecord{Label: name, Spec: spec, Name: name}, sched: own}), nil
	}
	if ownErr == nil {
		return Policy{}, fmt.Errorf("scheduler %q has its own ranking, so a priority formula would be ignored or replace it silently; "+
			"use a scheduler whose ranking is formula, such as %s or evo-gp", spec, FormulaScheduler)
	}
	tree, err := expr.Parse(formula)
	if err != nil {
		return Policy{}, fmt.Errorf("priority %s: %w", expr.Quote(formula, err), err)
	}
	return b.treePolicy(spec, tree, b.Seconds)
}

// treePolicy is the policy spec (whose ranking is formula) with tree as
// the formula ranking.
func (b PolicyBuilder) treePolicy(spec string, tree *expr.Tree, seconds bool) (Policy, error) {
	name := strings.ToLower(strings.TrimSpace(spec))
	sched, err := b.parse(spec, map[string]simcore.Ranking{"formula": formula.NewRanking(tree, seconds)})
	if err != nil {
		return Policy{}, err
	}
	name = fmt.Sprintf("%s[%s]", name, tree.String())
	unit := "hours"
	if seconds {
		unit = "seconds"
	}
	return b.withEVO(Policy{SchedulerRecord: runfile.SchedulerRecord{Label: name, Spec: spec, Name: name, Source: tree.String(), TimeUnit: unit}, sched: sched}), nil
}

// ParsePolicies is PolicyBuilder.Policies with the default EVO parameters.
func ParsePolicies(list string, seconds, explicit bool) ([]Policy, error) {
	b := DefaultPolicyBuilder(seconds)
	b.Explicit = explicit
	return b.Policies(list)
}

// Policies resolves a comma-separated list of scheduler entries. An
// entry is a scheduler name (spark, liquid, tiresias, lyra, evo-fifo,
// evo-srsf, ...), an ALLOCATOR+RANKING+PLACER combination, or
// LABEL=SOURCE where SOURCE is a scheduler spec of its own (runs under
// LABEL; see labelledScheduler), a best.json, a run directory holding
// best.json, or a formula over d, q, u, g. LABEL=SOURCE runs the formula
// under the scheduler LABEL names when LABEL is itself a spec whose
// ranking is formula (gp = mct+formula+bestfit, evo-gp =
// evo+formula+bestfit, evo+formula+roundrobin, ...), and under
// FormulaScheduler (MCT-GP) for any other label. A run that learned a
// routing tree too (gp.learn: [routing, ranking]) runs as it was learned,
// under any label: rule(R, scope) + f + its placer. Labels must be unique.
// b.Seconds is the caller's time unit for formulas; unless b.Explicit is
// set, a learner run's own gp.time_unit takes precedence for its formula.
func (b PolicyBuilder) Policies(list string) ([]Policy, error) {
	var out []Policy
	seen := map[string]bool{}
	for _, entry := range strings.Split(list, ",") {
		entry = strings.TrimSpace(entry)
		if entry == "" {
			return nil, fmt.Errorf("schedulers %q: empty entry", list)
		}
		if members, ok, err := b.frontPolicies(entry); err != nil {
			return nil, err
		} else if ok {
			for _, p := range members {
				if seen[p.Label] {
					return nil, fmt.Errorf("schedulers %q: label %q appears twice", list, p.Label)
				}
				seen[p.Label] = true
				out = append(out, p)
			}
			continue
		}
		var p Policy
		var err error
		if e := policies.ParseEntry(entry); e.Labelled {
			label, source := e.Label, e.Source
			if label == "" {
				return nil, fmt.Errorf("scheduler entry %q: empty label", entry)
			}
			if sp, ok, err := b.labelledScheduler(label, source); err != nil {
				return nil, err
			} else if ok {
				if seen[sp.Label] {
					return nil, fmt.Errorf("schedulers %q: label %q appears twice", list, sp.Label)
				}
				seen[sp.Label] = true
				out = append(out, sp)
				continue
			}
			infix, runSeconds, err := formula.Source(source)
			if err != nil {
				return nil, fmt.Errorf("scheduler %s: %w", label, err)
			}
			fb := b
			if runSeconds != nil && !b.Explicit {
				fb.Seconds = *runSeconds
			}
			routing, err := formula.SourceRouting(source)
			if err != nil {
				return nil, fmt.Errorf("scheduler %s: %w", label, err)
			}
			if routing != nil {
				// A two-tree run: its whole scheduler, whatever the label.
				if p, err = fb.routingPolicy(routing, infix); err != nil {
					return nil, fmt.Errorf("scheduler %s: %w", label, err)
				}
				p.Label, p.Spec = label, entry
				if seen[p.Label] {
					return nil, fmt.Errorf("schedulers %q: label %q appears twice", list, p.Label)
				}
				seen[p.Label] = true
				out = append(out, p)
				continue
			}
			spec := FormulaScheduler
			if usesFormula(label) {
				spec = label
			}
			if p, err = fb.Policy(spec, infix); err != nil {
				return nil, err
			}
			p.Label, p.Source = label, infix
		} else {
			if p, err = b.Policy(entry, ""); err != nil {
				return nil, err
			}
			p.Label = entry
		}
		p.Spec = entry
		if seen[p.Label] {
			return nil, fmt.Errorf("schedulers %q: label %q appears twice", list, p.Label)
		}
		seen[p.Label] = true
		out = append(out, p)
	}
	return out, nil
}

// ReadBestInfix is formula.ReadBestInfix: the formula of a learner's
// best.json.
func ReadBestInfix(path string) (string, error) { return formula.ReadBestInfix(path) }

// FormulaSource is formula.Source: the formula of a LABEL=SOURCE entry.
func FormulaSource(source string) (infix string, seconds *bool, err error) {
	return formula.Source(source)
}

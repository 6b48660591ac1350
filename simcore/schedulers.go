package simcore

import (
	"fmt"
	"slices"
	"strings"
)

// Params are what a policy factory is built from: extra named rankings
// (learned formulas, by the name used in specs, e.g. "formula") and typed
// parameter sections keyed by policy name (e.g. "evo" → evo.Params). A
// factory reads its own section and ignores the rest; a missing section
// means the policy's defaults.
type Params struct {
	Rankings map[string]Ranking
	Sections map[string]any
}

// Section returns the parameter section of policy name as a T, or def when
// absent. A section of another type is an error.
func Section[T any](p Params, name string, def T) (T, error) {
	v, ok := p.Sections[name]
	if !ok {
		return def, nil
	}
	t, ok := v.(T)
	if !ok {
		return def, fmt.Errorf("parameters of %q: got %T, want %T", name, v, def)
	}
	return t, nil
}

// Factories build one policy from its parameters.
type (
	AllocatorFactory func(Params) (Allocator, error)
	RankingFactory   func(Params) (Ranking, error)
	PlacerFactory    func(Params) (Placer, error)
	// SchedulerFactory builds a whole scheduler (one that is not an
	// allocator + ranking + placer, such as Hydra); name is the spec
	// label.
	SchedulerFactory func(name string, p Params) (Scheduler, error)
)

// Registry maps policy names to factories: allocators, rankings and
// placers (composed as ALLOCATOR+RANKING+PLACER list schedulers), whole
// schedulers, and the named baselines. A new policy is one file and one
// registration call. A Registry is built per use (NewRegistry); there is no
// package-level registry.
type Registry struct {
	allocators map[string]AllocatorFactory
	rankings   map[string]RankingFactory
	placers    map[string]PlacerFactory
	schedulers map[string]SchedulerFactory
	aliases    map[string]string
	baselines  []string
}

// NewRegistry returns a registry holding simcore's policies: allocators
// user and mct, rankings fifo, srsf, lyra, sjf, srtf and wait, placers bestfit
// and roundrobin, and the paper's baselines (SPEC §5.3) spark, liquid,
// tiresias and lyra; and the alias gp (mct+formula+bestfit). Policies
// outside simcore register themselves on it (evo.Register, hydra.Register);
// package policies holds them all.
func NewRegistry() *Registry {
	r := &Registry{
		allocators: map[string]AllocatorFactory{},
		rankings:   map[string]RankingFactory{},
		placers:    map[string]PlacerFactory{},
		schedulers: map[string]SchedulerFactory{},
		aliases:    map[string]string{},
	}
	r.Allocator("user", fixed[Allocator](UserAllocator{}))
	r.Allocator("mct", fixed[Allocator](MCT{}))
	r.Ranking("fifo", fixed[Ranking](FIFO{}))
	r.Ranking("srsf", fixed[Ranking](SRSF{}))
	r.Ranking("lyra", fixed[Ranking](Lyra{}))
	r.Ranking("sjf", fixed[Ranking](SJF{}))
	r.Ranking("srtf", fixed[Ranking](SRTF{}))
	r.Ranking("wait", fixed[Ranking](WeightedWait{}))
	r.Placer("bestfit", fixed[Placer](BestFit{}))
	r.Placer("roundrobin", fixed[Placer](RoundRobin{}))
	r.Baseline("spark", "mct+fifo+roundrobin")
	r.Baseline("liquid", "mct+fifo+bestfit")
	r.Baseline("tiresias", "mct+srsf+bestfit")
	r.Baseline("lyra", "mct+lyra+bestfit")
	r.Alias("gp", "mct+formula+bestfit")
	return r
}

// fixed is the factory of a policy without parameters.
func fixed[T any](v T) func(Params) (T, error) { return func(Params) (T, error) { return v, nil } }

// Fixed is the factory of a policy without parameters, for registrations
// outside simcore: r.Allocator("x", simcore.Fixed[simcore.Allocator](X{})).
func Fixed[T any](v T) func(Params) (T, error) { return fixed(v) }

// Allocator registers an allocator factory under name.
func (r *Registry) Allocator(name string, f AllocatorFactory) { r.allocators[name] = f }

// Ranking registers a ranking factory under name.
func (r *Registry) Ranking(name string, f RankingFactory) { r.rankings[name] = f }

// Placer registers a placer factory under name.
func (r *Registry) Placer(name string, f PlacerFactory) { r.placers[name] = f }

// Scheduler registers a whole-scheduler factory under name.
func (r *Registry) Scheduler(name string, f SchedulerFactory) { r.schedulers[name] = f }

// Alias makes name stand for another spec (e.g. "evo-gp" for
// "evo+formula+bestfit").
func (r *Registry) Alias(name, spec string) { r.aliases[name] = spec }

// Baseline registers a named baseline: an alias that is also one of the
// reference schedulers every evaluation compares with.
func (r *Registry) Baseline(name, spec string) {
	r.aliases[name] = spec
	if !slices.Contains(r.baselines, name) {
		r.baselines = append(r.baselines, name)
	}
}

// Baselines lists the named baselines in registration order.
func (r *Registry) Baselines() []string { return slices.Clone(r.baselines) }

// Allocators lists the registered allocator names, sorted.
func (r *Registry) Allocators() []string { return sortedKeys(r.allocators) }

// Rankings lists the registered ranking names, sorted (names a caller
// passes in Params.Rankings, such as "formula", are not among them).
func (r *Registry) Rankings() []string { return sortedKeys(r.rankings) }

// Placers lists the registered placer names, sorted.
func (r *Registry) Placers() []string { return sortedKeys(r.placers) }

// Schedulers lists the registered whole-scheduler names (such as Hydra's),
// sorted.
func (r *Registry) Schedulers() []string { return sortedKeys(r.schedulers) }

// Aliases lists the alias names, baselines included, sorted.
func (r *Registry) Aliases() []string { return sortedKeys(r.aliases) }

// Resolve is the spec an alias stands for (lower-cased, trimmed); any
// other spec is returned as that.
func (r *Registry) Resolve(spec string) string {
	name := strings.ToLower(strings.TrimSpace(spec))
	if c, ok := r.aliases[name]; ok {
		return c
	}
	return name
}

// Names lists every name a spec may be on its own: the named schedulers
// and the aliases (baselines included), sorted.
func (r *Registry) Names() []string {
	all := map[string]bool{}
	for k := range r.aliases {
		all[k] = true
	}
	for k := range r.schedulers {
		all[k] = true
	}
	return sortedKeys(all)
}

// Parse resolves a scheduler spec: a registered scheduler or alias name,
// or ALLOCATOR+RANKING+PLACER where the ranking may also be a name in
// p.Rankings (that is how learned formulas plug in).
func (r *Registry) Parse(spec string, p Params) (Scheduler, error) {
	name := strings.ToLower(strings.TrimSpace(spec))
	combo := name
	if c, ok := r.aliases[name]; ok {
		combo = c
	}
	if f, ok := r.schedulers[combo]; ok {
		return f(name, p)
	}
	parts := strings.Split(combo, "+")
	if len(parts) != 3 {
		return nil, fmt.Errorf("unknown scheduler %q: want one of %s or ALLOCATOR+RANKING+PLACER (allocators: %s; rankings: %s; placers: %s)",
			spec, r.names(), keys(r.allocators), keys(r.rankings), keys(r.placers))
	}
	af, ok := r.allocators[parts[0]]
	if !ok {
		return nil, fmt.Errorf("scheduler %q: unknown allocator %q (have %s)", spec, parts[0], keys(r.allocators))
	}
	rank, ok := p.Rankings[parts[1]]
	if !ok {
		rf, found := r.rankings[parts[1]]
		if !found {
			return nil, fmt.Errorf("scheduler %q: unknown ranking %q (have %s)", spec, parts[1], keys(r.rankings))
		}
		var err error
		if rank, err = rf(p); err != nil {
			return nil, fmt.Errorf("scheduler %q: ranking %q: %w", spec, parts[1], err)
		}
	}
	pf, ok := r.placers[parts[2]]
	if !ok {
		return nil, fmt.Errorf("scheduler %q: unknown placer %q (have %s)", spec, parts[2], keys(r.placers))
	}
	alloc, err := af(p)
	if err != nil {
		return nil, fmt.Errorf("scheduler %q: allocator %q: %w", spec, parts[0], err)
	}
	place, err := pf(p)
	if err != nil {
		return nil, fmt.Errorf("scheduler %q: placer %q: %w", spec, parts[2], err)
	}
	ls := NewListScheduler(name, alloc, rank, place)
	ls.Parts = ListParts{Allocator: parts[0], Ranking: parts[1], Placer: parts[2]}
	return ls, nil
}

// names lists the named schedulers and aliases.
func (r *Registry) names() string { return strings.Join(r.Names(), ", ") }

// ParseScheduler resolves spec with simcore's own registry (NewRegistry)
// and extra named rankings: a named baseline (spark, liquid, tiresias,
// lyra) or ALLOCATOR+RANKING+PLACER such as user+fifo+bestfit, where the
// ranking may be "formula" (or a name found in extra).
func ParseScheduler(spec string, extra map[string]Ranking) (Scheduler, error) {
	return NewRegistry().Parse(spec, Params{Rankings: extra})
}

// Baselines lists the paper's named baselines (SPEC §5.3) that simcore
// itself holds: spark, liquid, tiresias, lyra. The reference set of every
// evaluation is policies.Baselines, which adds this project's wait-first
// (registered by simcore/rule).
func Baselines() []string { return NewRegistry().Baselines() }

// SchedulerNames lists the named baselines (sorted).
func SchedulerNames() []string {
	b := Baselines()
	slices.Sort(b)
	return b
}

func keys[V any](m map[string]V) string { return strings.Join(sortedKeys(m), ", ") }

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// ParseTrigger reads "arrival" or "arrival+completion".
func ParseTrigger(s string) (Trigger, error) {
	switch s {
	case "", "arrival":
		return TriggerArrival, nil
	case "arrival+completion":
		return TriggerArrivalCompletion, nil
	}
	return 0, fmt.Errorf("unknown trigger %q: want arrival or arrival+completion", s)
}

// String is the mode's name, as ParseBackfill reads it and as sim.backfill
// spells it.
func (b Backfill) String() string {
	switch b {
	case BackfillNone:
		return "none"
	case BackfillConservative:
		return "conservative"
	case BackfillGreedy:
		return "greedy"
	case BackfillStrict:
		return "strict"
	case BackfillPreemptive:
		return "preemptive"
	}
	return fmt.Sprintf("Backfill(%d)", int(b))
}

// ParseBackfill reads "none", "conservative", "greedy", "strict" or
// "preemptive".
func ParseBackfill(s string) (Backfill, error) {
	switch s {
	case "", "none":
		return BackfillNone, nil
	case "conservative":
		return BackfillConservative, nil
	case "greedy":
		return BackfillGreedy, nil
	case "strict":
		return BackfillStrict, nil
	case "preemptive":
		return BackfillPreemptive, nil
	}
	return 0, fmt.Errorf("unknown backfill mode %q: want none, conservative, greedy, strict or preemptive", s)
}

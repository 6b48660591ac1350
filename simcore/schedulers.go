package simcore

import (
	"fmt"
	"sort"
	"strings"
)

// The policy tables below are the only place that names policies: adding a
// policy is one new file plus one line here.

func allocators() map[string]Allocator {
	return map[string]Allocator{"user": UserAllocator{}, "mct": MCT{}}
}

func rankings() map[string]Ranking {
	return map[string]Ranking{"fifo": FIFO{}, "srsf": SRSF{}, "lyra": Lyra{}, "sjf": SJF{}, "srtf": SRTF{}}
}

func placers() map[string]Placer {
	return map[string]Placer{"bestfit": BestFit{}, "roundrobin": RoundRobin{}}
}

// named are the paper's baselines (SPEC §5.3) as allocator+ranking+placer.
func named() map[string]string {
	return map[string]string{
		"spark":    "mct+fifo+roundrobin",
		"liquid":   "mct+fifo+bestfit",
		"tiresias": "mct+srsf+bestfit",
		"lyra":     "mct+lyra+bestfit",
	}
}

// ParseScheduler resolves a named baseline (spark, liquid, tiresias, lyra) or
// an ALLOCATOR+RANKING+PLACER combination such as user+fifo+bestfit. The
// ranking part may be "formula" (or a name found in extra) when extra maps it
// to a Ranking — that is how learned formulas plug in.
func ParseScheduler(spec string, extra map[string]Ranking) (Scheduler, error) {
	name := strings.ToLower(strings.TrimSpace(spec))
	combo := name
	if c, ok := named()[name]; ok {
		combo = c
	}
	parts := strings.Split(combo, "+")
	if len(parts) != 3 {
		return Scheduler{}, fmt.Errorf("unknown scheduler %q: want one of %s or ALLOCATOR+RANKING+PLACER (allocators: %s; rankings: %s; placers: %s)",
			spec, keys(named()), keys(allocators()), keys(rankings()), keys(placers()))
	}
	alloc, ok := allocators()[parts[0]]
	if !ok {
		return Scheduler{}, fmt.Errorf("scheduler %q: unknown allocator %q (have %s)", spec, parts[0], keys(allocators()))
	}
	rank, ok := extra[parts[1]]
	if !ok {
		rank, ok = rankings()[parts[1]]
	}
	if !ok {
		return Scheduler{}, fmt.Errorf("scheduler %q: unknown ranking %q (have %s)", spec, parts[1], keys(rankings()))
	}
	place, ok := placers()[parts[2]]
	if !ok {
		return Scheduler{}, fmt.Errorf("scheduler %q: unknown placer %q (have %s)", spec, parts[2], keys(placers()))
	}
	return Scheduler{Name: name, Allocator: alloc, Ranking: rank, Placer: place}, nil
}

// SchedulerNames lists the named baselines.
func SchedulerNames() []string { return strings.Split(keys(named()), ", ") }

func keys[V any](m map[string]V) string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
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

// ParseBackfill reads "none", "conservative" or "greedy".
func ParseBackfill(s string) (Backfill, error) {
	switch s {
	case "", "none":
		return BackfillNone, nil
	case "conservative":
		return BackfillConservative, nil
	case "greedy":
		return BackfillGreedy, nil
	}
	return 0, fmt.Errorf("unknown backfill mode %q: want none, conservative or greedy", s)
}

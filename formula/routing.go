package formula

import (
	"fmt"
	"slices"
	"strings"

	"github.com/evogp/evogp/runfile"
)

// Routing is the routing half of a learned two-tree scheduler (SPEC §16,
// gp.learn: [routing, ranking]) as its best.json records it: the routing
// formula R, the rule allocator's scope, the scheduler spec the pair was
// learned under (rule+formula+PLACER) and R's terminal set. The ranking
// half is the best.json's "infix", as for every run.
type Routing struct {
	Infix     string
	Scope     string
	Spec      string
	Terminals []string
}

// SourceRouting is the routing half of the learned scheduler a policy
// source names (see Source): nil for an inline formula and for a run that
// learned the ranking only.
func SourceRouting(source string) (*Routing, error) {
	path, err := bestPath(source)
	if err != nil || path == "" {
		return nil, err
	}
	return ReadBestRouting(path)
}

// ReadBestRouting reads the routing half of a best.json (nil when its run
// learned the ranking only). A best.json whose "learn" lists routing must
// hold both trees, the scope and the scheduler spec; each missing piece is
// one clear error naming the file and the field.
func ReadBestRouting(path string) (*Routing, error) {
	best, err := runfile.LoadBest(path)
	if err != nil {
		return nil, err
	}
	two := slices.Contains(best.Learn, "routing")
	switch {
	case !two && best.RoutingInfix != "":
		return nil, fmt.Errorf(`%s: a "routing_infix" but "learn" = %v does not list routing`, path, best.Learn)
	case !two:
		return nil, nil
	case strings.TrimSpace(best.RoutingInfix) == "":
		return nil, fmt.Errorf(`%s: "learn" = %v but there is no "routing_infix": the routing tree R is missing`, path, best.Learn)
	case strings.TrimSpace(best.Infix) == "":
		return nil, fmt.Errorf(`%s: "learn" = %v but there is no "infix": the ranking tree f is missing`, path, best.Learn)
	case best.Scope != "arrivals" && best.Scope != "all":
		return nil, fmt.Errorf(`%s: "scope" = %q: must be arrivals or all`, path, best.Scope)
	case !strings.HasPrefix(best.Candidate, "rule+formula+"):
		return nil, fmt.Errorf(`%s: "candidate" = %q: a two-tree run's scheduler must be rule+formula+PLACER`, path, best.Candidate)
	case len(best.RoutingTerminals) == 0:
		return nil, fmt.Errorf(`%s: "learn" = %v but "routing_terminals" is empty`, path, best.Learn)
	}
	return &Routing{Infix: best.RoutingInfix, Scope: best.Scope, Spec: best.Candidate, Terminals: best.RoutingTerminals}, nil
}

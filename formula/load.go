package formula

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/runfile"
)

// Files of a learner run directory that a saved policy is read from
// (runfile names them).
const (
	// BestFile holds the learned formula ("infix") and its scores.
	BestFile = runfile.BestFile
	// ConfigFile is the run's config, whose gp.time_unit is the unit of
	// the formula's time terminals.
	ConfigFile = runfile.ConfigFile
)

// Source returns the formula of a policy source: the infix of source if it
// names a .json file or a directory holding BestFile, otherwise source
// itself, which must parse as a formula. The prefixes "run:" (a run
// directory or best.json) and "formula:" force one reading. A bare source
// that is both a formula and an existing directory (the formula d beside a
// directory named d) is refused as ambiguous rather than read silently as
// either. For a best.json with a learner ConfigFile beside it, seconds
// reports whether that run measured d, q, a and s in seconds
// (gp.time_unit); it is nil otherwise.
func Source(source string) (infix string, seconds *bool, err error) {
	if f, ok := strings.CutPrefix(source, "formula:"); ok {
		if _, err := expr.Parse(f); err != nil {
			return "", nil, fmt.Errorf("formula %s: %w", expr.Quote(f, err), err)
		}
		return f, nil, nil
	}
	run, forced := strings.CutPrefix(source, "run:")
	if forced {
		source = run
	}
	path := ""
	if strings.HasSuffix(strings.ToLower(source), ".json") {
		path = source
	} else if st, err := os.Stat(source); err == nil && st.IsDir() {
		if _, perr := expr.Parse(source); perr == nil && !forced && !strings.ContainsAny(source, `/\`) {
			return "", nil, fmt.Errorf("%q is both a formula and a directory here: write formula:%s for the formula or run:%s (or ./%s) for the run directory", source, source, source, source)
		}
		path = filepath.Join(source, BestFile)
	} else if forced {
		return "", nil, fmt.Errorf("run:%s: not a run directory or best.json", source)
	}
	if path != "" {
		if _, err := ReadBestRouting(path); err != nil {
			return "", nil, err
		}
		if infix, err = ReadBestInfix(path); err != nil {
			return "", nil, err
		}
		dir := filepath.Dir(path)
		if _, statErr := os.Stat(filepath.Join(dir, ConfigFile)); statErr == nil {
			cfg, err := configs.Load(filepath.Join(dir, ConfigFile))
			if err != nil {
				return "", nil, fmt.Errorf("run %s: %w", dir, err)
			}
			sec := cfg.GP.TimeUnit == "seconds"
			seconds = &sec
		}
		return infix, seconds, nil
	}
	if _, err := expr.Parse(source); err != nil {
		if strings.ContainsAny(source, `/\`) {
			return "", nil, fmt.Errorf("%s is neither a run directory or best.json nor a formula (%w)", expr.Quote(source, err), err)
		}
		return "", nil, fmt.Errorf("formula %s: %w", expr.Quote(source, err), err)
	}
	return source, nil, nil
}

// bestPath is the best.json a policy source names ("" for an inline
// formula), by Source's rules.
func bestPath(source string) (string, error) {
	if _, ok := strings.CutPrefix(source, "formula:"); ok {
		return "", nil
	}
	run, forced := strings.CutPrefix(source, "run:")
	if forced {
		source = run
	}
	if strings.HasSuffix(strings.ToLower(source), ".json") {
		return source, nil
	}
	if st, err := os.Stat(source); err == nil && st.IsDir() {
		return filepath.Join(source, BestFile), nil
	}
	return "", nil
}

// ReadBestInfix reads the "infix" field of a learner's best.json and checks
// that it parses.
func ReadBestInfix(path string) (string, error) {
	best, err := runfile.LoadBest(path)
	if err != nil {
		return "", err
	}
	if strings.TrimSpace(best.Infix) == "" {
		return "", fmt.Errorf("%s: no \"infix\" formula", path)
	}
	if _, err := expr.Parse(best.Infix); err != nil {
		return "", fmt.Errorf("%s: infix %s: %w", path, expr.Quote(best.Infix, err), err)
	}
	return best.Infix, nil
}

// Reduced is the reduced individual of a learner's best.json ("reduced":
// the smallest trees found that schedule every training and validation
// instance exactly as the evolved ones): the ranking formula, the routing
// formula ("" for a one-tree run) and what it was checked on.
type Reduced struct {
	Infix, RoutingInfix string
	Instances           int
}

// ReadBestReduced reads best.json's "reduced" and checks that its
// formulas parse; nil when the file has none (written before reduction
// existed) or it is not exact.
func ReadBestReduced(path string) (*Reduced, error) {
	best, err := runfile.LoadBest(path)
	if err != nil {
		return nil, err
	}
	r := best.Reduced
	if r == nil || !r.Exact {
		return nil, nil
	}
	if _, err := expr.Parse(r.Infix); err != nil {
		return nil, fmt.Errorf("%s: reduced infix %s: %w", path, expr.Quote(r.Infix, err), err)
	}
	if r.RoutingInfix != "" {
		if _, err := expr.Routing.Parse(r.RoutingInfix); err != nil {
			return nil, fmt.Errorf("%s: reduced routing_infix %s: %w", path, expr.Quote(r.RoutingInfix, err), err)
		}
	}
	return &Reduced{Infix: r.Infix, RoutingInfix: r.RoutingInfix, Instances: r.CheckedOn.Instances}, nil
}

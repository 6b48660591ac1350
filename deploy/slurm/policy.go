package slurm

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/experiment"
	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/learn"
	"github.com/evogp/evogp/runfile"
	"github.com/evogp/evogp/simcore"
)

// Learned is the learned scheduler a run directory or best.json holds,
// built exactly as simulate and eval build it (experiment.PolicyBuilder),
// with the simulator options of its run.
type Learned struct {
	Label     string // the policy's label: spec and formulas
	Scheduler simcore.Scheduler
	Options   simcore.Options
	Ranking   string // the ranking tree f (infix)
	Routing   string // the routing tree R ("" for a one-tree run)
	Scope     string // the rule allocator's scope of a two-tree run
	Seconds   bool   // d, q and a in seconds instead of hours
}

// LoadLearned reads RUN (a learn run directory or a best.json); with
// omegaGiven, the member of its front that ω picks. A tree using a
// terminal Slurm cannot supply is refused, naming the terminal.
func LoadLearned(run string, omega float64, omegaGiven bool) (Learned, error) {
	path := run
	if st, err := os.Stat(run); err == nil && st.IsDir() {
		path = filepath.Join(run, runfile.BestFile)
	} else if err != nil {
		return Learned{}, fmt.Errorf("RUN %s: %w", run, err)
	}
	if !strings.HasSuffix(strings.ToLower(path), ".json") {
		return Learned{}, fmt.Errorf("RUN %s: not a learn run directory or a best.json", run)
	}
	best, err := learn.ReadBest(path)
	if err != nil {
		return Learned{}, err
	}
	l := Learned{Ranking: best.Infix, Routing: best.RoutingInfix, Scope: best.Scope}
	member := -1
	switch {
	case omegaGiven && best.Front == nil:
		return Learned{}, fmt.Errorf("--omega %v: %s learned no front (gp.selection: nsga2); give its run without --omega", omega, path)
	case omegaGiven:
		if member, err = best.Front.PickOmega(omega); err != nil {
			return Learned{}, fmt.Errorf("--omega: %s: %w", path, err)
		}
	case best.Front != nil:
		member = best.Front.Pick
	}
	if member >= 0 {
		m := best.Front.Members[member]
		l.Ranking, l.Routing = m.Infix, m.RoutingInfix
		if l.Routing == "" {
			l.Routing = best.RoutingInfix
		}
	}
	if err := l.checkTerminals(path); err != nil {
		return Learned{}, err
	}
	// The run's own config: its time unit, rule and evo sections and
	// simulator settings, as the learner scored the scheduler.
	cfg := configs.Default()
	dir := filepath.Dir(path)
	if _, err := os.Stat(filepath.Join(dir, runfile.ConfigFile)); err == nil {
		if cfg, err = configs.Load(filepath.Join(dir, runfile.ConfigFile)); err != nil {
			return Learned{}, fmt.Errorf("run %s: %w", dir, err)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return Learned{}, err
	}
	l.Seconds = cfg.GP.TimeUnit == "seconds"
	if best.TimeUnit != "" {
		l.Seconds = best.TimeUnit == "seconds"
	}
	b, err := experiment.ConfigPolicyBuilder(cfg, l.Seconds, false)
	if err != nil {
		return Learned{}, fmt.Errorf("run %s: %w", dir, err)
	}
	label := "deploy"
	if best.Candidate != "" && best.RoutingInfix == "" {
		label = best.Candidate // the scheduler the formula was scored under
	}
	ps, err := b.Policies(label + "=" + path)
	if err != nil {
		return Learned{}, err
	}
	p := ps[0]
	if member >= 0 {
		if member >= len(ps) {
			return Learned{}, fmt.Errorf("%s: front member %d of %d", path, member+1, len(ps))
		}
		p = ps[member]
	}
	l.Label, l.Scheduler = p.Name, p.Scheduler()
	if l.Options, err = (experiment.SimSettings{Sim: cfg.Sim, Objective: cfg.Objective}).Options(); err != nil {
		return Learned{}, fmt.Errorf("run %s: %w", dir, err)
	}
	return l, nil
}

// checkTerminals refuses trees using terminals deploy cannot compute.
func (l Learned) checkTerminals(path string) error {
	t, err := expr.Parse(l.Ranking)
	if err != nil {
		return fmt.Errorf("%s: ranking tree %s: %w", path, expr.Quote(l.Ranking, err), err)
	}
	if err := checkTerminals("ranking", t.Terminals().Names(), rankingTerminals); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if l.Routing == "" {
		return nil
	}
	r, err := expr.Routing.Parse(l.Routing)
	if err != nil {
		return fmt.Errorf("%s: routing tree %s: %w", path, expr.Quote(l.Routing, err), err)
	}
	if err := checkTerminals("routing", r.Terminals().Names(), routingTerminals); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

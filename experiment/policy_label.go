package experiment

import (
	"fmt"
	"os"

	"github.com/evogp/evogp/policies"
)

// labelledScheduler reads the SOURCE of a LABEL=SOURCE entry as a whole
// scheduler spec (srtf=mct+srtf+bestfit, mine=evo-srsf,
// h=hydra:budget=200), so that a composed or named scheduler can run under
// a label of the user's choosing. ok is false when source is not a
// scheduler spec on its own (a formula, a run directory or best.json, or a
// spec whose ranking is formula, which needs one). The prefix "scheduler:"
// forces this reading; a bare source that is both a scheduler spec and an
// existing file or directory is refused as ambiguous. The policy's Spec is
// the scheduler spec, so that an eval task rebuilds it (rebuildPolicy).
func (b PolicyBuilder) labelledScheduler(label, source string) (p Policy, ok bool, err error) {
	reading, spec := policies.SourceReading(source)
	if reading == policies.ReadRun || reading == policies.ReadFormula {
		return Policy{}, false, nil
	}
	forced := reading == policies.ReadScheduler
	if _, perr := b.parse(spec, nil); perr != nil {
		if forced {
			return Policy{}, false, fmt.Errorf("scheduler %s: %w", label, perr)
		}
		return Policy{}, false, nil
	}
	if _, statErr := os.Stat(spec); statErr == nil && !forced {
		return Policy{}, false, fmt.Errorf("scheduler %s: %q is both a scheduler and a file or directory here: write scheduler:%s for the scheduler or run:%s for the run", label, spec, spec, spec)
	}
	p, err = b.Policy(spec, "")
	if err != nil {
		return Policy{}, false, err
	}
	p.Label = label
	return p, true, nil
}

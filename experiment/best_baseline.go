package experiment

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/evogp/evogp/formula"
)

// BasisFlag is the basis of a best baseline named with --best-baseline.
const BasisFlag = "by the user (--best-baseline)"

// validationBestBaseline chooses an eval's best baseline on data other
// than the evaluated set: the baseline that the learner runs among the
// policies (LABEL=RUN entries) chose on their validation sets, when they
// agree and it is one of the policies. ok is false otherwise, and the
// summary then says that the best baseline was chosen on the evaluated
// data itself (reports.BasisThisData).
func validationBestBaseline(ps []Policy) (name, basis string, ok bool, err error) {
	labels := make([]string, len(ps))
	for i, p := range ps {
		labels[i] = p.Label
	}
	var runs []string
	for _, p := range ps {
		_, source, isLabelled := strings.Cut(p.Spec, "=")
		if !isLabelled {
			continue
		}
		n, path, has, err := formula.ValidationBestBaseline(strings.TrimSpace(source))
		if err != nil {
			return "", "", false, fmt.Errorf("scheduler %s: %w", p.Label, err)
		}
		if !has {
			continue
		}
		if name != "" && n != name {
			return "", "", false, nil // runs disagree: no one validation choice
		}
		name = n
		runs = append(runs, filepath.Dir(path))
	}
	if name == "" || !slices.Contains(labels, name) {
		return "", "", false, nil
	}
	what := "run " + strings.Join(runs, ", ")
	if len(runs) > 1 {
		what = "runs " + strings.Join(runs, ", ")
	}
	return name, "on the validation set of the learner " + what + " (best.json), not on this data", true, nil
}

// withBestBaseline completes fo's best baseline: one named by the user
// must be a policy; otherwise the learner runs' validation choice
// (validationBestBaseline), if any.
func withBestBaseline(fo FigureOptions, ps []Policy) (FigureOptions, error) {
	if fo.BestBaseline != "" {
		if !slices.ContainsFunc(ps, func(p Policy) bool { return p.Label == fo.BestBaseline }) {
			return fo, fmt.Errorf("--best-baseline %q is not one of the schedulers", fo.BestBaseline)
		}
		if fo.BestBaselineBasis == "" {
			fo.BestBaselineBasis = BasisFlag
		}
		return fo, nil
	}
	name, basis, ok, err := validationBestBaseline(ps)
	if err != nil || !ok {
		return fo, err
	}
	fo.BestBaseline, fo.BestBaselineBasis = name, basis
	return fo, nil
}

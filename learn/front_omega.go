package learn

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/internal/atomicio"
	"github.com/evogp/evogp/internal/pareto"
	"github.com/evogp/evogp/policies"
	"github.com/evogp/evogp/runfile"
	"github.com/evogp/evogp/simcore"
)

// OmegaFile is the ω table of a front run (pareto.WriteOmegaTable's text).
const OmegaFile = runfile.OmegaFile

// omegaWeighsSize reports whether ω weighs size (the first two
// objectives): baselines have no size, so there is nothing to compare.
func omegaWeighsSize(names []string) bool {
	return slices.Contains(names[:min(2, len(names))], "size")
}

// scoreOmega simulates every member of front, SRSF and the named
// baselines on test and sets front.Omega. testName names the split.
func (fs *frontState) scoreOmega(ctx context.Context, ev *evaluator, front *Front, test []simcore.Instance, testName string) error {
	om := &FrontOmega{Test: testName, Selection: "validation"}
	front.Omega = om
	switch {
	case len(test) == 0:
		om.Note = "no test split (data.test 0): no ω table"
		return nil
	case omegaWeighsSize(fs.names):
		om.Note = "ω weighs size, which baselines do not have: no ω table"
		return nil
	}
	scheds := []simcore.Scheduler{ev.srsf}
	for _, name := range fs.baseNames {
		s, err := policies.ParseWith(name, nil) // the registry: wait-first is a rule scheduler
		if err != nil {
			return err
		}
		scheds = append(scheds, s)
	}
	for _, m := range front.Members {
		s, err := ev.individualScheduler(simplifyRouting(m.Routing.Tree), NewFormulaRanking(expr.Simplify(m.Tree), ev.seconds))
		if err != nil {
			return err
		}
		scheds = append(scheds, s)
	}
	ms, err := simulateMetrics(ctx, scheds, test, ev.opts, ev.workers)
	if err != nil {
		return fmt.Errorf("ω table on the test split: %w", err)
	}
	srsf := ms[0]
	vectors := func(k int, size float64) [][]float64 {
		out := make([][]float64, len(test))
		for i := range test {
			out[i] = fs.terms(ms[k][i], srsf[i])
			for o, name := range fs.names {
				if name == "size" {
					out[i][o] = size
				}
			}
		}
		return out
	}
	in := pareto.OmegaInput{Baselines: []string{"srsf"}}
	ones := fs.terms(srsf[0], srsf[0]) // 1 per simulated objective, size 0
	in.BaselineSelection = [][]float64{ones}
	in.BaselineTest = [][][]float64{vectors(0, 0)}
	for b, name := range fs.baseNames {
		in.Baselines = append(in.Baselines, name)
		in.BaselineSelection = append(in.BaselineSelection, fs.baseVal[b])
		in.BaselineTest = append(in.BaselineTest, vectors(1+b, 0))
	}
	for k, m := range front.Members {
		in.Members = append(in.Members, m.Label)
		in.MemberSelection = append(in.MemberSelection, m.Validation)
		in.MemberTest = append(in.MemberTest, vectors(1+len(fs.baseNames)+k, float64(m.Size)))
	}
	om.Rows, err = pareto.OmegaTable(in, pareto.OmegaGrid())
	return err
}

// writeOmega writes OmegaFile in dir.
func writeOmega(dir string, f *Front) error {
	var buf bytes.Buffer
	if err := f.WriteOmega(&buf); err != nil {
		return err
	}
	return atomicio.WriteBytes(filepath.Join(dir, OmegaFile), buf.Bytes())
}

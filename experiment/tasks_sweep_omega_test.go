package experiment

import (
	"strings"
	"testing"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/simcore"
)

// ObjectiveKind.Reads().Omega agrees with what each kind of the table computes: a
// kind reads ω exactly when its final objective changes with ω on metrics
// whose terms differ.
func TestObjectiveReadsOmegaAgreesWithFinal(t *testing.T) {
	m := simcore.Metrics{CQAvg: 2, CQMax: 5, Util: 0.5, AvgJCT: 3, MaxQT: 11, TotalTardiness: 7, Jobs: 2}
	for _, k := range simcore.ObjectiveKinds() {
		o := simcore.Objective{Kind: k, Weights: [3]float64{1, 1, 1}}
		lo, hi := o, o
		lo.Omega, hi.Omega = 0.25, 0.75
		changes := k.Final(lo, m) != k.Final(hi, m)
		if got := k.Reads().Omega; got != changes {
			t.Errorf("%s: Reads().Omega = %v, but Final changes with ω: %v", k.Name(), got, changes)
		}
	}
	if simcore.MultiCluster.Reads().Omega || !simcore.SingleCluster.Reads().Omega || !simcore.DeadlineAware.Reads().Omega {
		t.Error("multi must not read ω; single and deadline must")
	}
	err := checkSweepAxes([]SweepAxis{{Key: "objective.omega"}}, configs.Default())
	if err == nil || !strings.Contains(err.Error(), "objective.kind=single or objective.kind=deadline") {
		t.Errorf("got %v", err)
	}
}

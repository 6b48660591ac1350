package learn

import (
	"fmt"

	"github.com/evogp/evogp/configs"
	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/runfile"
)

// What a run writes is declared in runfile, the one place; these names
// keep learn's API.
type (
	// BestJSON is the content of best.json (runfile.Best).
	BestJSON        = runfile.Best
	BaselineScore   = runfile.BaselineScore
	TestTable       = runfile.TestTable
	TestRow         = runfile.TestRow
	Front           = runfile.Front
	FrontMember     = runfile.FrontMember
	FrontBaseline   = runfile.FrontBaseline
	FrontOmega      = runfile.FrontOmega
	ReducedJSON     = runfile.Reduced
	ApproximateJSON = runfile.Approximate
	CheckedOn       = runfile.CheckedOn
	RoutingTree     = runfile.RoutingTree
)

// Row names of the test table besides the named baselines.
const (
	RowLearned  = runfile.RowLearned
	RowConstant = runfile.RowConstant
	RowSRSF     = runfile.RowSRSF
)

// The data a TestTable's best baseline was chosen on.
const (
	BasisValidation = runfile.BasisValidation
	BasisTestSplit  = runfile.BasisTestSplit
)

// ReadBest reads a best.json (runfile.ReadBest) and checks that its
// formula uses only the terminals recorded with it, all of which the
// simulator can supply.
func ReadBest(path string) (*BestJSON, error) {
	best, err := runfile.ReadBest(path)
	if err != nil {
		return nil, err
	}
	if err := CheckTerminals(best.Tree, best.Terminals.Or(expr.PaperTerminals)); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return best, nil
}

// bestCurve is the validation curve as best.json records it.
func bestCurve(curve []CurvePoint) []runfile.CurvePoint {
	out := make([]runfile.CurvePoint, len(curve))
	for i, c := range curve {
		out[i] = runfile.CurvePoint{Generation: c.Generation, Score: c.Score, Formula: c.Formula}
	}
	return out
}

// objectiveRecord is the config's objective as best.json records it
// (nil only for a config the run would have refused).
func objectiveRecord(c configs.Config) *runfile.Objective {
	rec, err := c.Objective.Record()
	if err != nil {
		return nil
	}
	return &rec
}

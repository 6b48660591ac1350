package runfile

import (
	"github.com/evogp/evogp/expr"
)

// Best is the content of best.json: the chosen priority function in
// every form, its scores and where it came from. It holds nothing that
// depends on the wall clock or the run directory, so an interrupted and
// resumed run writes the same bytes as an uninterrupted one.
type Best struct {
	Config string `json:"config"`
	Seed   uint64 `json:"seed"`
	// Objective is the objective the run was scored under, as prose
	// (simcore's ObjectiveKind.Describe), kept for readers of older
	// files; ObjectiveRecord is the same objective as a record (absent
	// in a best.json written before it existed).
	Objective       string     `json:"objective"`
	ObjectiveRecord *Objective `json:"objective_record,omitempty"`
	Generations     int        `json:"generations"`
	Tree            *expr.Tree `json:"tree"`
	Infix           string     `json:"infix"`
	Simplified      string     `json:"simplified"`
	SimplifiedTree  *expr.Tree `json:"simplified_tree"`
	// SimplifiedDomain is expr.SimplifyOn(Tree, expr.DefaultDomain()): the
	// formula simplified for the simulator's inputs (d ≥ 1/3600, q ≥ 0,
	// u ≥ 1, g ≥ 1, no intermediate overflow), where it ranks jobs exactly
	// as Tree does; for other inputs use Simplified.
	SimplifiedDomain string `json:"simplified_domain"`
	LaTeX            string `json:"latex"`
	Hash             string `json:"hash"`
	Size             int    `json:"size"`
	Depth            int    `json:"depth"`
	// Validation is the mean over the validation instances of O_c,i /
	// O_SRSF,i (SRSF scores 1; lower is better).
	Validation          float64 `json:"validation_score"`
	ValidationInstances int     `json:"validation_instances"`
	// TrainScore is the chosen tree's last training fitness divided by the
	// subset size, or null if it was not in the final population.
	TrainScore *float64 `json:"train_score"`
	// Terminals is the run's terminal set (gp.terminals) and Constants
	// whether ephemeral constants were on: the formula uses nothing else.
	// A best.json without the key is read as the paper's {d, q, u, g}.
	Terminals expr.Terminals `json:"terminals"`
	Constants bool           `json:"constants"`
	// Candidate is the scheduler the formula was scored under
	// (gp.allocator + formula + gp.placer); TimeUnit the unit of d, q, a, s.
	Candidate string `json:"candidate"`
	TimeUnit  string `json:"time_unit"`
	// ValidationBaselines are the named baselines' validation scores (same
	// scale as Validation) and BestBaseline the lowest of them.
	ValidationBaselines []BaselineScore `json:"validation_baselines"`
	BestBaseline        string          `json:"best_baseline"`
	// ValidationCurve is the best individual's validation score every
	// gp.validate_every generations.
	ValidationCurve []CurvePoint `json:"validation_curve"`
	// Test is the held-out test table (null without test instances).
	Test *TestTable `json:"test"`
	// Warnings: constant formula, or ranking exactly like a reference.
	Warnings []string `json:"warnings"`
	// Front is the front of formulas (gp.selection: nsga2; absent with
	// scalar selection). The formula above is its member for the
	// config's ω.
	Front *Front `json:"front,omitempty"`
	// Reduced is the chosen individual reduced to the smallest trees found
	// that schedule every training and validation instance as Tree (and
	// RoutingTree) do, checked by simulation; printed and exported first.
	// Absent in a best.json written before reduction existed.
	Reduced *Reduced `json:"reduced,omitempty"`
	// With gp.learn: [routing, ranking] (absent otherwise): the trees
	// learned ("routing", "ranking"), the routing tree R as evolved and
	// simplified, its terminal set (gp.routing_terminals) and the rule
	// allocator's scope. Tree, Infix, Simplified and Terminals above are
	// the ranking tree f's; Candidate is then rule+formula+PLACER, Hash,
	// Size and Depth are of the pair.
	Learn                 []string    `json:"learn,omitempty"`
	RoutingTree           RoutingTree `json:"routing_tree,omitzero"`
	RoutingInfix          string      `json:"routing_infix,omitempty"`
	RoutingSimplified     string      `json:"routing_simplified,omitempty"`
	RoutingSimplifiedTree RoutingTree `json:"routing_simplified_tree,omitzero"`
	RoutingTerminals      []string    `json:"routing_terminals,omitempty"`
	Scope                 string      `json:"scope,omitempty"`
}

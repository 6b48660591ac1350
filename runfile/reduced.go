package runfile

import "github.com/evogp/evogp/expr"

// reduced pair scores. A best.json written before reduction existed has
// none; readers then use the evolved trees.
type Reduced struct {
	// Ranking is the reduced ranking tree f; Infix its infix, Readable
	// its readable text (expr.Readable: "/" where the divisor is never 0
	// on the simulator's inputs, "-x" for 0 - x).
	Ranking  *expr.Tree `json:"tree"`
	Infix    string     `json:"infix"`
	Readable string     `json:"readable"`
	LaTeX    string     `json:"latex"`
	Size     int        `json:"size"`
	// Routing* are the reduced routing tree R (two-tree runs only).
	Routing         RoutingTree `json:"routing_tree,omitzero"`
	RoutingInfix    string      `json:"routing_infix,omitempty"`
	RoutingReadable string      `json:"routing_readable,omitempty"`
	RoutingLaTeX    string      `json:"routing_latex,omitempty"`
	RoutingSize     int         `json:"routing_size,omitempty"`
	// EvolvedSize and EvolvedRoutingSize are the sizes of the evolved
	// trees (best.json "tree" and "routing_tree").
	EvolvedSize        int `json:"evolved_size"`
	EvolvedRoutingSize int `json:"evolved_routing_size,omitempty"`
	// Exact: the reduced pair's schedule is identical, job for job, to
	// the evolved pair's on every instance of CheckedOn.
	Exact     bool      `json:"exact"`
	CheckedOn CheckedOn `json:"checked_on"`
	// Like names the known rule each reduced tree is (≡ on the simulator's
	// inputs), e.g. "m (MCT)", or orders like ("FIFO-like"); empty for
	// none.
	Like        string `json:"like,omitempty"`
	RoutingLike string `json:"routing_like,omitempty"`
	// Validation is the reduced pair's validation score (equal to the
	// evolved one's when Exact); Test its mean normalised objective on the
	// test split (null without one) and TestIdentical the number of test
	// instances (not checked during reduction) on which its schedule is
	// the evolved pair's.
	Validation    float64  `json:"validation_score"`
	Test          *float64 `json:"test_score"`
	TestIdentical *int     `json:"test_identical"`
	TestInstances int      `json:"test_instances,omitempty"`
	// Approximate is the shorter approximation of --reduce-tolerance
	// (absent without it): NOT the same schedule, only a validation score
	// within the tolerance.
	Approximate *Approximate `json:"approximate,omitempty"`
}

// Approximate is an approximation of the reduced pair found with
// --reduce-tolerance: smaller, its validation score within Tolerance % of
// the exact one's; it is never used as the learned scheduler.
type Approximate struct {
	Label           string      `json:"label"` // always "approximate"
	Tolerance       float64     `json:"tolerance_percent"`
	Ranking         *expr.Tree  `json:"tree"`
	Infix           string      `json:"infix"`
	Readable        string      `json:"readable"`
	Routing         RoutingTree `json:"routing_tree,omitzero"`
	RoutingReadable string      `json:"routing_readable,omitempty"`
	Validation      float64     `json:"validation_score"`
}

// CheckedOn says what a reduction was checked on: the instance sets and
// their total, each instance simulated to the end and compared job for
// job.
type CheckedOn struct {
	Instances int      `json:"instances"`
	Sets      []string `json:"sets"`
	Training  int      `json:"training"`
	Valid     int      `json:"validation"`
}

// DisplayFormulas are the formulas a reader is shown first: the reduced
// trees in readable notation with their readings ("≡ m (MCT)") when
// best.json has a reduction, else the simplified evolved ones; routing ""
// for a one-tree run.
func (b *Best) DisplayFormulas() (routing, ranking string) {
	if r := b.Reduced; r != nil && r.Readable != "" {
		with := func(s, like string) string {
			if like != "" && s != "" {
				return s + "   " + like
			}
			return s
		}
		return with(r.RoutingReadable, r.RoutingLike), with(r.Readable, r.Like)
	}
	return b.RoutingSimplified, b.Simplified
}

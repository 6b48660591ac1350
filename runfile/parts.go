package runfile

import (
	"github.com/evogp/evogp/expr"
)

// CurvePoint is the validation score of the best individual of a
// generation (best.json "validation_curve").
type CurvePoint struct {
	Generation int     `json:"generation"`
	Score      float64 `json:"score"`
	Formula    string  `json:"formula"`
}

// BaselineScore is a named baseline's mean normalised objective on the
// validation set (SRSF = 1).
type BaselineScore struct {
	Name  string  `json:"name"`
	Score float64 `json:"score"`
}

// RoutingTree is a routing tree in JSON (best.json, the checkpoint, the
// hall of fame): it encodes as the tree does and decodes over the routing
// catalogue; the zero value (no routing tree) is omitted with omitzero.
type RoutingTree struct{ Tree *expr.Tree }

// IsZero reports whether there is no routing tree.
func (r RoutingTree) IsZero() bool { return r.Tree == nil }

// MarshalJSON encodes the tree.
func (r RoutingTree) MarshalJSON() ([]byte, error) { return r.Tree.MarshalJSON() }

// UnmarshalJSON decodes a routing tree.
func (r *RoutingTree) UnmarshalJSON(b []byte) error {
	t, err := expr.Routing.DecodeJSON(b)
	if err != nil {
		return err
	}
	r.Tree = t
	return nil
}

package runfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"

	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/internal/atomicio"
)

// FieldError is a best.json that cannot be read: the file, the field
// ("" when the file is not JSON at all) and why.
type FieldError struct {
	Path, Field string
	Err         error
}

func (e *FieldError) Error() string {
	if e.Field == "" {
		return fmt.Sprintf("%s: not valid JSON: %v", e.Path, e.Err)
	}
	return fmt.Sprintf("%s: field %q: %v", e.Path, e.Field, e.Err)
}

func (e *FieldError) Unwrap() error { return e.Err }

// LoadBest reads a best.json as it is, without requiring the fields a
// learner writes: a policy source may be a hand-written {"infix": …}.
// Every best.json written by evogp since the file existed reads (fields
// added later are zero in older files; unknown fields are ignored). An
// error names the file and, when it is one field's, the field.
func LoadBest(path string) (*Best, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", BestFile, err)
	}
	return DecodeBest(path, data)
}

// DecodeBest decodes data, the content of the best.json at path (named in
// errors), as LoadBest does.
func DecodeBest(path string, data []byte) (*Best, error) {
	var b Best
	err := json.Unmarshal(data, &b)
	if err == nil {
		if b.ObjectiveRecord != nil {
			if err := b.ObjectiveRecord.Validate(); err != nil {
				return nil, &FieldError{path, "objective_record", err}
			}
		}
		return &b, nil
	}
	if te, ok := errors.AsType[*json.UnmarshalTypeError](err); ok && te.Field != "" {
		return nil, &FieldError{path, te.Field, fmt.Errorf("got a JSON %s, want %s: %w", te.Value, te.Type, errTypeMismatch)}
	}
	return nil, &FieldError{path, culprit(data, err), err}
}

// errTypeMismatch is the cause of a FieldError whose field has the wrong
// JSON type.
var errTypeMismatch = errors.New("wrong type")

// culprit is the top-level field of data whose value err is about, ""
// for malformed JSON: the field of a type error, else the first field
// that alone fails to decode.
func culprit(data []byte, err error) string {
	if _, ok := errors.AsType[*json.SyntaxError](err); ok {
		return ""
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(data, &fields) != nil {
		return ""
	}
	names := make([]string, 0, len(fields))
	for k := range fields {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		one, _ := json.Marshal(map[string]json.RawMessage{k: fields[k]})
		var b Best
		if json.Unmarshal(one, &b) != nil {
			return k
		}
	}
	return ""
}

// ReadBest reads a learner's best.json (LoadBest) and checks it (Check).
func ReadBest(path string) (*Best, error) {
	b, err := LoadBest(path)
	if err != nil {
		return nil, err
	}
	if err := b.Check(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return b, nil
}

// Check checks what a learner's best.json must hold: a "tree" over the
// terminals recorded with it ("terminals", the paper's {d, q, u, g} when
// absent) and, for a run that learned a routing tree, that tree over its
// "routing_terminals" with a "scope"; no routing tree otherwise.
func (b *Best) Check() error {
	if b.Tree.Size() == 0 {
		return errors.New(`no "tree"`)
	}
	allowed := b.Terminals.Or(expr.PaperTerminals)
	if extra := b.Tree.Terminals().Minus(allowed); extra != 0 {
		return fmt.Errorf("formula %s uses terminal(s) %s outside the terminal set [%s]", b.Tree, extra, allowed)
	}
	return b.checkRouting()
}

// checkRouting checks the routing part: a run that learned a routing tree
// must hold it, over its recorded routing terminals, with a scope.
func (b *Best) checkRouting() error {
	two := slices.Contains(b.Learn, "routing")
	switch {
	case !two && b.RoutingTree.Tree != nil:
		return errors.New(`a "routing_tree" but "learn" does not list routing`)
	case !two:
		return nil
	case b.RoutingTree.Tree == nil || b.RoutingTree.Tree.Size() == 0:
		return fmt.Errorf(`"learn" is %v but there is no "routing_tree": the routing tree is missing`, b.Learn)
	case b.Scope != "arrivals" && b.Scope != "all":
		return fmt.Errorf(`"scope" = %q: must be arrivals or all`, b.Scope)
	}
	terms, err := expr.Routing.ParseTerminals(b.RoutingTerminals)
	if err != nil {
		return fmt.Errorf("routing_terminals: %w", err)
	}
	if bad := b.RoutingTree.Tree.Terminals().Minus(terms); bad.Len() > 0 {
		return fmt.Errorf("the routing tree %s uses %s, outside its routing_terminals %v", b.RoutingTree.Tree, bad, b.RoutingTerminals)
	}
	return nil
}

// WriteBest writes b as dir/best.json, atomically: indented JSON and a
// final newline, the bytes every reader of this package reads.
func WriteBest(dir string, b *Best) error {
	path := filepath.Join(dir, BestFile)
	data, err := EncodeBest(b)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return atomicio.WriteBytes(path, data)
}

// EncodeBest is the content WriteBest writes.
func EncodeBest(b *Best) ([]byte, error) {
	data, err := json.MarshalIndent(b, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(data, '\n'), nil
}

// FindBest is the best.json of a run directory or the file itself: path
// when it names a .json file, else path/best.json.
func FindBest(path string) string {
	if ext := filepath.Ext(path); ext != "" && bytes.EqualFold([]byte(ext), []byte(".json")) {
		return path
	}
	return filepath.Join(path, BestFile)
}

package yamlerr

import (
	"bytes"
	"errors"
	"testing"

	"go.yaml.in/yaml/v3"
)

func decode(src string) error {
	var v map[string]any
	return Fix(yaml.NewDecoder(bytes.NewReader([]byte(src))).Decode(&v), []byte(src))
}

// Every error names the line that holds the problem: parser errors (which
// the decoder reports one line early, or without a line on line 1) and
// scanner errors (which it reports right) alike.
func TestFixNamesTheRealLine(t *testing.T) {
	for _, c := range []struct {
		src  string
		want string
	}{
		{"version: 1\nformat: csv\ninstances: 1\nclusters: 1\nseed: [1\n", "yaml: line 5: did not find expected ',' or ']'"},
		{"a: 1\nb: 2\nc: {x\n", "yaml: line 3: did not find expected ',' or '}'"},
		{"seed: [1\n", "yaml: line 1: did not find expected ',' or ']'"},
		{"seed: [1", "yaml: line 1: did not find expected ',' or ']'"},
		{"a: 1\nb: 2\n- c\n", "yaml: line 3: did not find expected key"},
		{"a: 1\nb:\n  - x\n  y: 2\n", "yaml: line 3: did not find expected '-' indicator"},
		// Scanner errors: already right, left as they are.
		{"a: 1\nb: \"abc\n", "yaml: line 2: found unexpected end of stream"},
		{"a: 1\n\tb: 2\n", "yaml: line 2: found a tab character that violates indentation"},
	} {
		err := decode(c.src)
		if err == nil || err.Error() != c.want {
			t.Errorf("%q: got %v, want %s", c.src, err, c.want)
		}
	}
}

func TestFixLeavesOtherErrors(t *testing.T) {
	if Fix(nil, nil) != nil {
		t.Error("Fix(nil) != nil")
	}
	other := errors.New("open x: no such file")
	if Fix(other, nil) != other {
		t.Error("a non-YAML error was changed")
	}
	var v struct{ A int }
	typeErr := yaml.Unmarshal([]byte("a: x\n"), &v)
	if Fix(typeErr, nil) != typeErr {
		t.Errorf("a type error (right line already) was changed: %v", Fix(typeErr, nil))
	}
	src := []byte("a: 1\nb: [1\n")
	var v2 map[string]any
	orig := yaml.Unmarshal(src, &v2)
	fixed := Fix(orig, src)
	if Fix(fixed, src) != fixed {
		t.Error("Fix is not idempotent")
	}
	if errors.Unwrap(fixed) != orig {
		t.Error("Unwrap does not give the decoder's error")
	}
}

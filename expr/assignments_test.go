package expr

import "testing"

// Hand-computed values and every error of the NAME=VALUE reader.
func TestEvalAssigned(t *testing.T) {
	for _, tc := range []struct {
		formula string
		args    []string
		want    string
	}{
		{"g*d", []string{"d=2.5", "q=0", "u=1", "g=8"}, "20"},
		{"d % q", []string{"d=3", "q=0"}, "3"}, // protected division
		{"q - u", []string{" q = 0.1 ", "u=0.2"}, "-0.1"},
		{"1/3", nil, "0.3333333333333333"},
	} {
		got, err := EvalAssigned(tc.formula, tc.args)
		if err != nil || got != tc.want {
			t.Errorf("%s at %q = %q, %v; want %s", tc.formula, tc.args, got, err, tc.want)
		}
	}
	for _, tc := range []struct {
		formula string
		args    []string
		want    string
	}{
		{"g*d", []string{"d=1"}, "formula uses g but no value was given (add g=VALUE)"},
		{"g*d", []string{"d=1", "g=2", "d=3"}, `argument "d=3": d given twice`},
		{"g*d", []string{"d"}, `argument "d": want NAME=VALUE with NAME a terminal such as d, q, u, g`},
		{"g*d", []string{"d=x", "g=1"}, `argument "d=x": value: strconv.ParseFloat: parsing "x": invalid syntax`},
		{"g*", nil, `formula "g*": `},
	} {
		_, err := EvalAssigned(tc.formula, tc.args)
		if err == nil || len(err.Error()) < len(tc.want) || err.Error()[:len(tc.want)] != tc.want {
			t.Errorf("%s at %q: error %v, want %q…", tc.formula, tc.args, err, tc.want)
		}
	}
	if _, err := EvalAssigned("d", []string{"zz=1"}); err == nil {
		t.Error("unknown variable zz: no error")
	}
}

// SimplifiedText keeps exact semantics by default and applies the domain's
// identities only when asked.
func TestSimplifiedText(t *testing.T) {
	tree := MustParse("q % d * (g % g) % (q - q)")
	exact, err := SimplifiedText(tree, "infix", false)
	if err != nil {
		t.Fatal(err)
	}
	onDomain, err := SimplifiedText(tree, "infix", true)
	if err != nil || onDomain != "q % d" {
		t.Fatalf("on the domain: %q, %v; want q %% d", onDomain, err)
	}
	if exact == onDomain {
		t.Errorf("exact simplification removed the domain-only bloat: %q", exact)
	}
	if _, err := SimplifiedText(tree, "nope", false); err == nil {
		t.Error("unknown format: no error")
	}
}

package configs

import (
	"strings"
	"testing"

	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/simcore/rule"
)

func TestRuleSection(t *testing.T) {
	c, err := Parse("t.yaml", []byte("rule:\n  routing: W - o\n  scope: all\ngp:\n  time_unit: seconds\n"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := RuleParams(c)
	if err != nil {
		t.Fatal(err)
	}
	if !p.Routing.Equal(expr.Routing.MustParse("W - o")) || p.Scope != rule.ScopeAll || !p.Seconds {
		t.Fatalf("params %+v", p)
	}
	for _, c := range []struct{ yaml, want string }{
		{"rule:\n  routing: W + e\n", `unknown variable "e" in a routing tree`},
		{"rule:\n  scope: some\n", `unknown scope "some"`},
	} {
		if _, err := Parse("t.yaml", []byte(c.yaml)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.yaml, err, c.want)
		}
	}
}

// A config without a rule section renders without one, so the bytes (and
// the task hashes built from them) of every existing config are unchanged.
func TestRuleSectionOmittedWhenUnset(t *testing.T) {
	for _, name := range Names() {
		c, err := Load(name)
		if err != nil {
			t.Fatal(err)
		}
		raw, err := c.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(raw), "\nrule:") {
			t.Errorf("%s renders a rule section it does not set", name)
		}
	}
}

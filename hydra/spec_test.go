package hydra

import (
	"strings"
	"testing"
)

// ParseSpec reads every parameter, keeps the defaults of the others,
// labels the scheduler with the whole spec, and leaves specs without a
// colon to the caller.
func TestParseSpec(t *testing.T) {
	s, ok, err := ParseSpec("Hydra:budget=200:penalty=1000000000:compare=increment")
	if err != nil || !ok {
		t.Fatalf("ok %v, err %v", ok, err)
	}
	want := Params{Penalty: 1000000000, Budget: 200, Compare: "increment"}
	if s.Name() != "Hydra:budget=200:penalty=1000000000:compare=increment" || s.rule != RuleHydra || s.params != want {
		t.Errorf("got name %q rule %q params %+v, want params %+v", s.Name(), s.rule, s.params, want)
	}
	s, _, err = ParseSpec("edf:budget=7")
	if err != nil || s.params != (Params{Penalty: DefaultPenalty, Budget: 7, Compare: CompareAbsolute}) {
		t.Errorf("edf:budget=7: %+v, %v", s, err)
	}
	// hydra-swap is the swap heuristic alone, whatever the budget says.
	if s, _, err = ParseSpec("hydra-swap:budget=50"); err != nil || s.params.Budget != 0 {
		t.Errorf("hydra-swap:budget=50: %+v, %v", s, err)
	}
	for _, spec := range []string{"hydra", "tiresias", "mct+srtf+bestfit"} {
		if s, ok, err := ParseSpec(spec); ok || err != nil || s != nil {
			t.Errorf("%s: got %v, %v, %v; want it left to the caller", spec, s, ok, err)
		}
	}
	for spec, want := range map[string]string{
		"tiresias:budget=2":    `scheduler "tiresias:budget=2": only the Hydra-model schedulers (hydra, hydra-swap, edf, sjf-fastest, allox, chronus) take :key=value parameters`,
		"hydra:budget":         `scheduler "hydra:budget": parameter "budget": want key=value (penalty, budget, compare)`,
		"hydra:colour=red":     `scheduler "hydra:colour=red": colour=red: unknown parameter (have penalty, budget, compare)`,
		"hydra:penalty=0.5":    "must be an integer in 1..1e18",
		"hydra:penalty=0":      "must be an integer in 1..1e18",
		"hydra:budget=x":       `budget=x: strconv.Atoi`,
		"hydra:budget=-1":      `scheduler "hydra:budget=-1": `,
		"hydra:compare=best":   `scheduler "hydra:compare=best": `,
		"hydra:budget=1:":      `parameter "": want key=value`,
		"chronus:penalty=2e3:": `parameter "": want key=value`,
	} {
		s, ok, err := ParseSpec(spec)
		if !ok || s != nil || err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, %v, %v; want an error containing %q", spec, s, ok, err, want)
		}
	}
}

// FuzzParseSpec: ParseSpec never panics, answers ok exactly for specs
// with a colon, and a scheduler it returns carries valid parameters.
func FuzzParseSpec(f *testing.F) {
	for _, s := range []string{"hydra:budget=200", "edf:penalty=1e9:compare=increment", "hydra", "x:y", "hydra::", ":"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		s, ok, err := ParseSpec(spec)
		if ok != strings.Contains(strings.TrimSpace(spec), ":") {
			t.Fatalf("%q: ok %v", spec, ok)
		}
		if (s == nil) == (err == nil) && ok {
			t.Fatalf("%q: scheduler %v with error %v", spec, s, err)
		}
		if s != nil {
			if verr := s.params.Validate(); verr != nil {
				t.Fatalf("%q: accepted invalid parameters: %v", spec, verr)
			}
		}
	})
}

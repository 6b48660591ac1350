package runfile

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

func TestObjectiveRecord(t *testing.T) {
	w := [3]float64{1, 0.5, 2}
	half, one := 0.5, 1.0
	multi := Objective{Kind: "multi", Weights: &w}
	single := Objective{Kind: "single", Omega: &half}
	if !multi.ReadsWeights() || multi.ReadsOmega() || single.ReadsWeights() || !single.ReadsOmega() {
		t.Error("Reads* follow the parameters present")
	}
	if got := multi.String(); got != "multi weights=1,0.5,2" {
		t.Errorf("String = %q", got)
	}
	if got := single.String(); got != "single omega=0.5" {
		t.Errorf("String = %q", got)
	}
	w2 := w
	if !multi.Equal(Objective{Kind: "multi", Weights: &w2}) || multi.Equal(single) || single.Equal(Objective{Kind: "single", Omega: &one}) || single.Equal(Objective{Kind: "deadline", Omega: &half}) {
		t.Error("Equal compares kind and the parameters present")
	}
	b, err := json.Marshal(single)
	if err != nil || string(b) != `{"kind":"single","omega":0.5}` {
		t.Errorf("JSON %s %v", b, err)
	}
	neg, nan, big := [3]float64{1, -1, 0}, [3]float64{math.NaN(), 0, 0}, 1.5
	for _, c := range []struct {
		o    Objective
		says string
	}{
		{multi, ""}, {single, ""},
		{Objective{}, `"kind" is empty`},
		{Objective{Kind: "multi"}, `neither "weights" nor "omega"`},
		{Objective{Kind: "multi", Weights: &neg}, "ω2 = -1"},
		{Objective{Kind: "multi", Weights: &nan}, "ω1 = NaN"},
		{Objective{Kind: "single", Omega: &big}, `"omega" = 1.5`},
	} {
		err := c.o.Validate()
		if c.says == "" && err != nil || c.says != "" && (err == nil || !strings.Contains(err.Error(), c.says)) {
			t.Errorf("%+v: Validate = %v, want %q", c.o, err, c.says)
		}
	}
}

func TestWeightsText(t *testing.T) {
	w := [3]float64{1, 0.25, 3}
	s := FormatWeights(w)
	if s != "1,0.25,3" {
		t.Fatalf("FormatWeights = %q", s)
	}
	back, err := ParseWeights(s)
	if err != nil || back != w {
		t.Fatalf("ParseWeights(%q) = %v, %v", s, back, err)
	}
	for _, bad := range []string{"1,1", "1,x,1", "1,-1,1", "1,1,1,1"} {
		if _, err := ParseWeights(bad); err == nil {
			t.Errorf("ParseWeights(%q) accepted", bad)
		}
	}
}

func TestBestBaseline(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		scores []BaselineScore
		want   string
		ok     bool
	}{
		{[]BaselineScore{{"spark", 1.2}, {"liquid", 0.9}, {"tiresias", 1}}, "liquid", true},
		{[]BaselineScore{{"spark", 0.9}, {"liquid", 0.9}}, "spark", true}, // ties: first listed
		{[]BaselineScore{{"spark", nan}, {"liquid", 2}}, "liquid", true},
		{[]BaselineScore{{"spark", nan}}, "", false},
		{nil, "", false},
	} {
		got, ok := BestBaseline(c.scores)
		if got.Name != c.want || ok != c.ok {
			t.Errorf("BestBaseline(%v) = %v, %v; want %s, %v", c.scores, got, ok, c.want, c.ok)
		}
	}
}

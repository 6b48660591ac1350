package configs

import (
	"strings"
	"testing"
)

func TestSelectionValidation(t *testing.T) {
	c := Default()
	for _, tc := range []struct {
		over []string
		want string // "" = valid
	}{
		{nil, ""},
		{[]string{"gp.selection=nsga2", "gp.objectives=[avg_jct,max_qt]"}, ""},
		{[]string{"gp.selection=nsga2", "gp.objectives=[cq_avg,cq_max,util]"}, ""},
		{[]string{"gp.selection=nsga2", "gp.objectives=[avg_jct,size]"}, ""},
		{[]string{"gp.selection=nsga2"}, "needs two or three objectives"},
		{[]string{"gp.selection=nsga2", "gp.objectives=avg_jct"}, "needs two or three objectives"},
		{[]string{"gp.selection=nsga2", "gp.objectives=size"}, "size alone"},
		{[]string{"gp.selection=nsga2", "gp.objectives=[avg_jct,jct]"}, `unknown objective "jct"`},
		{[]string{"gp.selection=nsga2", "gp.objectives=[avg_jct,avg_jct]"}, "listed twice"},
		{[]string{"gp.selection=nsga2", "gp.objectives=[cq_avg,cq_max,util,size]"}, "at most three"},
		{[]string{"gp.objectives=[avg_jct,max_qt]"}, "objectives are for gp.selection: nsga2"},
		{[]string{"gp.selection=spea2"}, `gp.selection = "spea2": must be nsga2 or scalar`},
		{[]string{"gp.selection=nsga2", "gp.objectives=[cq_avg,cq_max]", "gp.niche=3"}, ""},
		{[]string{"gp.selection=nsga2", "gp.objectives=[cq_avg,cq_max]", "gp.niche=-1"}, "gp.niche = -1: must be ≥ 0"},
		{[]string{"gp.niche=2"}, "gp.niche = 2: clearing by ranking tree is for gp.selection: nsga2"},
		{[]string{"gp.fitness=pooled"}, ""},
		{[]string{"gp.selection=nsga2", "gp.objectives=[cq_avg,cq_max]", "gp.fitness=pooled"}, ""},
	} {
		_, err := c.Override(tc.over...)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%v: %v", tc.over, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%v: err = %v, want %q", tc.over, err, tc.want)
		}
	}
}

package reports

import (
	"strings"
	"testing"
)

// The deadline table appears exactly when some scheduler was late, with
// the mean tardiness and misses per scheduler.
func TestSummaryDeadlineTable(t *testing.T) {
	rows := []ResultRow{
		{Instance: "a", Scheduler: "x", Jobs: 2, Objective: 1, AvgJCT: 1, Makespan: 2, TotalTardiness: 3, DeadlineMisses: 1},
		{Instance: "b", Scheduler: "x", Jobs: 2, Objective: 1, AvgJCT: 1, Makespan: 2, TotalTardiness: 1, DeadlineMisses: 1},
		{Instance: "a", Scheduler: "y", Jobs: 2, Objective: 2, AvgJCT: 1, Makespan: 2},
		{Instance: "b", Scheduler: "y", Jobs: 2, Objective: 2, AvgJCT: 1, Makespan: 2},
	}
	for _, late := range []bool{true, false} {
		rs := append([]ResultRow(nil), rows...)
		if !late {
			rs[0].TotalTardiness, rs[0].DeadlineMisses, rs[1].TotalTardiness, rs[1].DeadlineMisses = 0, 0, 0, 0
		}
		s, err := Summarize(rs, SummaryOptions{Baselines: testBaselines, Reference: "y"})
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		if err := WriteSummaryMarkdown(&b, s); err != nil {
			t.Fatal(err)
		}
		has := strings.Contains(b.String(), "| scheduler | total tardiness (h) | deadline misses |")
		if has != late {
			t.Fatalf("late=%v: deadline table shown=%v\n%s", late, has, b.String())
		}
		if late && !strings.Contains(b.String(), "| x | 2 ± 1.4 | 1 ± 0 |") {
			t.Fatalf("wrong deadline row:\n%s", b.String())
		}
	}
}

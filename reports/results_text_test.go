package reports

import (
	"strings"
	"testing"
)

func TestWriteResultsTable(t *testing.T) {
	rows := []ResultRow{
		{Instance: "a", Scheduler: "edf", Jobs: 3, CQAvg: 1, CQMax: 2, Util: 0.5, Objective: 3.5, AvgJCT: 4, MaxQT: 2, Makespan: 10, TotalTardiness: 0.5, DeadlineMisses: 1},
		{Instance: "b", Scheduler: "edf", Jobs: 2, CQAvg: 3, CQMax: 4, Util: 0.25, Objective: 7.75, AvgJCT: 2, MaxQT: 4, Makespan: 20, TotalTardiness: 1.5, DeadlineMisses: 2},
	}
	var b strings.Builder
	if err := WriteResultsTable(&b, rows, true); err != nil {
		t.Fatal(err)
	}
	want := "scheduler: edf\n" +
		"  instance  jobs  cq_avg h  cq_max h    util  objective  avg_jct h  max_qt h  makespan h  total_tardiness h  deadline_misses\n" +
		"         a     3    1.0000    2.0000  0.5000     3.5000     4.0000    2.0000      10.000             0.5000                1\n" +
		"         b     2    3.0000    4.0000  0.2500     7.7500     2.0000    4.0000      20.000             1.5000                2\n" +
		"      mean     5    2.0000    3.0000  0.3750     5.6250     3.0000    3.0000      15.000             1.0000             1.50\n"
	if b.String() != want {
		t.Errorf("with deadlines:\n%s\nwant\n%s", b.String(), want)
	}
	b.Reset()
	if err := WriteResultsTable(&b, rows[:1], false); err != nil {
		t.Fatal(err)
	}
	want = "scheduler: edf\n" +
		"  instance  jobs  cq_avg h  cq_max h    util  objective  avg_jct h  max_qt h  makespan h\n" +
		"         a     3    1.0000    2.0000  0.5000     3.5000     4.0000    2.0000      10.000\n"
	if b.String() != want {
		t.Errorf("without deadlines:\n%s\nwant\n%s", b.String(), want)
	}
	b.Reset()
	if err := WriteResultsJSON(&b, rows[:1]); err != nil {
		t.Fatal(err)
	}
	want = `{"instance":"a","scheduler":"edf","cq_avg":1,"cq_max":2,"util":0.5,"objective":3.5,"avg_jct":4,"max_qt":2,"makespan":10,"total_tardiness":0.5,"deadline_misses":1}` + "\n"
	if b.String() != want {
		t.Errorf("json %s", b.String())
	}
}

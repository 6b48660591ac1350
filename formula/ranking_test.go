package formula

import (
	"strings"
	"testing"

	"github.com/evogp/evogp/expr"
	"github.com/evogp/evogp/simcore"
)

var _ simcore.Ranking = Ranking{}

func TestFormulaRanking(t *testing.T) {
	// 2 h remaining, 30 min queued, user priority 3, 8 GPUs.
	j := simcore.JobView{Remaining: 7200, Queued: 1800, Priority: 3, GPUs: 8, Duration: 9000, Arrival: 100}
	for _, tc := range []struct {
		formula string
		seconds bool
		want    float64
	}{
		{"g*d", false, 16},            // SRSF: 8 GPUs × 2 h
		{"g*d", true, 57600},          // 8 × 7200 s
		{"q", false, 0.5},             // hours
		{"q", true, 1800},             // seconds
		{"u", false, 3},               // user priority passes through
		{"d % (q - q) + u", false, 5}, // protected division: 2 % 0 = 2, + 3
		{"(d - q) * g % u", false, 4}, // (2 − 0.5)·8 / 3
		{"0 - g", false, -8},
	} {
		r := NewRanking(expr.MustParse(tc.formula), tc.seconds)
		if got := r.Priority(j); got != tc.want {
			t.Errorf("%s (seconds=%v) = %v, want %v", tc.formula, tc.seconds, got, tc.want)
		}
	}
}

// SRSF written as a formula orders jobs like g·rem.
func TestFormulaRankingOrdersLikeSRSF(t *testing.T) {
	r := NewRanking(expr.MustParse("g*d"), false)
	small := simcore.JobView{Remaining: 3600, GPUs: 4}  // 4 GPU-hours
	large := simcore.JobView{Remaining: 36000, GPUs: 1} // 10 GPU-hours
	if !(r.Priority(small) < r.Priority(large)) {
		t.Errorf("g*d ranks %v before %v", large, small)
	}
}

// Every terminal of expr's catalogue has a feature, so a formula over any
// of them can be evaluated in the simulator.
func TestEveryTerminalHasAFeature(t *testing.T) {
	fs := Features()
	for _, v := range expr.Variables() {
		if _, ok := fs[v.Name]; !ok {
			t.Errorf("terminal %s (%s) has no feature in formula", v.Name, v.Doc)
		}
	}
	if len(fs) != expr.NumVariables {
		t.Errorf("%d features for %d terminals", len(fs), expr.NumVariables)
	}
}

// Hand-computed values of every extra terminal for one job.
func TestExtraTerminalValues(t *testing.T) {
	// At t = 10 000 s: arrived at 2 800 s (2 h ago), 1 h remaining, 4
	// workers × 2 GPUs, deadline at 21 400 s, cluster with 6 free GPUs and
	// 5 queued jobs, the job fits, speed 0.5.
	j := simcore.JobView{Now: 10000, Arrival: 2800, Remaining: 3600, Queued: 1800, Priority: 2, GPUs: 8,
		Workers: 4, PerWorker: 2, Deadline: 21400, FreeGPUs: 6, QueueLen: 5, FitsNow: true, Speed: 0.5}
	for _, tc := range []struct {
		formula string
		seconds bool
		want    float64
	}{
		{"a", false, 2}, {"a", true, 7200},
		{"r", false, 4}, {"w", false, 2}, {"f", false, 6}, {"n", false, 5}, {"e", false, 1},
		{"s", false, 0}, {"s", true, 0}, // replaced below: 21400 − 10000 − 3600 = 7800 s
		{"v", false, 0.5},
		{"a * d + e", false, 3}, // mixed with a paper terminal: 2·1 + 1
	} {
		want := tc.want
		if tc.formula == "s" {
			want = 7800.0 // 21400 − 10000 − 3600
			if !tc.seconds {
				want /= 3600
			}
		}
		if got := NewRanking(expr.MustParse(tc.formula), tc.seconds).Priority(j); got != want {
			t.Errorf("%s (seconds=%v) = %v, want %v", tc.formula, tc.seconds, got, want)
		}
	}
	// No deadline: the documented large slack; no speed supplied: 1; not
	// fitting: e = 0.
	j.Deadline, j.Speed, j.FitsNow = 0, 0, false
	for f, want := range map[string]float64{"s": NoDeadlineSlack, "v": 1, "e": 0} {
		if got := NewRanking(expr.MustParse(f), false).Priority(j); got != want {
			t.Errorf("%s = %v, want %v", f, got, want)
		}
	}
}

// The engine is asked for cluster state exactly when the formula reads it.
func TestNeedsClusterState(t *testing.T) {
	for f, want := range map[string]bool{"g*d": false, "a + r * w - s": false, "f": true, "d % n": true, "e * q": true, "v": true} {
		if got := NewRanking(expr.MustParse(f), false).NeedsClusterState(); got != want {
			t.Errorf("NeedsClusterState(%s) = %v, want %v", f, got, want)
		}
	}
}

func TestCheckTerminals(t *testing.T) {
	set, _ := expr.ParseTerminals([]string{"d", "q", "a"})
	if err := CheckTerminals(expr.MustParse("d * a - q"), set); err != nil {
		t.Error(err)
	}
	if err := CheckTerminals(expr.MustParse("d * g"), set); err == nil || !strings.Contains(err.Error(), "outside the terminal set") {
		t.Errorf("g outside {d, q, a}: %v", err)
	}
}

// A paper formula allocates nothing per Priority call, nor does one over
// the extra terminals.
func TestPriorityAllocatesNothing(t *testing.T) {
	j := simcore.JobView{Now: 100, Remaining: 3600, Queued: 60, Priority: 1, GPUs: 2, Workers: 1, PerWorker: 2}
	for _, f := range []string{"g*d + q", "a * w - s % r"} {
		r := NewRanking(expr.MustParse(f), false)
		var sink float64
		if n := testing.AllocsPerRun(100, func() { sink += r.Priority(j) }); n != 0 {
			t.Errorf("%s: %v allocations per call", f, n)
		}
	}
}

// BenchmarkPriority is FormulaRanking.Priority on a paper formula and on
// one over extra terminals (the adapter's cost on top of Program.Eval).
func BenchmarkPriority(b *testing.B) {
	j := simcore.JobView{Now: 100, Remaining: 3600, Queued: 60, Priority: 1, GPUs: 2, Workers: 1, PerWorker: 2, Deadline: 9000}
	for _, f := range []string{"((q + g) % q - u) * (d % (q + (d + g - u) % (q * q)))", "((q + g) % a - u) * (d % (s + (d + w - r) % (q * q)))"} {
		r := NewRanking(expr.MustParse(f), false)
		b.Run(f[:12], func(b *testing.B) {
			var sink float64
			for i := 0; i < b.N; i++ {
				sink += r.Priority(j)
			}
			if sink == 42 {
				b.Log(sink)
			}
		})
	}
}

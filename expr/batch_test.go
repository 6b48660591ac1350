package expr

import (
	"math"
	"math/rand/v2"
	"testing"
)

// EvalColumns must agree with EvalVars bit for bit on every point: random
// trees (with constants, so every instruction kind appears, and terminals
// read twice), random batch sizes, and inputs with zeros, ±Inf, NaN and
// −0, reusing one Batch throughout.
func TestEvalColumnsMatchesEvalVars(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var b Batch
	var cols Columns
	out := make([]float64, 300)
	for trial := range 3000 {
		var tr *Tree
		if trial%3 == 0 {
			tr = Full(rng, 1+rng.IntN(6), GenSettings{Constants: true})
		} else {
			tr = randTree(rng, 1+rng.IntN(8))
		}
		p := Compile(tr)
		n := 1 + rng.IntN(len(out))
		for v := range NumVariables {
			cols[v] = cols[v][:0]
			for range n {
				cols[v] = append(cols[v], randInput(rng))
			}
		}
		out = out[:cap(out)]
		p.EvalColumns(&cols, n, out, &b)
		for i := range n {
			var vars Vars
			for v := range NumVariables {
				vars[v] = cols[v][i]
			}
			if want := p.EvalVars(&vars); !sameFloat(out[i], want) || math.Float64bits(out[i]) != math.Float64bits(want) && !math.IsNaN(want) {
				t.Fatalf("%v at point %d %v: batch %v, scalar %v", tr, i, vars[:NumVariables], out[i], want)
			}
		}
	}
	// The empty program gives NaN everywhere; a lone terminal copies its
	// column and leaves it intact.
	Compile(&Tree{}).EvalColumns(&cols, 3, out, &b)
	for i := range 3 {
		if !math.IsNaN(out[i]) {
			t.Fatalf("empty program: out[%d] = %v, want NaN", i, out[i])
		}
	}
	cols[OpQ] = []float64{1, 2, 3}
	Compile(Terminal(OpQ)).EvalColumns(&cols, 3, out, &b)
	if out[0] != 1 || out[1] != 2 || out[2] != 3 || cols[OpQ][2] != 3 {
		t.Fatalf("q: out %v, column %v", out[:3], cols[OpQ])
	}
}

func TestEvalColumnsReusesScratch(t *testing.T) {
	p := Compile(benchTree())
	var b Batch
	var cols Columns
	for v := range NumVariables {
		cols[v] = make([]float64, 256)
		for i := range cols[v] {
			cols[v][i] = float64(i%7) + float64(v)
		}
	}
	out := make([]float64, 256)
	p.EvalColumns(&cols, 256, out, &b)
	if n := testing.AllocsPerRun(100, func() { p.EvalColumns(&cols, 256, out, &b) }); n != 0 {
		t.Errorf("EvalColumns with a warm Batch allocates %v times per call", n)
	}
}

// BenchmarkEvalColumns evaluates the 31-node bench tree on batches of 256
// points; ns/node is per point and node, comparable with BenchmarkEval.
func BenchmarkEvalColumns(b *testing.B) {
	p := Compile(benchTree())
	const n = 256
	var cols Columns
	in := [8]float64{1.5, 0.25, 2, 8, 3.75, 0, 1, 4}
	for v := range 4 {
		cols[v] = make([]float64, n)
		for i := range n {
			cols[v][i] = in[(i&4)+v]
		}
	}
	out := make([]float64, n)
	var batch Batch
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p.EvalColumns(&cols, n, out, &batch)
	}
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n/31, "ns/node")
}

package expr_test

import (
	"fmt"

	"github.com/evogp/evogp/expr"
)

// Parse a formula, evaluate it, and look at its terminals and simplified
// forms. % is protected division: a % 0 = a.
func ExampleParse() {
	t, err := expr.Parse("g * d + q % (u - u)")
	if err != nil {
		panic(err)
	}
	fmt.Println(t)
	fmt.Println(t.Eval(2, 0.5, 1, 4)) // d=2, q=0.5, u=1, g=4: 4·2 + 0.5 % 0 = 8.5
	fmt.Println(t.Terminals())
	fmt.Println(expr.SimplifyOn(t, expr.DefaultDomain()))

	// Extra terminals are parsed by name and evaluated from a Vars array.
	a, _ := expr.VariableByName("a")
	s := expr.MustParse("d - a")
	var vars expr.Vars
	vars[expr.OpD], vars[a] = 3, 1
	fmt.Println(s.EvalVars(&vars))

	_, err = expr.Parse("d + x")
	fmt.Println(err)
	// Output:
	// g * d + q % (u - u)
	// 8.5
	// d,q,u,g
	// q + d * g
	// 2
	// column 5: unknown variable "x" in a ranking tree: it is a routing terminal (want one of d, q, u, g, a, r, w, f, n, e, s, v)
}

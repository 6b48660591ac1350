package expr

// Help texts of the formula tools (evogp expr), kept beside the code whose
// behaviour they state.
const (
	// SyntaxHelp states the ranking formulas Parse reads and how they
	// evaluate (a newline ends it).
	SyntaxHelp = "Formulas use d (remaining duration), q (queuing time), u (user priority), g (GPU demand),\n" +
		"numbers, parentheses, unary minus and + - * /, where / and % both mean protected division:\n" +
		"a % b = a if b = 0, else a / b. Smaller values are scheduled earlier.\n"

	// SimplifyHelp states what Simplify keeps and what SimplifyOn with
	// DefaultDomain removes.
	SimplifyHelp = "Simplification is exact in float64 (including 0, -0, Inf and NaN inputs), so identities such as\n" +
		"x - x = 0 or x % x = 1 are not applied; see the expr package documentation.\n\n" +
		"--domain simplifies for the simulator's inputs only: d ≥ 1/3600 (1 s in hours), q ≥ 0, u ≥ 1, g ≥ 1,\n" +
		"all finite, assuming no intermediate value overflows to ±Inf. It then removes x - x, x % x (x provably\n" +
		"non-zero), x * 0, x + 0, 0 % x and divisions by zero-valued subtrees; the result equals the formula on\n" +
		"those inputs (a zero may change sign) but not in general (e.g. at q = Inf, q - q is NaN, not 0)."

	// AssignmentsHelp states what ParseAssignments requires of the values
	// of a formula's terminals.
	AssignmentsHelp = "Every variable the formula uses must be given a value (a missing one is an error, so a\n" +
		"typo cannot silently evaluate at 0); variables it does not use may be omitted.\n" +
		"Values are plain numbers; d and q are in whatever unit you mean (the simulator uses hours)."
)

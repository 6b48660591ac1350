// Package expr holds the priority functions that evogp learns: binary
// expression trees over four job features, their compiled evaluation, random
// generation, genetic variation operators, exact simplification, printing and
// parsing.
//
// # Terminals and operators
//
// Leaves are terminals or, optionally, ephemeral constants (finite
// float64). Terminals are data: the catalogue in terminals.go lists each
// one's name, meaning and value bound, and Op(i) for i < NumVariables is
// entry i. The paper's four come first,
//
//	d  remaining duration of the job
//	q  queuing time of the job so far
//	u  user priority
//	g  GPU demand
//
// followed by the extras of SPEC §8 and §12: a (time since arrival), r
// (workers), w (GPUs per worker), f (free GPUs of the cluster), n (jobs
// queued on the cluster), e (1 if the job fits now), s (slack) and v
// (speed). A Terminals value is a set of them (the learner's gp.terminals;
// the zero set means the paper's four); generators and mutation draw
// leaves from a given set, and Tree.Terminals says which ones a formula
// uses. Program.EvalVars takes every terminal's value in a Vars array and
// is as fast as Eval; Program.EvalColumns evaluates a batch of points given
// as one column per terminal, one instruction over the whole batch at a
// time (about 4× faster per point, bit for bit the same values). Adding a terminal is one catalogue entry; the caller
// that evaluates formulas supplies its value. Internal nodes are
// the binary operators + − × and protected division %.
//
// # Catalogues: ranking and routing trees
//
// A Catalogue is a primitive set. Ranking (the zero value, used wherever
// none is named) is the table above; Routing is the routing tree's of the
// rule allocator (SPEC §16): d q u g a r w on the same slots, then f (GPUs
// not held by Jn jobs), n (jobs assigned so far in the operation), N, C, W,
// x, h, o and m — 16 terminals, one Vars array. A tree belongs to one
// catalogue (Tree.Catalogue), a Terminals set too (Catalogue.Set); parsing
// (Routing.Parse), JSON decoding (Routing.DecodeJSON), generation (a
// routing set in GenSettings.Terminals), variation, simplification and
// every printer follow it, and a name of the other catalogue only is an
// error naming the terminal and the tree kind. A smaller value means
// the job is scheduled earlier (SPEC §5.2). The units of d and q are the
// caller's business (the learn adapter passes hours by default, SPEC §2).
//
// # Protected division
//
//	a % b = a        if b == 0 (either +0 or −0)
//	a % b = a / b    otherwise (IEEE 754 division, so a % NaN = NaN and
//	                 finite % ±Inf = ±0)
//
// The division never raises and never produces ±Inf from a zero divisor. In
// parsed text both "/" and "%" denote protected division; printers write "%"
// (infix, prefix), \operatorname{pdiv}(a, b) (LaTeX), a pdiv helper (Go) or a
// SymPy pdiv Lambda over one Piecewise, defined once (SympyProgram).
//
// Every evaluator in this package (Tree.Eval, Program.Eval and EvalColumns, constant folding
// and the generated Go source) rounds each product to float64 before it is
// added, so no fused multiply-add can make two of them disagree.
//
// # Depth convention
//
// A single leaf has depth 1; an operator node has depth 1 + the larger depth
// of its operands. The paper's "maximum depth 7" therefore allows at most
// 2^7 − 1 = 127 nodes.
//
// # Simplification is exact
//
// Simplify never changes the value a tree computes, for any float64 inputs
// including ±0, ±Inf and NaN (NaN results stay NaN; the sign of a zero result
// is preserved too). Consequently it applies far fewer identities than
// algebra would suggest: x − x is not 0 (Inf − Inf = NaN), x % x is not 1
// (it is x when x = 0), 0 % x is not 0 (it is NaN when x is NaN), and x + 0
// is not x (−0 + 0 = +0). See Simplify for the list it does apply.
//
// # Simplification on a domain
//
// SimplifyOn(t, dom) is the opt-in simplifier for the inputs a priority
// function actually sees: a Domain bounds each of d, q, u, g (DefaultDomain:
// d ≥ 1/3600, i.e. 1 s in hours, q ≥ 0, u ≥ 1, g ≥ 1, all finite), and the
// result is exact only for inputs in the domain at which no node of t
// overflows to ±Inf. Under that assumption every node is finite, the sign of
// a zero never reaches a non-zero value, and x − x → 0, x × 0 → 0, x + 0 → x,
// 0 % x → 0, x % x → 1 (x provably non-zero by interval analysis) and hence
// x % (q − q) → x are all value-preserving, up to the sign of a zero result.
// Division stays protected (%) in its output. Simplify and Hash do not use it.
//
// # Readable notation and reduction candidates
//
// Readable(t, dom) is the infix a person reads: "/" for a division whose
// divisor dom proves non-zero, "%" only where it can be 0, −x for 0 − x;
// it parses back to a tree Equal to t. FormatOn's infix is Readable and
// its LaTeX writes −x too. Reductions and PushNegations propose smaller
// trees without claiming they compute the same thing: learn accepts one
// only after simulating it (learn/reduce.go).
//
// # Dependencies
//
// expr imports no other evogp package; learn adapts a compiled Program to the
// simulator's ranking interface.
package expr

// Package bnb is the exact method: branch-and-bound on the LP relaxation of a
// prepared problem (solver.Prob), used while the coupling rows are few enough for a
// dense basis (solver.MaxLPRows; HIAS: 21 affiliates × 3 dimensions). It proves
// its answer optimal within Options.Gap, or returns the best found with a bound.
//
// Files:
//
//	bnb.go       Method, the search: best-bound nodes, branching by pseudo-costs,
//	             reduced-cost fixing, the LP rounding heuristic
//	lp.go        the LP: a bounded-variable dual simplex in GUB form (one key column
//	             per family, a dense inverse of the coupling rows only)
//	lp_basis.go  the LP's working basis: its inverse, repairs, solves
//	bnb_cuts.go  Gomory mixed-integer cuts at the root
//	knapsack.go  the knapsack Lagrangian (models with place capacities only, as
//	             HIAS): a bound at the root and at nodes, fixings, assignments
//	rins.go      the neighbourhood search around the incumbent, whose sub-problems
//	             go back through the dispatch (Method.Methods)
//
// The heuristics place families with the shared assignment (solver.Assignment:
// Fill, Climb) and the knapsack programs are internal/knapsack's.
package bnb

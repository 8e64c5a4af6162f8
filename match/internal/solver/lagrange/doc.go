// Package lagrange is the Lagrangian method, for the models with too many coupling
// rows for the exact method's dense basis (EU scale: 1 040 places × 3 dimensions
// plus state groups); lagrange.go's solve says how it goes.
//
// Files:
//
//	lagrange.go  Method, the schedule (continuation in τ, knapsack bound and dives
//	             in turns, the local search at the end), the primal constructions
//	dual.go      the dual: reduced scores, the smoothed L_τ and its minimisation
//	             by L-BFGS (internal/lbfgs), the full passes that give the bound
//	kbound.go    the knapsack bound: each small place's knapsack at the prices,
//	             by internal/knapsack's program
//	dive.go      dives: other roundings of the prices
//	warm.go      a re-solve from a previous solution and its prices
//	primal.go    primal, the shared assignment (solver.Assignment) with this
//	             package's local search as its methods:
//	moves.go     single moves and ejections
//	chains.go    chains of moves, and chains by class of family
//	repack.go    the exact repacking of small places (internal/knapsack)
//	hooks.go     test hooks (trace, the split of the final gap)
package lagrange

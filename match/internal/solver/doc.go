// Package solver is what the methods that solve a matching Model share, and the
// dispatch between them; the methods are packages of their own under this one.
// Package match (the problem side: IDs, validation, explanations, file formats)
// names these types as its own and assembles the methods (match/model.go).
//
// The model is a multi-dimensional assignment:
//
//	maximise   Σ score[f,p] · x[f,p]
//	subject to Σ_p x[f,p] ≤ 1                      (= 1 when the family must be placed)
//	           Σ_f need[f,d] · x[f,p] ≤ cap[p,d]     every place p, dimension d
//	           Σ_f need[f,d] · Σ_{p∈G} x[f,p] ≤ cap[G,d]   every group G (a state over its localities)
//	           Σ_f size[f] · Σ_{p∈R} x[f,p] ≥ min[R]       every minimum row R (balance)
//	           x[f,p] ∈ {0,1}, only for the arcs (compatible pairs) listed
//
// The methods work on a Prob: the model with the arcs that can never be used taken
// out (a family that does not fit a place on its own), the capacity rows that can
// never bind dropped, and every remaining row (place capacities, group capacities,
// minimums) in one list of "coupling rows" lo ≤ Σ coef·x ≤ hi. What couples the
// families is only these rows: without them each family would simply take its
// best arc. Every method exploits that:
//
//   - flow: one-person families over laminar rows are a minimum-cost flow, exact
//     without branching (cost scaling).
//   - bnb: branch-and-bound on the LP relaxation, solved by a bounded-variable
//     dual simplex whose basis keeps one "key" column per family (the GUB structure
//     of the assignment rows), so the matrix it inverts is only rows × rows of the
//     coupling rows. Exact, with a proof; used while the coupling rows are at most
//     MaxLPRows (HIAS: 21 affiliates × 3 dimensions).
//   - lagrange: Lagrangian relaxation of the coupling rows, each family picking its
//     best arc at the current prices, a smoothed dual minimised by L-BFGS, and a
//     price-guided greedy plus local search for the primal. Used when there are too
//     many coupling rows for a dense basis (EU: 1 040 places).
//
// Files:
//
//	model.go   Model, Solution, Options: what package match names as its own
//	method.go  Method, the interface of a method, and Methods: Solve and Dispatch
//	prob.go    Prob, the prepared problem (NewProb), and why a model is infeasible
//	assign.go  Assignment, the one assignment type of the methods: moves that fit
//	repair.go  its repairs and local search (placing the families that must be
//	           placed, meeting the minimums)
//	prices.go  Prices, for a re-solve by the Lagrangian method
//	flow/      the network flow method
//	bnb/       the exact branch-and-bound
//	lagrange/  the Lagrangian method
//
// The knapsack program (internal/knapsack) and L-BFGS (internal/lbfgs) are shared
// pieces of their own, each tested against enumeration.
package solver

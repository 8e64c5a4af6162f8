package match

import (
	"context"

	"solidarity/match/internal/solver"
	"solidarity/match/internal/solver/bnb"
	"solidarity/match/internal/solver/flow"
	"solidarity/match/internal/solver/lagrange"
)

// The model in indices and what a solve returns are defined with the solvers
// (internal/solver); these names are the package's API for them.
type (
	// Model is a matching problem in indices.
	Model = solver.Model
	// Family is one family: indivisible, placed whole or not at all.
	Family = solver.Family
	// Arc is an allowed placement and its score (finite).
	Arc = solver.Arc
	// Place is a place with a capacity in each dimension.
	Place = solver.Place
	// Group is a capacity over several places, in each dimension.
	Group = solver.Group
	// MinRow asks that the families placed in Places need at least Min in dimension
	// Dim summed (Dim = -1: the sum over all dimensions, the number of persons).
	MinRow = solver.MinRow
	// Status says what Solve found.
	Status = solver.Status
	// Solution is an assignment and what is proven about it.
	Solution = solver.Solution
	// Options tune Solve.
	Options = solver.Options
	// Prices are the multipliers a solve by the Lagrangian method ended with, for a
	// re-solve to start from (Options.Prices). Opaque: only the solver reads them.
	Prices = solver.Prices
)

const (
	Optimal    = solver.Optimal    // Value proven optimal: Bound − Value within Options.Gap
	Feasible   = solver.Feasible   // a solution, stopped by the time limit or the gap: see Bound
	Infeasible = solver.Infeasible // no assignment meets the constraints: see Reason
)

// Solve finds an optimal assignment, or the best within opts' limits with a proven
// bound. It is deterministic for a given model and options (the time limit aside).
func Solve(ctx context.Context, m *Model, opts Options) (*Solution, error) {
	return solver.Solve(ctx, m, opts, methods)
}

// methods are the methods Solve chooses from (solver.Methods.Dispatch).
var methods = newMethods()

func newMethods() *solver.Methods {
	ms := &solver.Methods{Flow: flow.Method{}, Shaped: flow.Shaped, Fallback: flow.Fallback, Large: lagrange.Method{}}
	ms.Exact = bnb.Method{Methods: ms} // its sub-problems are dispatched too
	return ms
}

package lagrange

import (
	"context"
	"testing"
	"time"

	"solidarity/match/internal/solver"
	"solidarity/match/internal/solver/bnb"
)

// CheckKnapsackBoundSound: on generated models with small localities (seeds 1, 2,
// 3, in order), which the Lagrangian method solves with the knapsack bound, the
// bound it reports is at least the optimum the exact branch-and-bound proves, and
// at most L(λ).
func CheckKnapsackBoundSound(t *testing.T, models []*solver.Model) {
	for i, m := range models {
		seed := i + 1
		p, err := solver.NewProb(m)
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		exact, err := bnb.Method{Methods: testMethods()}.Solve(context.Background(), p, solver.Options{Gap: 1e-9, TimeLimit: 30 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		if exact.Status != solver.Optimal {
			t.Skipf("seed %d: the exact method did not finish (%s)", seed, exact.Status)
		}
		opt := exact.Value
		lag, err := solve(context.Background(), p, solver.Options{Gap: 1e-9})
		if err != nil {
			t.Fatal(err)
		}
		if lag.Bound < opt-1e-6 || lag.Value > opt+1e-6 {
			t.Fatalf("seed %d: Lagrangian value %v bound %v, optimum %v", seed, lag.Value, lag.Bound, opt)
		}
		// The knapsack bound on its own, at the Lagrangian method's final prices and
		// from there by its steps: at least the optimum, at most L.
		u := newDual(p)
		for k := range p.K0 {
			u.lam[k] = lag.Prices.Lam(solver.RowID{Kind: p.RowKind[k], Ref: p.RowRef[k], Dim: p.RowDim[k]})
		}
		L := u.full(-1, 0, 0)
		kb := newKnapBound(u)
		first := kb.steps(1, opt, nil)
		best := kb.steps(30, opt, nil)
		if first > L+1e-6 || best > first || best < opt-1e-6 {
			t.Fatalf("seed %d: L %v, knapsack bound %v then %v, optimum %v", seed, L, first, best, opt)
		}
		t.Logf("seed %d: %d rows, optimum %.4f (exact method, %v); L %.4f, knapsack bound %.4f then %.4f; Lagrangian %.4f / %.4f",
			seed, p.K0, opt, time.Since(start), L, first, best, lag.Value, lag.Bound)
	}
}

package solver

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"
)

// A Method solves a prepared problem, as gonum's optimize.Method: the dispatch
// (Methods) chooses one by the problem's shape and size. Each lives in a package
// of its own under this one (flow, bnb, lagrange), which imports this package for
// the model, the prepared problem and the assignment they share.
type Method interface {
	// Solve returns an optimal assignment, or the best found within ctx with a
	// proven bound; Value need only be the method's own running sum (Dispatch
	// recomputes it from the model).
	Solve(ctx context.Context, p *Prob, opts Options) (*Solution, error)
}

// Methods are the methods Dispatch chooses from. Package match names them; a
// method that solves sub-problems (bnb) is given them too.
type Methods struct {
	// Flow solves one-person families over laminar rows exactly, a network flow
	// without branching; Shaped says whether it takes a problem, and Fallback is its
	// greedy answer when the time limit comes first (nil: none).
	Flow     Method
	Shaped   func(p *Prob) bool
	Fallback func(p *Prob) *Solution
	// Exact is the LP branch-and-bound, used while the coupling rows are at most
	// MaxLPRows; Large is the Lagrangian method beyond.
	Exact, Large Method
}

// Solve finds an optimal assignment, or the best within opts' limits with a proven
// bound. It is deterministic for a given model and options (the time limit aside).
func Solve(ctx context.Context, m *Model, opts Options, ms *Methods) (*Solution, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	if opts.Gap <= 0 {
		opts.Gap = 1e-9
	}
	if opts.TimeLimit > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opts.TimeLimit)
		defer cancel()
	}
	start := time.Now()
	s, err := ms.Dispatch(ctx, m, opts)
	if s != nil {
		s.Elapsed = time.Since(start)
	}
	return s, err
}

// Dispatch solves a valid model: by the network flow when it is flow-shaped, by
// the exact LP branch-and-bound while the coupling rows are few, by the Lagrangian
// method beyond. The answer is checked against the model.
func (ms *Methods) Dispatch(ctx context.Context, m *Model, opts Options) (*Solution, error) {
	p, err := NewProbRows(m)
	if ie, ok := errors.AsType[*InfeasibleError](err); ok {
		return &Solution{Status: Infeasible, Reason: ie.Reason}, nil
	}
	if err != nil {
		return nil, err
	}
	flow := ms.Shaped(p)
	if flow || p.K <= MaxLPRows {
		p.BuildCoefs()
	}
	var s *Solution
	if flow {
		s, err = ms.Flow.Solve(ctx, p, opts)
		if errors.Is(err, context.DeadlineExceeded) && ms.Fallback != nil {
			// The time limit came first: a greedy answer with its bound, as the other
			// methods return their best so far.
			if fb := ms.Fallback(p); fb != nil {
				s, err = fb, nil
			}
		}
	} else if p.K <= MaxLPRows {
		s, err = ms.Exact.Solve(ctx, p, opts)
	} else {
		s, err = ms.Large.Solve(ctx, p, opts)
	}
	if err != nil {
		return nil, err
	}
	if s.Status != Infeasible {
		// The assignment is checked against the model itself, not the prepared
		// problem: a solver bug must never reach a user as a broken placement.
		v, verr := m.Value(s.Place)
		if verr != nil {
			return nil, fmt.Errorf("match: internal error: solver returned an invalid assignment: %w", verr)
		}
		s.Value = v
		if s.Bound < v {
			s.Bound = v
		}
		gap := s.Bound - v
		// The solver's own test used its running sum for the value; allow for the
		// rounding difference to the model's sum.
		if s.Status == Optimal && gap > 2*opts.Gap*math.Max(1, math.Abs(v))+1e-12 {
			s.Status = Feasible
		}
	}
	return s, nil
}

package bnb

import (
	"math"

	"solidarity/match/internal/solver"
)

// LPDuals solves p's LP relaxation (p.BuildCoefs done) by the dual simplex and
// returns each coupling row's price (what one more unit of the row's bound is
// worth: ≥ 0 for a capacity, ≤ 0 for a minimum) and the LP optimum, a bound on
// the integer optimum; ok is false when the LP is infeasible or takes more than
// maxIter iterations. The online potentials (match.DualPrices) use it for models
// of up to solver.MaxLPRows rows, where exact duals cost less than the smoothed
// Lagrangian's and are exact.
func LPDuals(p *solver.Prob, maxIter int) (price []float64, bound float64, ok bool) {
	l := newLP(p)
	if l.solve(math.Inf(1), maxIter) != lpOptimal {
		return nil, 0, false
	}
	l.computeDuals()
	price = make([]float64, p.K)
	for k := range p.K {
		price[k] = -l.piC[k]
	}
	return price, -l.objective(), true
}

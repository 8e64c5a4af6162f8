package match

import (
	"context"
	"errors"
	"fmt"

	"solidarity/match/internal/solver"
	"solidarity/match/internal/solver/bnb"
	"solidarity/match/internal/solver/lagrange"
)

// PlacePrices are the capacity prices of a model's LP relaxation: what one more
// unit of each place's capacity is worth, per dimension and per person (a group's
// or a minimum's price is carried onto each of its places). The online methods use
// them as potentials: what a place is worth for the rest of the year.
type PlacePrices struct {
	Dims int
	// Price is, per place, Dims prices then the price per person.
	Price [][]float64
	// Bound is the relaxation's value at these prices, a proven upper bound on the
	// model's optimum.
	Bound float64
}

// Reduced is the score of placing a family of needs need at place pl, less the
// capacity it uses at these prices.
func (pp *PlacePrices) Reduced(score float64, need []int64, pl int) float64 {
	pr := pp.Price[pl]
	var persons int64
	for d, n := range need {
		score -= float64(n) * pr[d]
		persons += n
	}
	return score - float64(persons)*pr[pp.Dims]
}

// DualPrices solves the Lagrangian dual of m's capacity, group and minimum rows
// (equal to its LP relaxation) and returns the prices, without an assignment.
// steps bounds the smoothing levels, each 20 L-BFGS iterations at a smoothing
// 0.4 times the last's (0: a full solve's schedule, 12): 4 gives the same
// potentials' placements on HIAS FY2017 at 0.4 of the time. ctx stops it early
// with the prices reached so far.
func DualPrices(ctx context.Context, m *Model, steps int) (*PlacePrices, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	p, err := solver.NewProbRows(m)
	if ie, ok := errors.AsType[*solver.InfeasibleError](err); ok {
		return nil, fmt.Errorf("match: infeasible: %s", ie.Reason)
	}
	if err != nil {
		return nil, err
	}
	d1 := m.Dims + 1
	pp := &PlacePrices{Dims: m.Dims, Price: make([][]float64, len(m.Places))}
	pi, bound, moved := lagrange.DualPrices(ctx, p, steps)
	if !moved && p.K0 > 0 && p.K <= solver.MaxLPRows {
		return lpPrices(m, p, pp)
	}
	pp.Bound = bound
	for pl := range m.Places {
		pp.Price[pl] = pi[pl*d1 : (pl+1)*d1 : (pl+1)*d1]
	}
	return pp, nil
}

// lpDualIters bounds the simplex iterations of DualPrices' LP.
const lpDualIters = 100_000

// lpPrices are the prices from the LP relaxation itself, where the smoothed dual
// stalled (lagrange.DualPrices).
func lpPrices(m *Model, p *solver.Prob, pp *PlacePrices) (*PlacePrices, error) {
	d1 := m.Dims + 1
	p.BuildCoefs()
	if price, bound, ok := bnb.LPDuals(p, lpDualIters); ok {
		for pl := range pp.Price {
			pp.Price[pl] = make([]float64, d1)
		}
		for k, x := range price {
			d := int(p.RowDim[k])
			if d < 0 {
				d = m.Dims
			}
			for _, pl := range p.RowPlaces(k) {
				pp.Price[pl][d] += x
			}
		}
		pp.Bound = bound
		return pp, nil
	}
	return nil, fmt.Errorf("match: the LP relaxation took more than %d iterations", lpDualIters)
}

package match

import (
	"context"
	"errors"
	"fmt"

	"solidarity/match/internal/solver"
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
// ctx stops it early with the prices reached so far.
func DualPrices(ctx context.Context, m *Model) (*PlacePrices, error) {
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
	pi, bound := lagrange.DualPrices(ctx, p)
	pp := &PlacePrices{Dims: m.Dims, Price: make([][]float64, len(m.Places)), Bound: bound}
	d1 := m.Dims + 1
	for pl := range m.Places {
		pp.Price[pl] = pi[pl*d1 : (pl+1)*d1 : (pl+1)*d1]
	}
	return pp, nil
}

package solver

import "slices"

// RowID names a coupling row by what it is (kind, place or group or minimum,
// dimension), not by its index, so that prices carry over to a re-solve whose rows
// differ (an override changes which rows can bind).
type RowID struct {
	Kind RowKind
	Ref  int32
	Dim  int32
}

// Prices are the multipliers a solve by the Lagrangian method ended with, for a
// re-solve to start from (Options.Prices). Opaque outside the solvers: only the
// Lagrangian method reads them (Lam, Tau, Bound, Place).
type Prices struct {
	place []int             // the assignment the prices belong to
	lam   map[RowID]float64 // the multipliers, by row
	tau   float64           // the smoothing the solve ended at
	bound float64           // the bound the solve proved
}

// NewPrices keeps the prices lam (by p's rows) of the solve that returned place.
func NewPrices(p *Prob, place []int, lam []float64, tau, bound float64) *Prices {
	if lam == nil {
		return nil
	}
	w := &Prices{place: slices.Clone(place), lam: make(map[RowID]float64, p.K0), tau: tau, bound: bound}
	for k := range p.K0 {
		if lam[k] != 0 {
			w.lam[RowID{Kind: p.RowKind[k], Ref: p.RowRef[k], Dim: p.RowDim[k]}] = lam[k]
		}
	}
	return w
}

// Place is the assignment the prices belong to.
func (w *Prices) Place() []int { return w.place }

// Lam is the multiplier of row id (0 for a row the solve did not price).
func (w *Prices) Lam(id RowID) float64 { return w.lam[id] }

// Tau is the smoothing the solve ended at.
func (w *Prices) Tau() float64 { return w.tau }

// Bound is the bound the solve proved.
func (w *Prices) Bound() float64 { return w.bound }

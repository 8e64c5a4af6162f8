package lagrange

import (
	"context"
	"math"
	"slices"

	"solidarity/match/internal/solver"
)

// DualPrices minimises the Lagrangian dual of p's coupling rows and returns the
// prices it ends with, per place × (dimensions + persons) (each row's multiplier
// summed onto its places, a minimum's negated), and the bound L(λ) it proved.
//
// The family rows (each family at most once) are kept and the coupling rows priced,
// so each family's subproblem is a choice of one arc: integral, and L's minimum is
// the LP relaxation's optimum (Geoffrion 1974). These are the prices the online
// potentials method (Ahani et al. 2024) averages over sampled futures; no assignment
// is built, which is most of a full solve's time. steps bounds the smoothing
// levels (0: a full solve's schedule). moved is false when the smoothing did
// not lower the bound below its value at λ = 0: on a small model whose families
// all sit on one arc the smoothed dual has no curvature at 0 and the steps go
// nowhere, so it starts again with a wider smoothing, twice; then the caller
// solves the LP (bnb.LPDuals).
func DualPrices(ctx context.Context, p *solver.Prob, steps int) (pi []float64, bound float64, moved bool) {
	if steps <= 0 {
		steps = maxSteps
	}
	s := &search{ctx: ctx, p: p, u: newDual(p), bound: math.Inf(1), kbound: math.Inf(1)}
	s.u.keepMemory = true
	s.u.stop = s.stopped
	s.scale = 1e-9
	for _, sc := range p.ArcScore {
		s.scale = max(s.scale, math.Abs(sc))
	}
	u := s.u
	if p.K0 == 0 {
		return slices.Clone(u.pi), u.full(math.Inf(1), 0, math.MaxInt32), true
	}
	// A first smoothing wider by retryWiden each time the last did not move.
	var first float64
	for try := range dualTries {
		clear(u.lam)
		u.bf.Reset()
		s.bound, s.bestLam = math.Inf(1), nil
		first = s.schedule(steps, tauStart*s.scale*math.Pow(retryWiden, float64(try)))
		if s.bound < first-1e-9*math.Max(1, math.Abs(first)) || s.stopped() {
			break
		}
	}
	u.setPi(s.bestLam)
	return slices.Clone(u.pi), s.bound, s.bound < first-1e-9*math.Max(1, math.Abs(first))
}

// Retries of DualPrices' schedule, each with a first smoothing retryWiden
// times wider.
const (
	dualTries  = 3
	retryWiden = 16.0
)

// schedule runs the dual's smoothing levels from tau, at most steps, and
// returns the bound at the first pass (λ as given).
func (s *search) schedule(steps int, tau float64) (first float64) {
	s.tau = tau
	prev := math.Inf(1)
	for step := 0; ; step++ {
		if L := s.pass(step < allArcSteps); step == 0 {
			first = L
		}
		if s.stopped() || step == steps || (step > 1 && prev-s.bound <= dualStop*math.Max(1, math.Abs(s.bound))) {
			return first
		}
		prev = s.bound
		s.level(step)
	}
}

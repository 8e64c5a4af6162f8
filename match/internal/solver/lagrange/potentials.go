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
// is built, which is most of a full solve's time.
func DualPrices(ctx context.Context, p *solver.Prob) (pi []float64, bound float64) {
	s := &search{ctx: ctx, p: p, u: newDual(p), bound: math.Inf(1), kbound: math.Inf(1)}
	s.u.keepMemory = true
	s.u.stop = s.stopped
	s.scale = 1e-9
	for _, sc := range p.ArcScore {
		s.scale = max(s.scale, math.Abs(sc))
	}
	u := s.u
	if p.K0 == 0 {
		return slices.Clone(u.pi), u.full(math.Inf(1), 0, math.MaxInt32)
	}
	s.tau = tauStart * s.scale
	prev := math.Inf(1)
	for step := 0; ; step++ {
		s.pass(step < allArcSteps)
		if s.stopped() || step == maxSteps || (step > 1 && prev-s.bound <= dualStop*math.Max(1, math.Abs(s.bound))) {
			break
		}
		prev = s.bound
		its := levelIters
		if step == 0 {
			for _, lv := range pyramid {
				if p.N/lv[0] >= sampleMin {
					s.iters += u.sampled(s.tau, lv[0], lv[1])
					its = firstLevelIters
				}
			}
		}
		s.iters += u.smoothOpt(s.tau, its)
		s.tau *= tauFactor
	}
	u.setPi(s.bestLam)
	return slices.Clone(u.pi), s.bound
}

package lagrange

import (
	"math"
	"slices"

	"solidarity/match/internal/solver"
)

// Warm starts for re-solves. A solve by the Lagrangian method returns its prices in
// Solution.Prices; a later solve given them back in Options.Prices, with Options.Start
// the assignment they came with (Resolve after an override: the same model but for
// a pin or a forbid), starts from those prices instead of from zero and works only
// around the families the override concerns. The prices are kept by row identity
// (kind, place or group or minimum, dimension), so they carry over when the override
// changes which rows can bind. They travel with the caller, not in a cache, so that
// a solve depends only on its input.

// resolve is the schedule of a re-solve from a previous solution and its prices:
// the previous assignment, repaired where it no longer holds; local search only
// around the families that lost their place and the places they left; one full
// pass at the previous prices for the bound, then short dual steps while the gap is
// not met.
func (s *search) resolve(w *solver.Prices) {
	u, p := s.u, s.p
	for k := range p.K0 {
		u.lam[k] = w.Lam(solver.RowID{Kind: p.RowKind[k], Ref: p.RowRef[k], Dim: p.RowDim[k]})
	}
	s.tau = math.Max(w.Tau(), 1e-9*s.scale)
	start := s.opts.Start
	e := s.work
	e.FromPlaces(start)
	// The families the override concerns: placed before and not now (their arc is
	// gone, or a repair took them out), or that must be placed and are not.
	var dirty []int32
	var freed []int32
	for f := range p.N {
		if e.Arc[f] >= 0 {
			continue
		}
		if start[f] >= 0 || p.Must[f] {
			dirty = append(dirty, int32(f))
		}
		if start[f] >= 0 {
			freed = append(freed, int32(start[f]))
		}
	}
	slices.Sort(freed)
	freed = slices.Compact(freed)
	s.pass(false)
	u.repair(e, dirty, freed)
	s.offer(e)
	trace("re-solve: %d families to place, value %.4f, bound %.4f", len(dirty), e.Value, s.bound)
	// The prices of the previous solve are as good as they were unless the bound
	// got worse than the previous one: then a few dual steps, while they help.
	prev := w.Bound()
	for step := 0; step < 3 && !s.gapOK() && !s.stopped(); step++ {
		if s.bound <= prev+1e-6*math.Max(1, math.Abs(prev)) {
			break
		}
		prev = s.bound
		s.iters += u.smoothOpt(s.tau, levelIters)
		s.pass(false)
		s.tau *= tauFactor
	}
}

// repair places the families in dirty (out, after an override) by chains of moves
// on the true scores, fills the places in freed by pulling families in, and
// finishes with single moves: the rest of the assignment moves only where a
// family gains.
func (u *dual) repair(e *primal, dirty, freed []int32) {
	p := u.p
	cs, ca := u.topArcs(searchArcs)
	c := newChainSearch(e, u.red, cs, ca, chainDepth)
	c.anyArc = true
	c.run(dirty)
	for _, f := range dirty {
		if e.Arc[f] < 0 {
			// Directly, by score, when that fits.
			best, bestS := int32(-1), 0.0
			for a := p.FamStart[f]; a < p.FamStart[f+1]; a++ {
				if sc := p.ArcScore[a]; (sc > bestS || (best < 0 && p.Must[f])) && e.Fits(int(f), a) {
					best, bestS = a, sc
				}
			}
			if best >= 0 {
				e.Set(int(f), best)
			}
		}
	}
	for _, f := range dirty {
		if e.Arc[f] < 0 && p.Must[f] {
			e.placeMust(int(f))
		}
	}
	e.fixMustAndMins()
	// Room left behind: the families that could use it move in when they gain
	// (only into it: the rest of the assignment stays as it was).
	var fams []int32
	for _, pl := range freed {
		for _, x := range c.wArc[c.wStart[pl]:c.wStart[pl+1]] {
			fams = append(fams, p.ArcFam[x])
		}
	}
	slices.Sort(fams)
	fams = slices.Compact(fams)
	var into []int32
	e.moves(fams, func(f int) []int32 {
		into = into[:0]
		for _, pl := range freed {
			if a := e.ArcAt(f, pl); a >= 0 {
				into = append(into, a)
			}
		}
		return into
	})
}

// placeMust places family f, which must be placed and is out (a pin to a full
// place), on one of its arcs, moving at most one family there out of the way, to
// its best arc elsewhere that fits, or out when it need not be placed: the choice
// that loses least. Without it the repair would fall back on PlaceMusts, which
// tries every family at every place of f (far more than a re-solve's time at EU
// scale).
// It reports whether f was placed.
func (e *primal) placeMust(f int) bool {
	p := e.P
	bestV, bestB, bestG, bestC := math.Inf(-1), int32(-1), -1, int32(-1)
	for b := p.FamStart[f]; b < p.FamStart[f+1]; b++ {
		if e.Fits(f, b) {
			if v := p.ArcScore[b]; v > bestV {
				bestV, bestB, bestG, bestC = v, b, -1, -1
			}
			continue
		}
		e.blocking(f, b)
		pl := p.ArcPlace[b]
		for _, gg := range e.At[pl] {
			g := int(gg)
			if !e.covers(g) {
				continue
			}
			sg := p.ArcScore[e.Arc[g]]
			try := func(c int32) {
				v := p.ArcScore[b] + e.Score(c) - sg
				if v > bestV && e.pairFits(f, b, g, c) {
					bestV, bestB, bestG, bestC = v, b, g, c
				}
			}
			if !p.Must[g] {
				try(-1)
			}
			for c := p.FamStart[g]; c < p.FamStart[g+1]; c++ {
				if p.ArcPlace[c] != pl {
					try(c)
				}
			}
		}
	}
	if bestB < 0 {
		return false
	}
	if bestG >= 0 {
		e.Set(bestG, bestC)
	}
	e.Set(f, bestB)
	return true
}

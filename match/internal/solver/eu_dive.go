package solver

import (
	"cmp"
	"math"
	"slices"
)

// Dives: the time the dual schedule leaves is spent on more assignments, each built
// from the prices of the last full pass as follows. The families whose arc of best
// reduced score is clearly better than their next choice (a large margin) are
// fixed there: at prices near the optimum they are where the relaxation puts them.
// The others are re-priced alone, on the room the fixed ones leave (a few L-BFGS
// iterations of the smoothed dual restricted to them), the clearest of them are
// fixed in turn, and so on until few are left; those are placed greedily by their
// last reduced scores, and local search improves the whole. The families that are
// close to a tie are thus decided by prices that account for the others' choices,
// not by the order of one greedy pass. Dives differ in how many families they fix
// at first, so that each explores another rounding; the best assignment is kept.

// Dive parameters: the first fixing takes lagDiveFirst[i] of the families in dive
// i (by margin), each later one lagDiveNext of those left, until at most
// lagDiveRest are left; each re-pricing runs lagDiveIters iterations.
var lagDiveFirst = []float64{0.8, 0.9, 0.6, 0.95, 0.7, 0.85, 0.5}

const (
	lagDiveTau   = 100 // the re-pricings' smoothing, × the schedule's last (which is for the bound)
	lagDiveNext  = 0.5
	lagDiveRest  = 64
	lagDiveIters = 15
)

// diveState is the scratch the dives share.
type diveState struct {
	red    []float64 // per arc: reduced score at the dive's prices (for free families)
	margin []float64
	lam    []float64 // the master prices, restored after a dive
	hi, lo []float64
}

// margins sets, for the families in fams, their best arc at the reduced scores red
// (-1: out) into best and the margin over their next choice into d.margin.
func (d *diveState) margins(p *prob, red []float64, fams []int32, best []int32) {
	for _, ff := range fams {
		f := int(ff)
		b1, b2, a1 := math.Inf(-1), math.Inf(-1), int32(-1)
		if !p.must[f] {
			b1 = 0
		}
		for a := p.famStart[f]; a < p.famStart[f+1]; a++ {
			r := red[a]
			if r > b1 || (a1 < 0 && math.IsInf(b1, -1)) {
				b2, b1, a1 = b1, r, a
			} else if r > b2 {
				b2 = r
			}
		}
		best[f] = a1
		d.margin[f] = b1 - b2 // +Inf when there is no other choice
	}
}

// dive builds an assignment in e as described above, the first fixing taking the
// fraction first of the families. The prices of the solver are left as they were.
func (s *lagSolver) dive(e *euPrimal, d *diveState, first float64) {
	u, p := s.u, s.p
	if d.red == nil {
		d.red = make([]float64, len(p.arcPlace))
		d.margin = make([]float64, p.n)
		d.lam = make([]float64, len(u.lam))
		d.hi, d.lo = make([]float64, p.K0), make([]float64, p.K0)
	}
	copy(d.lam, u.lam)
	copy(d.red, u.red)
	best := make([]int32, p.n)
	free := make([]int32, p.n)
	for f := range free {
		free[f] = int32(f)
	}
	d.margins(p, d.red, free, best)
	e.reset()
	frac := first
	for len(free) > lagDiveRest && !s.stopped() {
		// Fix the clearest families first, each where it is best when it fits.
		slices.SortStableFunc(free, func(x, y int32) int { return cmp.Compare(d.margin[y], d.margin[x]) })
		nfix := int(frac * float64(len(free)))
		left := free[:0]
		for i, ff := range free {
			f := int(ff)
			if i < nfix && (best[f] < 0 && !p.must[f] || best[f] >= 0 && e.fits(f, best[f])) {
				if best[f] >= 0 {
					e.set(f, best[f])
				}
				continue
			}
			left = append(left, ff)
		}
		stuck := len(left) == len(free)
		free = left
		frac = lagDiveNext
		if len(free) <= lagDiveRest || stuck {
			break
		}
		// Re-price the families left on the room the fixed ones leave.
		slices.Sort(free)
		for k := range p.K0 {
			d.hi[k], d.lo[k] = p.rowHi[k]-e.used[k], p.rowLo[k]-e.used[k]
		}
		u.act, u.hi, u.lo = free, d.hi, d.lo
		u.bf.Reset()
		s.iters += u.smoothOpt(lagDiveTau*s.tau, lagDiveIters)
		u.act, u.hi, u.lo = nil, p.rowHi[:p.K0], p.rowLo[:p.K0]
		u.setPi(u.lam)
		for _, ff := range free {
			f := int(ff)
			a0, a1 := p.famStart[f], p.famStart[f+1]
			u.redRange(f, a0, a1, d.red[a0:a1])
		}
		d.margins(p, d.red, free, best)
	}
	// The rest greedily, by their last reduced scores.
	key := make([]float64, p.n)
	for _, ff := range free {
		f := int(ff)
		key[f] = math.Inf(-1)
		for a := p.famStart[f]; a < p.famStart[f+1]; a++ {
			key[f] = max(key[f], d.red[a])
		}
	}
	slices.SortStableFunc(free, func(x, y int32) int {
		if p.must[x] != p.must[y] {
			if p.must[x] {
				return -1
			}
			return 1
		}
		return cmp.Compare(key[y], key[x])
	})
	e.greedy(free, d.red)
	e.fixMustAndMins()
	// Back to the master prices (the reduced scores of the last full pass are
	// untouched), with a fresh L-BFGS memory.
	copy(u.lam, d.lam)
	u.setPi(u.lam)
	u.bf.Reset()
}

package lagrange

import (
	"cmp"
	"math"
	"slices"

	"solidarity/match/internal/solver"
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

// Dive parameters: the first fixing takes diveFirst[i] of the families in dive
// i (by margin), each later one diveNext of those left, until at most
// diveRest are left; each re-pricing runs diveIters iterations.
var diveFirst = []float64{0.8, 0.9, 0.6, 0.95, 0.7, 0.85, 0.5}

const (
	diveTau   = 100 // the re-pricings' smoothing, × the schedule's last (which is for the bound)
	diveNext  = 0.5
	diveRest  = 64
	diveIters = 15
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
func (d *diveState) margins(p *solver.Prob, red []float64, fams []int32, best []int32) {
	for _, ff := range fams {
		f := int(ff)
		b1, b2, a1 := math.Inf(-1), math.Inf(-1), int32(-1)
		if !p.Must[f] {
			b1 = 0
		}
		for a := p.FamStart[f]; a < p.FamStart[f+1]; a++ {
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
func (s *search) dive(e *primal, d *diveState, first float64) {
	u, p := s.u, s.p
	if d.red == nil {
		d.red = make([]float64, len(p.ArcPlace))
		d.margin = make([]float64, p.N)
		d.lam = make([]float64, len(u.lam))
		d.hi, d.lo = make([]float64, p.K0), make([]float64, p.K0)
	}
	copy(d.lam, u.lam)
	copy(d.red, u.red)
	best := make([]int32, p.N)
	free := make([]int32, p.N)
	for f := range free {
		free[f] = int32(f)
	}
	d.margins(p, d.red, free, best)
	e.Reset()
	frac := first
	for len(free) > diveRest && !s.stopped() {
		// Fix the clearest families first, each where it is best when it fits.
		slices.SortStableFunc(free, func(x, y int32) int { return cmp.Compare(d.margin[y], d.margin[x]) })
		nfix := int(frac * float64(len(free)))
		left := free[:0]
		for i, ff := range free {
			f := int(ff)
			if i < nfix && (best[f] < 0 && !p.Must[f] || best[f] >= 0 && e.Fits(f, best[f])) {
				if best[f] >= 0 {
					e.Set(f, best[f])
				}
				continue
			}
			left = append(left, ff)
		}
		stuck := len(left) == len(free)
		free = left
		frac = diveNext
		if len(free) <= diveRest || stuck {
			break
		}
		// Re-price the families left on the room the fixed ones leave.
		slices.Sort(free)
		for k := range p.K0 {
			d.hi[k], d.lo[k] = p.RowHi[k]-e.Used[k], p.RowLo[k]-e.Used[k]
		}
		u.act, u.hi, u.lo = free, d.hi, d.lo
		u.bf.Reset()
		s.iters += u.smoothOpt(diveTau*s.tau, diveIters)
		u.act, u.hi, u.lo = nil, p.RowHi[:p.K0], p.RowLo[:p.K0]
		u.setPi(u.lam)
		for _, ff := range free {
			f := int(ff)
			a0, a1 := p.FamStart[f], p.FamStart[f+1]
			u.redRange(f, a0, a1, d.red[a0:a1])
		}
		d.margins(p, d.red, free, best)
	}
	// The rest greedily, by their last reduced scores.
	key := make([]float64, p.N)
	for _, ff := range free {
		f := int(ff)
		key[f] = math.Inf(-1)
		for a := p.FamStart[f]; a < p.FamStart[f+1]; a++ {
			key[f] = max(key[f], d.red[a])
		}
	}
	slices.SortStableFunc(free, func(x, y int32) int {
		if p.Must[x] != p.Must[y] {
			if p.Must[x] {
				return -1
			}
			return 1
		}
		return cmp.Compare(key[y], key[x])
	})
	e.Greedy(free, d.red)
	e.fixMustAndMins()
	// Back to the master prices (the reduced scores of the last full pass are
	// untouched), with a fresh L-BFGS memory.
	copy(u.lam, d.lam)
	u.setPi(u.lam)
	u.bf.Reset()
}

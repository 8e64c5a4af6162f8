package solver

import (
	"cmp"
	"math"
	"slices"
)

// moves moves each family (in fams, or all when nil) to its fitting arc of best
// score among arcs(f), or out when its score is negative and it need not be placed:
// strict gains only. It returns the gain.
func (e *euPrimal) moves(fams []int32, arcs func(f int) []int32) float64 {
	p := e.p
	gain := 0.0
	one := func(f int) {
		cur := e.arc[f]
		best, bestS := cur, e.score(cur)
		if cur >= 0 && bestS < 0 && !p.must[f] && e.fits(f, -1) {
			best, bestS = -1, 0
		}
		try := func(a int32) {
			if s := p.arcScore[a]; s > bestS+1e-12 && a != cur && e.fits(f, a) {
				best, bestS = a, s
			}
		}
		if arcs == nil {
			for a := p.famStart[f]; a < p.famStart[f+1]; a++ {
				try(a)
			}
		} else {
			for _, a := range arcs(f) {
				try(a)
			}
		}
		if best != cur {
			gain += bestS - e.score(cur)
			e.set(f, best)
		}
	}
	if fams == nil {
		for f := range p.n {
			if f%1024 == 1023 && e.stopped() {
				break
			}
			one(f)
		}
	} else {
		for _, f := range fams {
			one(int(f))
		}
	}
	return gain
}

// pairFits says whether f may move to b and g to c at the same time (g = -1: only
// f), keeping every capacity and no minimum further below its bound.
func (e *euPrimal) pairFits(f int, b int32, g int, c int32) bool {
	p := e.p
	e.touched = e.touched[:0]
	add := func(fam int, a int32, sign float64) {
		for _, k := range e.rowsOf(a) {
			if e.delta[k] == 0 {
				e.touched = append(e.touched, k)
			}
			e.delta[k] += sign * p.coef(fam, p.rowDim[k])
			if e.delta[k] == 0 {
				e.delta[k] = 1e-300 // stays listed once
			}
		}
	}
	add(f, e.arc[f], -1)
	add(f, b, 1)
	if g >= 0 {
		add(g, e.arc[g], -1)
		add(g, c, 1)
	}
	ok := true
	for _, k := range e.touched {
		dk := e.delta[k]
		e.delta[k] = 0
		if !ok || math.Abs(dk) < 1e-200 {
			continue
		}
		nu := e.used[k] + dk
		if dk > 0 && nu > p.rowHi[k]+tolLoad {
			ok = false
		}
		if dk < 0 && nu < p.rowLo[k]-tolLoad {
			ok = false
		}
	}
	return ok
}

// blocking lists the rows that keep family f from moving to arc b, with by how
// much each is exceeded, into e.blk (rows) and e.blkBy.
func (e *euPrimal) blocking(f int, b int32) {
	p := e.p
	e.blk, e.blkBy = e.blk[:0], e.blkBy[:0]
	ra, rb := e.rowsOf(e.arc[f]), e.rowsOf(b)
	i := 0
	for _, k := range rb {
		for i < len(ra) && ra[i] < k {
			i++
		}
		if i < len(ra) && ra[i] == k {
			i++
			continue
		}
		if c := p.coef(f, p.rowDim[k]); c > 0 {
			if over := e.used[k] + c - p.rowHi[k]; over > tolLoad {
				e.blk = append(e.blk, k)
				e.blkBy = append(e.blkBy, over)
			}
		}
	}
}

// eject tries, for each family f in fams, to move it to one of arcs(f) that scores
// more, displacing at most one family g from that place to one of arcs(g), to f's
// old place, or out, whichever gains most in total. It stops after about budget
// capacity checks. It returns the gain.
func (e *euPrimal) eject(fams []int32, arcs func(f int) []int32, budget int) float64 {
	p := e.p
	total := 0.0
	type alt struct {
		c int32
		s float64
	}
	var alts []alt
	for i, ff := range fams {
		if budget <= 0 || (i%64 == 63 && e.stopped()) {
			break
		}
		f := int(ff)
		a := e.arc[f]
		sa := e.score(a)
		var aPl int32 = -1
		if a >= 0 {
			aPl = p.arcPlace[a]
		}
		bestGain, bb, bg, bc := 1e-9, int32(-1), -1, int32(-1)
		for _, b := range arcs(f) {
			gf := p.arcScore[b] - sa
			if b == a || gf <= bestGain {
				continue
			}
			budget--
			e.blocking(f, b)
			if len(e.blk) == 0 {
				if e.fits(f, b) { // minimums left behind
					bestGain, bb, bg, bc = gf, b, -1, -1
				}
				continue
			}
			bPl := p.arcPlace[b]
			for _, gg := range e.at[bPl] {
				g := int(gg)
				sg := p.arcScore[e.arc[g]]
				if gf-sg+e.bestScore(g) <= bestGain {
					continue // even g's best arc would not make it pay
				}
				// g leaving every row of its place must cover the excess.
				if !e.covers(g) {
					continue
				}
				alts = alts[:0]
				if !p.must[g] {
					alts = append(alts, alt{-1, 0})
				}
				if aPl >= 0 {
					if c := e.arcAt(g, aPl); c >= 0 {
						alts = append(alts, alt{c, p.arcScore[c]})
					}
				}
				for _, c := range arcs(g) {
					if pl := p.arcPlace[c]; pl != bPl && pl != aPl {
						alts = append(alts, alt{c, p.arcScore[c]})
					}
				}
				slices.SortFunc(alts, func(x, y alt) int { return cmp.Compare(y.s, x.s) })
				for _, x := range alts {
					gain := gf + x.s - sg
					if gain <= bestGain {
						break
					}
					budget--
					if e.pairFits(f, b, g, x.c) {
						bestGain, bb, bg, bc = gain, b, g, x.c
						break
					}
				}
			}
		}
		if bb >= 0 {
			if bg >= 0 {
				e.set(bg, bc)
			}
			e.set(f, bb)
			total += bestGain
		}
	}
	return total
}

// bestScore is the best score of f's arcs (cached), 0 at least when f need not be
// placed.
func (e *euPrimal) bestScore(f int) float64 {
	if e.best == nil {
		p := e.p
		e.best = make([]float64, p.n)
		for g := range p.n {
			b := math.Inf(-1)
			if !p.must[g] {
				b = 0
			}
			for a := p.famStart[g]; a < p.famStart[g+1]; a++ {
				b = max(b, p.arcScore[a])
			}
			e.best[g] = b
		}
	}
	return e.best[f]
}

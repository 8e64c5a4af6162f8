package lagrange

import (
	"cmp"
	"math"
	"slices"

	"solidarity/match/internal/solver"
)

// moves moves each family (in fams, or all when nil) to its fitting arc of best
// score among arcs(f), or out when its score is negative and it need not be placed:
// strict gains only. It returns the gain.
func (e *primal) moves(fams []int32, arcs func(f int) []int32) float64 {
	p := e.P
	gain := 0.0
	one := func(f int) {
		cur := e.Arc[f]
		best, bestS := cur, e.Score(cur)
		if cur >= 0 && bestS < 0 && !p.Must[f] && e.Fits(f, -1) {
			best, bestS = -1, 0
		}
		try := func(a int32) {
			if s := p.ArcScore[a]; s > bestS+1e-12 && a != cur && e.Fits(f, a) {
				best, bestS = a, s
			}
		}
		if arcs == nil {
			for a := p.FamStart[f]; a < p.FamStart[f+1]; a++ {
				try(a)
			}
		} else {
			for _, a := range arcs(f) {
				try(a)
			}
		}
		if best != cur {
			gain += bestS - e.Score(cur)
			e.Set(f, best)
		}
	}
	if fams == nil {
		for f := range p.N {
			if f%1024 == 1023 && e.Stopped() {
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
func (e *primal) pairFits(f int, b int32, g int, c int32) bool {
	p := e.P
	e.Touched = e.Touched[:0]
	add := func(fam int, a int32, sign float64) {
		for _, k := range e.RowsOf(a) {
			if e.Delta[k] == 0 {
				e.Touched = append(e.Touched, k)
			}
			e.Delta[k] += sign * p.Coef(fam, p.RowDim[k])
			if e.Delta[k] == 0 {
				e.Delta[k] = 1e-300 // stays listed once
			}
		}
	}
	add(f, e.Arc[f], -1)
	add(f, b, 1)
	if g >= 0 {
		add(g, e.Arc[g], -1)
		add(g, c, 1)
	}
	ok := true
	for _, k := range e.Touched {
		dk := e.Delta[k]
		e.Delta[k] = 0
		if !ok || math.Abs(dk) < 1e-200 {
			continue
		}
		nu := e.Used[k] + dk
		if dk > 0 && nu > p.RowHi[k]+solver.TolLoad {
			ok = false
		}
		if dk < 0 && nu < p.RowLo[k]-solver.TolLoad {
			ok = false
		}
	}
	return ok
}

// blocking lists the rows that keep family f from moving to arc b, with by how
// much each is exceeded, into e.blk (rows) and e.blkBy.
func (e *primal) blocking(f int, b int32) {
	p := e.P
	e.Blk, e.BlkBy = e.Blk[:0], e.BlkBy[:0]
	ra, rb := e.RowsOf(e.Arc[f]), e.RowsOf(b)
	i := 0
	for _, k := range rb {
		for i < len(ra) && ra[i] < k {
			i++
		}
		if i < len(ra) && ra[i] == k {
			i++
			continue
		}
		if c := p.Coef(f, p.RowDim[k]); c > 0 {
			if over := e.Used[k] + c - p.RowHi[k]; over > solver.TolLoad {
				e.Blk = append(e.Blk, k)
				e.BlkBy = append(e.BlkBy, over)
			}
		}
	}
}

// eject tries, for each family f in fams, to move it to one of arcs(f) that scores
// more, displacing at most one family g from that place to one of arcs(g), to f's
// old place, or out, whichever gains most in total. It stops after about budget
// capacity checks. It returns the gain.
func (e *primal) eject(fams []int32, arcs func(f int) []int32, budget int) float64 {
	p := e.P
	total := 0.0
	type alt struct {
		c int32
		s float64
	}
	var alts []alt
	for i, ff := range fams {
		if budget <= 0 || (i%64 == 63 && e.Stopped()) {
			break
		}
		f := int(ff)
		a := e.Arc[f]
		sa := e.Score(a)
		var aPl int32 = -1
		if a >= 0 {
			aPl = p.ArcPlace[a]
		}
		bestGain, bb, bg, bc := 1e-9, int32(-1), -1, int32(-1)
		for _, b := range arcs(f) {
			gf := p.ArcScore[b] - sa
			if b == a || gf <= bestGain {
				continue
			}
			budget--
			e.blocking(f, b)
			if len(e.Blk) == 0 {
				if e.Fits(f, b) { // minimums left behind
					bestGain, bb, bg, bc = gf, b, -1, -1
				}
				continue
			}
			bPl := p.ArcPlace[b]
			for _, gg := range e.At[bPl] {
				g := int(gg)
				sg := p.ArcScore[e.Arc[g]]
				if gf-sg+e.bestScore(g) <= bestGain {
					continue // even g's best arc would not make it pay
				}
				// g leaving every row of its place must cover the excess.
				if !e.covers(g) {
					continue
				}
				alts = alts[:0]
				if !p.Must[g] {
					alts = append(alts, alt{-1, 0})
				}
				if aPl >= 0 {
					if c := e.ArcAt(g, aPl); c >= 0 {
						alts = append(alts, alt{c, p.ArcScore[c]})
					}
				}
				for _, c := range arcs(g) {
					if pl := p.ArcPlace[c]; pl != bPl && pl != aPl {
						alts = append(alts, alt{c, p.ArcScore[c]})
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
				e.Set(bg, bc)
			}
			e.Set(f, bb)
			total += bestGain
		}
	}
	return total
}

// bestScore is the best score of f's arcs (cached), 0 at least when f need not be
// placed.
func (e *primal) bestScore(f int) float64 {
	if e.Best == nil {
		p := e.P
		e.Best = make([]float64, p.N)
		for g := range p.N {
			b := math.Inf(-1)
			if !p.Must[g] {
				b = 0
			}
			for a := p.FamStart[g]; a < p.FamStart[g+1]; a++ {
				b = max(b, p.ArcScore[a])
			}
			e.Best[g] = b
		}
	}
	return e.Best[f]
}

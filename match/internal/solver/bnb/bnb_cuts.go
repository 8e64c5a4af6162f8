package bnb

import (
	"math"

	"solidarity/match/internal/solver"
)

// Gomory mixed-integer cuts at the root. In this formulation every column is
// integer in an integer solution — arcs are 0/1, a family slack counts its
// placements, a capacity slack sums integer needs — except the slacks of cuts
// themselves, so a fractional basic column's tableau row gives a GMI cut directly.
// Written over the nonbasic columns, the cut is rewritten over the arcs alone (each
// slack replaced by its row) and appended as a coupling row lo ≤ Σ γ·x. The root
// bound of HIAS model A drops from 180.847 to 180.796 with 60 cuts (optimum
// 180.763), but the cuts are dense rows over all arcs and each node's LP then costs
// so much more that the search as a whole is slower; so they are off (maxCutRows)
// until they are made sparse (e.g. lifted covers on single places) or purged.

const (
	cutRounds   = 12
	cutsPerRnd  = 20
	maxCutRows  = 0 // off: see the note above
	cutMinFrac  = 0.01
	cutMinViol  = 1e-6
	cutMaxRange = 1e7
)

// isInteger says whether column j takes integer values in integer solutions.
func (l *lp) isInteger(j int) bool {
	return j < l.nA+l.nF+l.p.K0
}

// gmi derives the cut from the tableau row of basic column r: coefficients over
// arcs into gamma and the right-hand side. ok is false when the cut is unusable.
func (l *lp) gmi(r int, gamma []float64, tF, tC []float64) (rhs float64, ok bool) {
	xr := l.x[r]
	f0 := xr - math.Floor(xr)
	if f0 < cutMinFrac || f0 > 1-cutMinFrac {
		return 0, false
	}
	l.pivotRow(r, nil)
	clear(gamma)
	clear(tF)
	clear(tC)
	rhs = 1
	// x_r + Σ α_j x_j = 0 over nonbasic j; with y_j = x_j − lo_j (at lower) or
	// up_j − x_j (at upper) the row is x_r + Σ a_j y_j = x_r*, a_j = ±α_j.
	for j := range l.nCo {
		st := l.stat[j]
		if st >= basicKey || l.lo[j] == l.up[j] {
			continue
		}
		a := l.alpha[j]
		if a == 0 {
			continue
		}
		sign := 1.0
		if st == atUpper {
			a, sign = -a, -1
		}
		var g float64
		if l.isInteger(j) {
			fj := a - math.Floor(a)
			if fj <= f0 {
				g = fj / f0
			} else {
				g = (1 - fj) / (1 - f0)
			}
		} else if a >= 0 {
			g = a / f0
		} else {
			g = -a / (1 - f0)
		}
		if g == 0 {
			continue
		}
		// Σ g·y ≥ 1 with y = sign·(x − bound).
		if st == atLower {
			rhs += g * l.lo[j]
		} else {
			rhs -= g * l.up[j]
		}
		c := sign * g
		switch {
		case j < l.nA:
			gamma[j] += c
		case j < l.nA+l.nF:
			tF[j-l.nA] += c
		default:
			tC[j-l.nA-l.nF] += c
		}
	}
	// Replace each slack by its row: t_f = Σ_p x[f,p], t_k = Σ c_kj x_j.
	p := l.p
	for j := range l.nA {
		v := gamma[j] + tF[p.ArcFam[j]]
		for e := p.CStart[j]; e < p.CStart[j+1]; e++ {
			v += tC[p.CRow[e]] * p.CVal[e]
		}
		gamma[j] = v
	}
	// Clean: a tiny positive coefficient is dropped by lowering the right-hand side
	// by it (x ≤ 1), a tiny negative one just dropped; both keep the cut valid.
	big, small := 0.0, math.Inf(1)
	act := 0.0
	for j, v := range gamma {
		if math.Abs(v) < 1e-9 {
			if v > 0 {
				rhs -= v
			}
			gamma[j] = 0
			continue
		}
		big = max(big, math.Abs(v))
		small = min(small, math.Abs(v))
		act += v * l.x[j]
	}
	if big == 0 || big/small > cutMaxRange {
		return 0, false
	}
	rhs -= 1e-9 * (1 + math.Abs(rhs))
	if act > rhs-cutMinViol*(1+big) {
		return 0, false // not violated enough
	}
	return rhs, true
}

// addCuts appends rows Σ γ_c·x ≥ rhs_c to p: each arc's coupling part gets the
// nonzero coefficients after its model rows.
func addCuts(p *solver.Prob, gammas [][]float64, rhs []float64) {
	nA := len(p.ArcPlace)
	for c, g := range gammas {
		hi := 0.0
		for _, v := range g {
			hi += max(v, 0)
		}
		p.RowKind = append(p.RowKind, solver.RowCut)
		p.RowRef = append(p.RowRef, int32(c))
		p.RowDim = append(p.RowDim, -1)
		p.RowLo = append(p.RowLo, rhs[c])
		p.RowHi = append(p.RowHi, max(hi, rhs[c]))
	}
	k0 := int32(p.K)
	p.K = len(p.RowKind)
	start := make([]int32, nA+1)
	var rows []int32
	var vals []float64
	for j := range nA {
		for e := p.CStart[j]; e < p.CStart[j+1]; e++ {
			rows = append(rows, p.CRow[e])
			vals = append(vals, p.CVal[e])
		}
		for c, g := range gammas {
			if g[j] != 0 {
				rows = append(rows, k0+int32(c))
				vals = append(vals, g[j])
			}
		}
		start[j+1] = int32(len(rows))
	}
	p.CStart, p.CRow, p.CVal = start, rows, vals
}

// rootCuts runs rounds of GMI cuts on the root LP and returns the LP re-solved with
// them (the old one is discarded), or l unchanged when nothing was found.
func (b *bnb) rootCuts(l *lp) (*lp, bool) {
	p := b.p
	for range cutRounds {
		if p.K-p.K0 >= maxCutRows || b.ctx.Err() != nil {
			break
		}
		z0 := -l.objective()
		tF := make([]float64, l.nF)
		tC := make([]float64, l.K)
		var gammas [][]float64
		var rhs []float64
		// Candidates: fractional basic columns, most fractional first.
		type cand struct {
			j    int
			frac float64
		}
		var cs []cand
		consider := func(j int) {
			if !l.isInteger(j) {
				return
			}
			f := l.x[j] - math.Floor(l.x[j])
			if d := min(f, 1-f); d >= cutMinFrac {
				cs = append(cs, cand{j, d})
			}
		}
		for _, j := range l.key {
			consider(int(j))
		}
		for _, j := range l.nk {
			consider(int(j))
		}
		// Most fractional first, ties by column: deterministic.
		for i := 1; i < len(cs); i++ {
			for k := i; k > 0 && (cs[k].frac > cs[k-1].frac || cs[k].frac == cs[k-1].frac && cs[k].j < cs[k-1].j); k-- {
				cs[k], cs[k-1] = cs[k-1], cs[k]
			}
		}
		for _, c := range cs {
			if len(gammas) >= cutsPerRnd || p.K-p.K0+len(gammas) >= maxCutRows {
				break
			}
			g := make([]float64, l.nA)
			if r, ok := l.gmi(c.j, g, tF, tC); ok {
				gammas = append(gammas, g)
				rhs = append(rhs, r)
			}
		}
		if len(gammas) == 0 {
			break
		}
		addCuts(p, gammas, rhs)
		nl := l.extend(p)
		if nl.solve(math.Inf(1), 1<<30) != lpOptimal {
			// Valid cuts cannot make a feasible LP infeasible.
			return nil, false
		}
		l = nl
		if z0-(-l.objective()) < 1e-6*math.Max(1, math.Abs(z0)) {
			break
		}
	}
	return l, true
}

// extend returns an LP for p, which is l's problem with rows appended, warm-started
// from l's basis with the new rows' slacks basic: the duals do not change, so the
// basis stays dual feasible and only the new rows can be violated.
func (l *lp) extend(p *solver.Prob) *lp {
	nl := newLP(p)
	nl.iters = l.iters
	nA, nF := l.nA, l.nF
	copy(nl.key, l.key)
	for j := range nl.pos {
		nl.pos[j] = -1
	}
	copy(nl.stat[:nA+nF+l.K], l.stat)
	copy(nl.nk, l.nk)
	for i, j := range l.nk {
		nl.pos[j] = int32(i)
	}
	for k := l.K; k < nl.K; k++ {
		j := nA + nF + k
		nl.nk[k] = int32(j)
		nl.pos[j] = int32(k)
		nl.stat[j] = basicNonkey
	}
	copy(nl.x[:nA+nF+l.K], l.x)
	nl.refactor()
	nl.computeDuals()
	nl.placeNonbasic()
	nl.computePrimal()
	return nl
}

package bnb

import (
	"math"

	"solidarity/match/internal/solver"
)

// lp is the LP relaxation of a Prob, solved by a bounded-variable dual simplex.
//
// Every row is written "Σ a·x − t = 0" with a slack column t bounded by the row's
// limits, so all columns are boxed and any basis becomes dual feasible by putting
// each nonbasic column at the bound its reduced cost asks for: branching (which only
// changes bounds) never needs a phase 1, and each node warm-starts from the last
// basis. Columns are numbered: arcs 0..nA-1, then one slack per family (its row is
// Σ_p x[f,p] − t_f = 0 with t_f ∈ [0,1], or [1,1] when the family must be placed),
// then one slack per coupling row (t_k ∈ [lo_k, hi_k]).
//
// The basis is held in GUB form. Each family row has at least one basic column of
// its own (else the basis would be singular); one of them is the family's key. With
// the keys eliminated, what is left to invert is the K×K working matrix W of the
// coupling rows, whose column for a nonkey j of family g is
//
//	w_j = c_j − σ_g·a_j·c_key(g)
//
// (c = coupling-row part of a column, a = its coefficient ±1 in its family row,
// σ_g = a_key(g)). W⁻¹ is kept dense and updated in product form; a change of key
// that touches other columns rebuilds it (cheap at K ≤ a few hundred).
type lp struct {
	p              *solver.Prob
	nA, nF, K, nCo int

	cost   []float64 // minimised: −score on arcs, 0 on slacks
	lo, up []float64
	x, d   []float64 // values and reduced costs of all columns
	stat   []int8

	// Basis.
	key  []int32   // per family: its key column
	nk   []int32   // per working position: the nonkey column
	pos  []int32   // per column: working position, or -1
	winv []float64 // K×K, row-major

	nUpd int // product-form updates since the last rebuild
	// stale counts the iterations since x and d were last computed from scratch
	// (refresh), which solve does at most every 64. nUpd cannot stand for it: a
	// change of key rebuilds W⁻¹ and resets nUpd, so in a run of such pivots (most
	// pivots of these models) d was updated incrementally for ever and its rounding
	// errors could grow without bound. The dual objective is a bound only while d
	// is right: after a harmless change to the search had moved its pivots, errors
	// of up to 50 in d made node LPs claim cut-offs 7 to 15 below their true bound,
	// and two cbc cross-check models got wrong "optima" (TestLPDualsRefreshed).
	stale int
	iters int // total simplex iterations
	// stop, when set, ends a solve early (lpLimit) once it returns true: the
	// root LP under a time limit, checked every 8 iterations.
	stop func() bool

	// Scratch.
	piF, piC []float64
	alpha    []float64
	yC, yK   []float64
	acc      []float64
	touched  []int32
	inTouch  []bool
	w        []float64
	rF, rC   []float64
	rowOf    []int
	// ray is the leaving column when the last solve proved infeasibility.
	ray int
	// frozen marks the columns fixed for good (set by the search: arcs fixed for
	// the whole tree by reduced costs or the knapsack Lagrangian, most of them in
	// the end). They can never enter and their reduced costs are never read again,
	// so solve leaves them out of pivot rows, ratio tests and reduced-cost updates:
	// act lists the others during a solve.
	frozen []bool
	act    []int32
}

const (
	atLower int8 = iota
	atUpper
	basicKey
	basicNonkey
)

const (
	tolPrimal = 1e-9
	tolDual   = 1e-10
	tolPivot  = 1e-7
)

func newLP(p *solver.Prob) *lp {
	nA, nF, K := len(p.ArcPlace), p.N, p.K
	N := nA + nF + K
	l := &lp{p: p, nA: nA, nF: nF, K: K, nCo: N,
		cost: make([]float64, N), lo: make([]float64, N), up: make([]float64, N),
		x: make([]float64, N), d: make([]float64, N), stat: make([]int8, N),
		key: make([]int32, nF), nk: make([]int32, K), pos: make([]int32, N),
		winv: make([]float64, K*K),
		piF:  make([]float64, nF), piC: make([]float64, K), alpha: make([]float64, N),
		yC: make([]float64, K), yK: make([]float64, nF), acc: make([]float64, nF),
		inTouch: make([]bool, nF), w: make([]float64, K*K),
		rF: make([]float64, nF), rC: make([]float64, K), rowOf: make([]int, K), ray: -1}
	for j := range nA {
		l.cost[j] = -p.ArcScore[j]
		l.up[j] = 1
	}
	for f := range nF {
		j := nA + f
		l.up[j] = 1
		if p.Must[f] {
			l.lo[j] = 1
		}
	}
	for k := range K {
		j := nA + nF + k
		l.lo[j], l.up[j] = p.RowLo[k], p.RowHi[k]
	}
	l.crash()
	return l
}

// fam is the family whose row column j is in, or -1 for a coupling slack.
func (l *lp) fam(j int) int {
	switch {
	case j < l.nA:
		return int(l.p.ArcFam[j])
	case j < l.nA+l.nF:
		return j - l.nA
	}
	return -1
}

// aF is column j's coefficient in its family row.
func (l *lp) aF(j int) float64 {
	switch {
	case j < l.nA:
		return 1
	case j < l.nA+l.nF:
		return -1
	}
	return 0
}

// dotC is π_C · c_j.
func (l *lp) dotC(j int, pi []float64) float64 {
	if j < l.nA {
		s := 0.0
		for e := l.p.CStart[j]; e < l.p.CStart[j+1]; e++ {
			s += pi[l.p.CRow[e]] * l.p.CVal[e]
		}
		return s
	}
	if j >= l.nA+l.nF {
		return -pi[j-l.nA-l.nF]
	}
	return 0
}

// addC adds s·c_j to v.
func (l *lp) addC(v []float64, j int, s float64) {
	if j < l.nA {
		for e := l.p.CStart[j]; e < l.p.CStart[j+1]; e++ {
			v[l.p.CRow[e]] += s * l.p.CVal[e]
		}
	} else if j >= l.nA+l.nF {
		v[j-l.nA-l.nF] -= s
	}
}

// crash starts from the Lagrangian solution at zero prices: each family's key is its
// best arc (or its slack), the coupling slacks are the nonkeys. That basis is dual
// feasible and meets every family row; only capacities may be broken.
func (l *lp) crash() {
	p := l.p
	for j := range l.pos {
		l.pos[j] = -1
	}
	for f := range l.nF {
		best := l.nA + f
		for j := p.FamStart[f]; j < p.FamStart[f+1]; j++ {
			if best == l.nA+f || l.cost[j] < l.cost[best] {
				best = int(j)
			}
		}
		if best < l.nA && l.cost[best] > 0 && !p.Must[f] {
			best = l.nA + f // a family that loses value stays out
		}
		l.key[f] = int32(best)
	}
	for k := range l.K {
		j := l.nA + l.nF + k
		l.nk[k] = int32(j)
		l.pos[j] = int32(k)
	}
	for j := range l.stat {
		l.stat[j] = atLower
	}
	for f := range l.nF {
		l.stat[l.key[f]] = basicKey
	}
	for _, j := range l.nk {
		l.stat[j] = basicNonkey
	}
	l.refactor()
	l.computeDuals()
	l.placeNonbasic()
	l.computePrimal()
}

// placeNonbasic puts every nonbasic column at the bound its reduced cost asks for.
func (l *lp) placeNonbasic() {
	for j := range l.nCo {
		switch l.stat[j] {
		case atLower, atUpper:
			if l.d[j] < 0 && l.up[j] > l.lo[j] {
				l.stat[j] = atUpper
			} else if l.d[j] > 0 || l.up[j] == l.lo[j] {
				l.stat[j] = atLower
			}
			if l.stat[j] == atUpper {
				l.x[j] = l.up[j]
			} else {
				l.x[j] = l.lo[j]
			}
		}
	}
}

// computePrimal sets the basic values from the nonbasic ones (all rows are "= 0").
func (l *lp) computePrimal() {
	rF, rC := l.rF, l.rC
	clear(rF)
	clear(rC)
	for j := range l.nCo {
		if l.stat[j] >= basicKey || l.x[j] == 0 {
			continue
		}
		if g := l.fam(j); g >= 0 {
			rF[g] -= l.aF(j) * l.x[j]
		}
		l.addC(rC, j, -l.x[j])
	}
	l.solveB(rF, rC)
	for i, j := range l.nk {
		l.x[j] = l.yC[i]
	}
	for f, j := range l.key {
		l.x[j] = l.yK[f]
	}
}

// computeDuals sets π and the reduced costs of all columns.
func (l *lp) computeDuals() {
	K := l.K
	// dvec_i = cost(nk_i) − σ_g a(nk_i) cost(key g); π_C = W⁻ᵀ dvec.
	piC := l.piC
	clear(piC)
	for i, jj := range l.nk {
		j := int(jj)
		dv := l.cost[j]
		if g := l.fam(j); g >= 0 {
			kj := int(l.key[g])
			dv -= l.aF(kj) * l.aF(j) * l.cost[kj]
		}
		if dv == 0 {
			continue
		}
		row := l.winv[i*K : (i+1)*K]
		for k := range K {
			piC[k] += dv * row[k]
		}
	}
	for f := range l.nF {
		kj := int(l.key[f])
		l.piF[f] = l.aF(kj) * (l.cost[kj] - l.dotC(kj, piC))
	}
	for j := range l.nCo {
		if l.stat[j] >= basicKey {
			l.d[j] = 0
			continue
		}
		dj := l.cost[j] - l.dotC(j, piC)
		if g := l.fam(j); g >= 0 {
			dj -= l.piF[g] * l.aF(j)
		}
		l.d[j] = dj
	}
}

// objective is Σ cost·x (minimised), which during the dual simplex is the dual
// objective and so a lower bound at the node.
func (l *lp) objective() float64 {
	s := 0.0
	for j := range l.nA {
		if l.x[j] != 0 {
			s += l.cost[j] * l.x[j]
		}
	}
	return s
}

// pivotRow computes row r of B⁻¹A into alpha for the nonbasic columns among cols
// (nil: all), r being the basic column leaving.
func (l *lp) pivotRow(r int, cols []int32) {
	K := l.K
	piC := l.piC
	clear(piC)
	g := -1
	if i := int(l.pos[r]); i >= 0 {
		copy(piC, l.winv[i*K:(i+1)*K])
	} else {
		g = l.fam(r)
		sg := l.aF(r)
		for i, jj := range l.nk {
			j := int(jj)
			if l.fam(j) != g {
				continue
			}
			dv := -sg * l.aF(j)
			row := l.winv[i*K : (i+1)*K]
			for k := range K {
				piC[k] += dv * row[k]
			}
		}
	}
	for f := range l.nF {
		kj := int(l.key[f])
		e := 0.0
		if f == g {
			e = 1
		}
		l.piF[f] = l.aF(kj) * (e - l.dotC(kj, piC))
	}
	row := func(j int) {
		if l.stat[j] >= basicKey {
			l.alpha[j] = 0
			return
		}
		a := l.dotC(j, piC)
		if f := l.fam(j); f >= 0 {
			a += l.piF[f] * l.aF(j)
		}
		l.alpha[j] = a
	}
	if cols == nil {
		for j := range l.nCo {
			row(j)
		}
		return
	}
	for _, j := range cols {
		row(int(j))
	}
}

// ftran solves B·y = a_q: nonkey part in yC, key part in yK for the families listed
// in touched (others are zero).
func (l *lp) ftran(q int) {
	K := l.K
	for _, f := range l.touched {
		l.yK[f] = 0
		l.acc[f] = 0
		l.inTouch[f] = false
	}
	l.touched = l.touched[:0]
	v := l.rC
	clear(v)
	l.addC(v, q, 1)
	g := l.fam(q)
	if g >= 0 {
		kj := int(l.key[g])
		l.addC(v, kj, -l.aF(kj)*l.aF(q))
	}
	clear(l.yC)
	for k, vk := range v {
		if vk == 0 {
			continue
		}
		for i := range K {
			l.yC[i] += l.winv[i*K+k] * vk
		}
	}
	touch := func(f int) {
		if !l.inTouch[f] {
			l.inTouch[f] = true
			l.touched = append(l.touched, int32(f))
		}
	}
	if g >= 0 {
		touch(g)
		l.acc[g] += l.aF(q)
	}
	for i, jj := range l.nk {
		if l.yC[i] == 0 {
			continue
		}
		j := int(jj)
		if f := l.fam(j); f >= 0 {
			touch(f)
			l.acc[f] -= l.aF(j) * l.yC[i]
		}
	}
	for _, f := range l.touched {
		l.yK[f] = l.aF(int(l.key[f])) * l.acc[f]
	}
}

// yOf is the ftran component of basic column j.
func (l *lp) yOf(j int) float64 {
	if i := l.pos[j]; i >= 0 {
		return l.yC[i]
	}
	f := l.fam(j)
	if l.inTouch[f] {
		return l.yK[f]
	}
	return 0
}

type lpResult int

const (
	lpOptimal lpResult = iota
	lpInfeasible
	lpCutoff // the bound reached the cutoff: nothing better below
	lpLimit  // iteration limit
)

// solve runs the dual simplex from the current (dual feasible) basis until the
// basis is primal feasible, proven infeasible, or its objective reaches cutoff.
func (l *lp) solve(cutoff float64, maxIter int) lpResult {
	l.ray = -1
	l.act = l.act[:0]
	for j := range l.nCo {
		if l.frozen == nil || !l.frozen[j] {
			l.act = append(l.act, int32(j))
		}
	}
	for it := 0; ; it++ {
		if it >= maxIter {
			return lpLimit
		}
		if l.nUpd >= 64 || l.stale >= 64 {
			l.refresh()
		}
		if it&7 == 0 && l.objective() >= cutoff {
			return lpCutoff
		}
		if it&7 == 0 && l.stop != nil && l.stop() {
			return lpLimit
		}
		// Leaving: the basic column furthest outside its bounds.
		r, delta, worst := -1, 0.0, tolPrimal
		check := func(j int) {
			if v := l.lo[j] - l.x[j]; v > worst {
				r, delta, worst = j, l.x[j]-l.lo[j], v
			} else if v := l.x[j] - l.up[j]; v > worst {
				r, delta, worst = j, l.x[j]-l.up[j], v
			}
		}
		for _, j := range l.key {
			check(int(j))
		}
		for _, j := range l.nk {
			check(int(j))
		}
		if r < 0 {
			if l.objective() >= cutoff {
				return lpCutoff
			}
			return lpOptimal
		}
		l.pivotRow(r, l.act)
		// Ratio test (Harris, two passes): the entering column keeps all reduced
		// costs of the right sign; among near-ties the largest |α| for stability.
		// δ < 0: the leaving column rises to its lower bound, so columns at lower
		// with α < 0 or at upper with α > 0 may enter; δ > 0: the opposite.
		tmax := math.Inf(1)
		for _, jj := range l.act {
			j := int(jj)
			a := l.alpha[j]
			if math.Abs(a) < tolPivot || !l.eligible(j, a, delta) {
				continue
			}
			if t := (math.Abs(l.d[j]) + tolDual) / math.Abs(a); t < tmax {
				tmax = t
			}
		}
		if math.IsInf(tmax, 1) {
			l.ray = r
			return lpInfeasible
		}
		q, bestA := -1, 0.0
		for _, jj := range l.act {
			j := int(jj)
			a := l.alpha[j]
			if math.Abs(a) < tolPivot || !l.eligible(j, a, delta) {
				continue
			}
			if math.Abs(l.d[j])/math.Abs(a) <= tmax && math.Abs(a) > bestA {
				q, bestA = j, math.Abs(a)
			}
		}
		l.ftran(q)
		aq := l.yOf(r)
		if math.Abs(aq-l.alpha[q]) > 1e-7*(1+math.Abs(aq)) && l.nUpd > 0 {
			// The update has drifted: rebuild and try again.
			l.nUpd = 64
			continue
		}
		thetaD := l.d[q] / l.alpha[q]
		for _, jj := range l.act {
			if j := int(jj); l.alpha[j] != 0 && l.stat[j] < basicKey {
				l.d[j] -= thetaD * l.alpha[j]
			}
		}
		thetaP := delta / aq
		for i, j := range l.nk {
			if l.yC[i] != 0 {
				l.x[j] -= thetaP * l.yC[i]
			}
		}
		for _, f := range l.touched {
			l.x[l.key[f]] -= thetaP * l.yK[f]
		}
		l.x[q] += thetaP
		if delta < 0 {
			l.x[r], l.stat[r] = l.lo[r], atLower
		} else {
			l.x[r], l.stat[r] = l.up[r], atUpper
		}
		l.d[q] = 0
		l.d[r] = -thetaD
		l.exchange(q, r, aq)
		l.iters++
		l.stale++
	}
}

// refresh rebuilds W⁻¹ and computes x and d from scratch.
func (l *lp) refresh() {
	l.refactor()
	l.computePrimal()
	l.computeDuals()
	l.fixDuals()
	l.stale = 0
}

// eligible says whether nonbasic column j may enter for a leaving move of sign delta.
func (l *lp) eligible(j int, a, delta float64) bool {
	st := l.stat[j]
	if st >= basicKey || l.lo[j] == l.up[j] {
		return false
	}
	if delta < 0 {
		return (st == atLower && a < 0) || (st == atUpper && a > 0)
	}
	return (st == atLower && a > 0) || (st == atUpper && a < 0)
}

// fixDuals moves nonbasic columns whose reduced cost has drifted to the wrong sign to
// the other bound (every column is boxed), then recomputes the basic values.
func (l *lp) fixDuals() {
	moved := false
	for j := range l.nCo {
		switch l.stat[j] {
		case atLower:
			if l.d[j] < -tolDual && l.up[j] > l.lo[j] {
				l.stat[j], l.x[j] = atUpper, l.up[j]
				moved = true
			}
		case atUpper:
			if l.d[j] > tolDual && l.up[j] > l.lo[j] {
				l.stat[j], l.x[j] = atLower, l.lo[j]
				moved = true
			}
		}
	}
	if moved {
		l.computePrimal()
	}
}

// exchange makes q basic in place of r; yC, yK hold the ftran of q and aq its pivot.
func (l *lp) exchange(q, r int, aq float64) {
	K := l.K
	if i := int(l.pos[r]); i >= 0 {
		// A nonkey leaves: column i of W becomes w_q = W·yC; product-form update.
		row := l.winv[i*K : (i+1)*K]
		s := 1 / aq
		for k := range K {
			row[k] *= s
		}
		for t := range K {
			if t == i || l.yC[t] == 0 {
				continue
			}
			f := l.yC[t]
			rt := l.winv[t*K : (t+1)*K]
			for k := range K {
				rt[k] -= f * row[k]
			}
		}
		l.nk[i] = int32(q)
		l.pos[q] = int32(i)
		l.pos[r] = -1
		l.stat[q] = basicNonkey
		l.nUpd++
		return
	}
	// The key of family g leaves.
	g := l.fam(r)
	other := -1
	for i, jj := range l.nk {
		if l.fam(int(jj)) == g {
			other = i
			break
		}
	}
	if other < 0 {
		// No other basic column in the family: q (necessarily of this family) is the
		// new key and W does not change.
		l.key[g] = int32(q)
		l.stat[q] = basicKey
		return
	}
	// A nonkey of the family becomes the key and q takes its working position; the
	// columns of W that depend on the key change, so rebuild.
	j0 := int(l.nk[other])
	l.key[g] = int32(j0)
	l.stat[j0] = basicKey
	l.pos[j0] = -1
	l.nk[other] = int32(q)
	l.pos[q] = int32(other)
	l.stat[q] = basicNonkey
	l.refactor()
}

// lpState is a copy of the basis and values, to come back to after strong branching.
type lpState struct {
	stat         []int8
	key, nk, pos []int32
	winv, x, d   []float64
	nUpd, stale  int
}

func (l *lp) saveTo(s *lpState) {
	s.stat = append(s.stat[:0], l.stat...)
	s.key = append(s.key[:0], l.key...)
	s.nk = append(s.nk[:0], l.nk...)
	s.pos = append(s.pos[:0], l.pos...)
	s.winv = append(s.winv[:0], l.winv...)
	s.x = append(s.x[:0], l.x...)
	s.d = append(s.d[:0], l.d...)
	s.nUpd, s.stale = l.nUpd, l.stale
}

func (l *lp) restore(s *lpState) {
	copy(l.stat, s.stat)
	copy(l.key, s.key)
	copy(l.nk, s.nk)
	copy(l.pos, s.pos)
	copy(l.winv, s.winv)
	copy(l.x, s.x)
	copy(l.d, s.d)
	l.nUpd, l.stale = s.nUpd, s.stale
}

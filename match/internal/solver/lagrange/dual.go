package lagrange

import (
	"cmp"
	"math"
	"runtime"
	"slices"
	"sync"

	"solidarity/match/internal/lbfgs"
	"solidarity/match/internal/solver"
)

// dual is the Lagrangian dual of the coupling rows for the models with many of
// them (EU scale). At multipliers λ ≥ 0 (a price per row) each family takes its arc
// of best reduced score (score minus the priced needs), or none, and
//
//	L(λ) = Σ_f max(0, best reduced score of f) + Σ_caps λ·cap − Σ_mins λ·min
//
// is a proven bound (full). L is piecewise linear, and subgradient steps on it
// converge slowly; it is minimised instead through its entropy smoothing
//
//	L_τ(λ) = Σ_f τ·log(Σ_a exp(r_a/τ) + 1) + …   (the 1: staying out, if allowed)
//
// which is smooth, within τ·log(arcs+1) per family of L, and whose gradient is the
// bound less the expected row use when each family spreads over its arcs in
// proportion to exp(r/τ). A projected L-BFGS minimises L_τ over λ ≥ 0, τ decreasing
// level by level (continuation); each level works on the candidate arcs (those
// within a margin of their family's best at the last full pass), and each full pass
// over every arc gives the proven bound at the current λ and the next candidates.
//
// Evaluations split the families over the cores in fixed ranges, and per-worker
// sums are added in a fixed order, so results do not depend on scheduling.
type dual struct {
	p       *solver.Prob
	D, D1   int
	workers int

	lam       []float64 // per row
	sign      []float64 // +1 capacity, −1 minimum
	rowPlaces [][]int32
	rowD      []int32   // the row's price column: its dimension, D for persons
	pi        []float64 // per place × D1: summed signed multipliers

	red  []float64 // per arc: reduced score at the last full pass
	best []int32   // per family: its best arc at the last full pass, -1 out

	// Candidate arcs (CSR by family).
	cStart []int32
	cArc   []int32
	wCand  [][]int32 // per worker scratch
	wCnt   []int32   // per family: candidates kept

	// Row bounds the smoothing works with (the model's, or residual ones in a dive)
	// and the families it spreads (nil: all).
	hi, lo []float64
	act    []int32

	allCand bool // the candidates are every arc (CStart, cArc unused)
	mxArcs  int

	keepMemory bool        // L-BFGS memory kept from one smoothOpt to the next
	stop       func() bool // when it returns true, work in progress ends early (a time limit)
	lastTau    float64

	wLoad [][]float64 // per worker: expected load and its variance per place × D1
	wBuf  [][]float64 // per worker scratch
	curv  []float64   // per row: L_τ's curvature (Hessian diagonal) at the last evaluation
	bf    *lbfgs.Memory
	g     []float64
	h     []float64
}

func newDual(p *solver.Prob) *dual {
	m := p.M
	np := len(m.Places)
	workers := min(runtime.GOMAXPROCS(0), 8)
	if p.N < 2000 {
		workers = 1
	}
	u := &dual{p: p, D: p.D, D1: p.D + 1, workers: workers,
		lam: make([]float64, p.K0), sign: make([]float64, p.K0), rowPlaces: make([][]int32, p.K0),
		rowD: make([]int32, p.K0), pi: make([]float64, np*(p.D+1)),
		red: make([]float64, len(p.ArcPlace)), best: make([]int32, p.N),
		cStart: make([]int32, p.N+1), wCand: make([][]int32, workers), wCnt: make([]int32, p.N),
		wLoad: make([][]float64, workers), wBuf: make([][]float64, workers), curv: make([]float64, p.K0),
		hi: p.RowHi[:p.K0], lo: p.RowLo[:p.K0],
		bf: lbfgs.New(p.K0, 10), g: make([]float64, p.K0), h: make([]float64, p.K0)}
	for w := range u.wLoad {
		u.wLoad[w] = make([]float64, 2*len(u.pi))
	}
	for k := range p.K0 {
		u.sign[k] = 1
		if p.RowKind[k] == solver.RowMin {
			u.sign[k] = -1
		}
		pls := p.RowPlaces(k)
		u.rowPlaces[k] = make([]int32, len(pls))
		for i, pl := range pls {
			u.rowPlaces[k][i] = int32(pl)
		}
		u.rowD[k] = p.RowDim[k]
		if u.rowD[k] < 0 {
			u.rowD[k] = int32(p.D)
		}
	}
	return u
}

// redRange computes the reduced scores of family f's arcs a0..a1-1 into out, at
// the place prices pi: score − Σ_d need_d·π_d − persons·π_persons, in that order
// (arcRed computes the same).
func (u *dual) redRange(f int, a0, a1 int32, out []float64) {
	p := u.p
	places := p.ArcPlace[a0:a1]
	scores := p.ArcScore[a0:a1]
	out = out[:len(places)]
	size := p.Size[f]
	pi := u.pi
	if u.D == 3 {
		n0, n1, n2 := p.Need[f*3], p.Need[f*3+1], p.Need[f*3+2]
		for i, pl := range places {
			j := int(pl) * 4
			pr := pi[j : j+4 : j+4]
			out[i] = scores[i] - n0*pr[0] - n1*pr[1] - n2*pr[2] - size*pr[3]
		}
		return
	}
	D, D1 := u.D, u.D1
	need := p.Need[f*D : (f+1)*D]
	for i, pl := range places {
		j := int(pl) * D1
		pr := pi[j : j+D1 : j+D1]
		r := scores[i]
		for d, x := range need {
			r -= x * pr[d]
		}
		out[i] = r - size*pr[D]
	}
}

// arcRed is arc a's reduced score at the place prices pi (as redRange).
func (u *dual) arcRed(a int32) float64 {
	p := u.p
	f := int(p.ArcFam[a])
	j := int(p.ArcPlace[a]) * u.D1
	pr := u.pi[j : j+u.D1 : j+u.D1]
	if u.D == 3 {
		return p.ArcScore[a] - p.Need[f*3]*pr[0] - p.Need[f*3+1]*pr[1] - p.Need[f*3+2]*pr[2] - p.Size[f]*pr[3]
	}
	r := p.ArcScore[a]
	for d, x := range p.Need[f*u.D : (f+1)*u.D] {
		r -= x * pr[d]
	}
	return r - p.Size[f]*pr[u.D]
}

// setPi sets the place prices from lam.
func (u *dual) setPi(lam []float64) {
	clear(u.pi)
	for k, l := range lam {
		if l == 0 {
			continue
		}
		d := int(u.rowD[k])
		for _, pl := range u.rowPlaces[k] {
			u.pi[int(pl)*u.D1+d] += u.sign[k] * l
		}
	}
}

// rowTerm is Σ λ·cap − Σ λ·min, with the model's bounds (proven bounds) or the
// working ones (smoothing).
func (u *dual) rowTerm(lam []float64, model bool) float64 {
	p := u.p
	hi, lo := u.hi, u.lo
	if model {
		hi, lo = p.RowHi, p.RowLo
	}
	s := 0.0
	for k, l := range lam {
		if u.sign[k] > 0 {
			s += l * hi[k]
		} else {
			s -= l * lo[k]
		}
	}
	return s
}

// parallel runs fn over the families in fixed ranges, one per worker.
func (u *dual) parallel(fn func(w, lo, hi int)) { u.parallelN(u.p.N, fn) }

// parallelN runs fn over 0..n-1 in fixed ranges, one per worker.
func (u *dual) parallelN(n int, fn func(w, lo, hi int)) {
	if u.workers == 1 || n < 1000 {
		fn(0, 0, n)
		return
	}
	var wg sync.WaitGroup
	for w := range u.workers {
		lo, hi := n*w/u.workers, n*(w+1)/u.workers
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn(w, lo, hi)
		}()
	}
	wg.Wait()
}

// full is a pass over every arc at the current λ: the reduced scores (red), each
// family's best arc (best), and L(λ), the proven bound. With margin ≥ 0 it also
// picks the candidate arcs: those within margin of their family's best, and at
// least its minCand best (at most 8), at most maxCand of them, the best kept.
func (u *dual) full(margin float64, minCand, maxCand int) float64 {
	p := u.p
	u.setPi(u.lam)
	all := math.IsInf(margin, 1) && maxCand >= u.maxArcs()
	if all {
		margin = -1 // every arc: no lists
	}
	sums := make([]float64, u.workers)
	u.parallel(func(w, lo, hi int) {
		sums[w] = u.fullRange(w, lo, hi, margin, minCand, maxCand)
	})
	L := u.rowTerm(u.lam, true)
	for _, s := range sums {
		L += s
	}
	u.allCand = false
	if margin >= 0 {
		for f := range p.N {
			u.cStart[f+1] = u.cStart[f] + u.wCnt[f]
		}
		u.cArc = slices.Grow(u.cArc[:0], int(u.cStart[p.N]))
		for w := range u.workers {
			u.cArc = append(u.cArc, u.wCand[w]...)
		}
		u.allCand = len(u.cArc) == len(p.ArcPlace)
	}
	if all {
		u.allCand = true
		u.cArc = u.cArc[:0]
	}
	return L
}

// maxArcs is the largest number of arcs of a family.
func (u *dual) maxArcs() int {
	if u.mxArcs == 0 {
		p := u.p
		for f := range p.N {
			u.mxArcs = max(u.mxArcs, int(p.FamStart[f+1]-p.FamStart[f]))
		}
		u.mxArcs = max(u.mxArcs, 1)
	}
	return u.mxArcs
}

func (u *dual) fullRange(w, lo, hi int, margin float64, minCand, maxCand int) float64 {
	p := u.p
	sum := 0.0
	cand := u.wCand[w][:0]
	type ar struct {
		a int32
		r float64
	}
	var buf []ar
	for f := lo; f < hi; f++ {
		a0, a1 := p.FamStart[f], p.FamStart[f+1]
		u.redRange(f, a0, a1, u.red[a0:a1])
		best, m := int32(-1), 0.0
		for a := a0; a < a1; a++ {
			r := u.red[a]
			if (best < 0 && p.Must[f]) || r > m || (best < 0 && r > 0) {
				best, m = a, r
			}
		}
		if best >= 0 && !p.Must[f] && m <= 0 {
			best, m = -1, 0
		}
		u.best[f] = best
		if best >= 0 {
			sum += m
		}
		if margin < 0 {
			continue
		}
		cut := m - margin
		if minCand <= 0 {
			// margin alone
		} else if int(a1-a0) > minCand {
			// At least the minCand best: lower the cut to the minCand-th best.
			var top [8]float64
			k := min(minCand, len(top))
			for i := range k {
				top[i] = math.Inf(-1)
			}
			for a := a0; a < a1; a++ {
				r := u.red[a]
				if r <= top[k-1] {
					continue
				}
				i := k - 1
				for i > 0 && top[i-1] < r {
					top[i] = top[i-1]
					i--
				}
				top[i] = r
			}
			cut = min(cut, top[k-1])
		} else {
			cut = math.Inf(-1)
		}
		n0 := len(cand)
		for a := a0; a < a1; a++ {
			if u.red[a] >= cut {
				cand = append(cand, a)
			}
		}
		if len(cand)-n0 > maxCand {
			buf = buf[:0]
			for _, a := range cand[n0:] {
				buf = append(buf, ar{a, u.red[a]})
			}
			slices.SortFunc(buf, func(x, y ar) int {
				if c := cmp.Compare(y.r, x.r); c != 0 {
					return c
				}
				return cmp.Compare(x.a, y.a)
			})
			cand = cand[:n0]
			for _, x := range buf[:maxCand] {
				cand = append(cand, x.a)
			}
			slices.Sort(cand[n0:])
		}
		u.wCnt[f] = int32(len(cand) - n0)
	}
	u.wCand[w] = cand
	return sum
}

// smoothEval returns L_τ(lam) over the candidate arcs, its gradient in grad and its
// curvature in u.curv.
func (u *dual) smoothEval(lam []float64, tau float64, grad []float64) float64 {
	p := u.p
	D1 := u.D1
	u.setPi(lam)
	sums := make([]float64, u.workers)
	n := p.N
	if u.act != nil {
		n = len(u.act)
	}
	for w := range u.workers {
		clear(u.wLoad[w])
	}
	u.parallelN(n, func(w, lo, hi int) {
		sums[w] = u.smoothRange(w, lo, hi, tau)
	})
	L := u.rowTerm(lam, false)
	for _, s := range sums {
		L += s
	}
	load := u.wLoad[0]
	for w := 1; w < u.workers; w++ {
		for i, x := range u.wLoad[w] {
			load[i] += x
		}
	}
	off := len(u.pi)
	for k := range lam {
		d := int(u.rowD[k])
		act, cv := 0.0, 0.0
		for _, pl := range u.rowPlaces[k] {
			act += load[int(pl)*D1+d]
			cv += load[off+int(pl)*D1+d]
		}
		u.curv[k] = cv / tau
		if u.sign[k] > 0 {
			grad[k] = u.hi[k] - act
		} else {
			grad[k] = act - u.lo[k]
		}
	}
	return L
}

func (u *dual) smoothRange(w, lo, hi int, tau float64) float64 {
	p := u.p
	D, D1 := u.D, u.D1
	load := u.wLoad[w]
	off := len(u.pi)
	sum := 0.0
	for i := lo; i < hi; i++ {
		f := i
		if u.act != nil {
			f = int(u.act[i])
		}
		// The family's arcs: its candidates, or all of them (a contiguous range).
		var arcs []int32
		a0, n := p.FamStart[f], int(p.FamStart[f+1]-p.FamStart[f])
		if !u.allCand {
			arcs = u.cArc[u.cStart[f]:u.cStart[f+1]]
			n = len(arcs)
		}
		need := p.Need[f*D : (f+1)*D]
		size := p.Size[f]
		m := math.Inf(-1)
		if !p.Must[f] {
			m = 0
		}
		if cap(u.wBuf[w]) < n {
			u.wBuf[w] = make([]float64, n+64)
		}
		rs := u.wBuf[w][:n]
		if arcs == nil {
			u.redRange(f, a0, a0+int32(n), rs)
		} else {
			for i, a := range arcs {
				rs[i] = u.arcRed(a)
			}
		}
		for _, r := range rs {
			if r > m {
				m = r
			}
		}
		if math.IsInf(m, -1) {
			continue
		}
		z := 0.0
		inv := 1 / tau
		if !p.Must[f] {
			z = expNeg(-m * inv)
		}
		for i, r := range rs {
			x := (r - m) * inv
			if x < -30 {
				rs[i] = 0
				continue
			}
			rs[i] = expNeg(x)
			z += rs[i]
		}
		sum += m + tau*math.Log(z)
		for i, e := range rs {
			if e == 0 {
				continue
			}
			q := e / z
			a := a0 + int32(i)
			if arcs != nil {
				a = arcs[i]
			}
			pl := int(p.ArcPlace[a])
			ld := load[pl*D1 : pl*D1+D1]
			lv := load[off+pl*D1 : off+pl*D1+D1]
			v := q * (1 - q)
			for d, x := range need {
				ld[d] += q * x
				lv[d] += v * x * x
			}
			ld[D] += q * size
			lv[D] += v * size * size
		}
	}
	return sum
}

// smoothOpt runs up to iters projected L-BFGS iterations on L_τ from u.lam, which
// it updates. It returns the number of evaluations.
func (u *dual) smoothOpt(tau float64, iters int) int {
	b := u.bf
	if !u.keepMemory {
		b.Reset()
	} else if b.Len() > 0 && u.lastTau > 0 && u.lastTau != tau {
		// Curvature scales as 1/τ: rescale the stored gradient differences.
		b.Rescale(u.lastTau / tau)
	}
	u.lastTau = tau
	eval := func(x, grad []float64) float64 { return u.smoothEval(x, tau, grad) }
	precond := func(h []float64) {
		// Diagonal preconditioning by the curvature, floored by its mean so that
		// rows no family is near (zero curvature) do not get unbounded steps.
		mean := 0.0
		for _, c := range u.curv {
			mean += c
		}
		mean = mean/float64(len(u.curv)) + 1e-12
		for i, c := range u.curv {
			h[i] = 1 / (c + mean)
		}
	}
	return b.Minimize(eval, u.lam, u.g, u.h, iters, u.stop, precond)
}

// expNeg is exp(x) for x ≤ 0 (0 below −700), to about 1e-8 relative: 2^k·e^r with
// |r| ≤ ln2/2 and a degree-7 polynomial. Faster than math.Exp, and as deterministic.
func expNeg(x float64) float64 {
	if x < -700 {
		return 0
	}
	const log2e = 1.4426950408889634
	const ln2 = 0.6931471805599453
	k := math.Round(x * log2e)
	r := x - k*ln2
	y := 1 + r*(1+r*(1.0/2+r*(1.0/6+r*(1.0/24+r*(1.0/120+r*(1.0/720+r*(1.0/5040)))))))
	return y * math.Float64frombits(uint64(int64(k)+1023)<<52)
}

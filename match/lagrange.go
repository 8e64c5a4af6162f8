package match

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"sync"
)

// solveLagrange is the method for models with many coupling rows (EU scale: 1 040
// places × 3 dimensions plus state groups). The coupling rows are priced out with
// multipliers λ ≥ 0; at given prices each family independently takes its arc of
// best reduced score (score minus the priced needs), or none when that is not
// positive and it need not be placed. That gives
//
//	L(λ) = Σ_f best reduced score of f + Σ_caps λ·cap − Σ_mins λ·min  ≥ optimum,
//
// a proven bound for any λ. The prices are improved by projected subgradient steps
// (Polyak's step towards the incumbent's value, halved when the bound stalls). The
// primal side is a greedy placement by reduced score (the prices steer families
// away from contested places) followed by a local search on the true scores
// (heur.go). It stops when the gap is within Options.Gap, on the time limit, or
// when the step has become too small to move the bound.
func solveLagrange(ctx context.Context, p *prob, opts Options) (*Solution, error) {
	lg := newLagrange(p)
	var inc *packing
	offer := func(s *packing) {
		if s.feasible() && (inc == nil || s.value > inc.value+1e-12) {
			if inc == nil {
				inc = s.clone()
			} else {
				inc.copyFrom(s)
			}
		}
	}
	work := newPacking(p)
	if len(opts.Start) == p.n {
		// A previous solution: keep what still holds, fill, improve only on strict
		// gains, so that families move only where that pays.
		work.fromPlaces(opts.Start)
		work.greedy(orderByBest(p, func(a int32) float64 { return p.arcScore[a] }), lg.startRank(opts.Start, nil))
		work.improve(5)
		offer(work)
	}
	bound := math.Inf(1)
	theta := 0.25
	stall := 0
	iters := 0
	gapOK := func() bool {
		return inc != nil && !math.IsInf(bound, 1) && bound-inc.value <= opts.Gap*math.Max(1, math.Abs(bound))
	}
	for iters = 0; iters < maxLagrangeIters; iters++ {
		if ctx.Err() != nil && inc != nil {
			break // the first round always runs: a time limit still gets an answer
		}
		L := lg.evaluate()
		if math.IsInf(bound, 1) || L < bound-1e-9*math.Max(1, math.Abs(bound)) {
			bound = L
			stall = 0
		} else if stall++; stall >= 10 {
			theta /= 2
			stall = 0
		}
		// Primal: a greedy by reduced score every few iterations (each is a full pass).
		if iters%20 == 0 || iters < 3 {
			work.arc = work.arc[:p.n]
			for f := range p.n {
				work.set(f, -1)
			}
			work.greedy(lg.order(), lg.startRank(opts.Start, lg.red))
			work.improve(3)
			offer(work)
		}
		if gapOK() || theta < 1e-6 {
			break
		}
		target := bound - 0.001*math.Abs(bound)
		if inc != nil {
			target = inc.value
		}
		if !lg.step(L, target, theta) {
			break // every row satisfied with complementary prices: L is optimal
		}
	}
	if inc == nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("match: stopped (%v) before any feasible assignment was found", ctx.Err())
		}
		return nil, fmt.Errorf("match: no feasible assignment found in %d Lagrangian iterations (the model may be infeasible; it is too large for the exact method to prove it)", iters)
	}
	inc.improve(20)
	if math.IsInf(bound, 1) {
		// Stopped before the first evaluation: the bound of every family taking its
		// best arc alone.
		bound = 0
		for f := range p.n {
			b := 0.0
			for a := p.famStart[f]; a < p.famStart[f+1]; a++ {
				if sc := p.arcScore[a]; sc > b || (p.must[f] && a == p.famStart[f]) {
					b = sc
				}
			}
			bound += b
		}
	}
	s := &Solution{Status: Feasible, Place: inc.places(), Value: inc.value, Bound: math.Max(bound, inc.value), Iterations: iters}
	if gapOK() {
		s.Status = Optimal
	}
	return s, nil
}

const maxLagrangeIters = 800

type lagrange struct {
	p    *prob
	lam  []float64 // per row
	sign []float64 // +1 for a capacity, −1 for a minimum
	// rowPlaces[k] lists the places of row k; price[pl·(D+1)+d] is the summed signed
	// multiplier of place pl in dimension d (d = D: persons).
	rowPlaces [][]int
	price     []float64
	red       []float64 // reduced score per arc
	best      []int32   // per family: chosen arc at the current prices
	act, g    []float64
}

func newLagrange(p *prob) *lagrange {
	m := p.m
	lg := &lagrange{p: p, lam: make([]float64, p.K0), sign: make([]float64, p.K0),
		rowPlaces: make([][]int, p.K0), price: make([]float64, len(m.Places)*(p.D+1)),
		red: make([]float64, len(p.arcPlace)), best: make([]int32, p.n),
		act: make([]float64, p.K0), g: make([]float64, p.K0)}
	for k := range p.K0 {
		lg.sign[k] = 1
		switch p.rowKind[k] {
		case rowPlace:
			lg.rowPlaces[k] = []int{int(p.rowRef[k])}
		case rowGroup:
			lg.rowPlaces[k] = m.Groups[p.rowRef[k]].Places
		case rowMin:
			lg.rowPlaces[k] = m.Mins[p.rowRef[k]].Places
			lg.sign[k] = -1
		}
	}
	return lg
}

// evaluate computes, at the current prices, every arc's reduced score, each family's
// best arc, the row activities and L(λ).
func (lg *lagrange) evaluate() float64 {
	p := lg.p
	D1 := p.D + 1
	clear(lg.price)
	for k, l := range lg.lam {
		if l == 0 {
			continue
		}
		d := int(p.rowDim[k])
		if d < 0 {
			d = p.D
		}
		for _, pl := range lg.rowPlaces[k] {
			lg.price[pl*D1+d] += lg.sign[k] * l
		}
	}
	// The families are independent: split them over the cores in fixed ranges, so
	// the result does not depend on scheduling.
	workers := min(runtime.GOMAXPROCS(0), 8)
	if p.n < 2000 {
		workers = 1
	}
	sums := make([]float64, workers)
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := p.n*w/workers, p.n*(w+1)/workers
		wg.Add(1)
		go func() {
			defer wg.Done()
			sums[w] = lg.evalRange(lo, hi)
		}()
	}
	wg.Wait()
	L := 0.0
	for _, s := range sums {
		L += s
	}
	clear(lg.act)
	for _, a := range lg.best {
		if a < 0 {
			continue
		}
		for e := p.cStart[a]; e < p.cStart[a+1] && int(p.cRow[e]) < p.K0; e++ {
			lg.act[p.cRow[e]] += p.cVal[e]
		}
	}
	for k, l := range lg.lam {
		if lg.sign[k] > 0 {
			L += l * p.rowHi[k]
		} else {
			L -= l * p.rowLo[k]
		}
	}
	return L
}

func (lg *lagrange) evalRange(lo, hi int) float64 {
	p := lg.p
	D, D1 := p.D, p.D+1
	sum := 0.0
	for f := lo; f < hi; f++ {
		need := p.need[f*D : (f+1)*D]
		size := p.size[f]
		best, bestR := int32(-1), 0.0
		for a := p.famStart[f]; a < p.famStart[f+1]; a++ {
			pr := lg.price[int(p.arcPlace[a])*D1 : int(p.arcPlace[a])*D1+D1]
			r := p.arcScore[a] - size*pr[D]
			for d, n := range need {
				r -= n * pr[d]
			}
			lg.red[a] = r
			if (best < 0 && p.must[f]) || r > bestR || (best < 0 && r > 0) {
				best, bestR = a, r
			}
		}
		if best >= 0 && !p.must[f] && bestR <= 0 {
			best, bestR = -1, 0
		}
		lg.best[f] = best
		if best >= 0 {
			sum += bestR
		}
	}
	return sum
}

// step moves the prices along the projected subgradient with Polyak's step
// θ·(L − target)/‖g‖². It reports false when the subgradient is zero.
func (lg *lagrange) step(L, target, theta float64) bool {
	p := lg.p
	norm := 0.0
	for k, l := range lg.lam {
		var g float64
		if lg.sign[k] > 0 {
			g = p.rowHi[k] - lg.act[k]
		} else {
			g = lg.act[k] - p.rowLo[k]
		}
		if l == 0 && g > 0 {
			g = 0 // the projection keeps λ at zero
		}
		lg.g[k] = g
		norm += g * g
	}
	if norm == 0 {
		return false
	}
	t := theta * math.Max(L-target, 1e-9*math.Max(1, math.Abs(L))) / norm
	for k := range lg.lam {
		lg.lam[k] = math.Max(0, lg.lam[k]-t*lg.g[k])
	}
	return true
}

// order lists the families for the greedy: Must first, then by best reduced score.
func (lg *lagrange) order() []int32 {
	return orderByBest(lg.p, func(a int32) float64 { return lg.red[a] })
}

// startRank ranks arcs by reduced score (or true score when red is nil), with the
// previous assignment's arc winning ties.
func (lg *lagrange) startRank(start []int, red []float64) func(a int32) float64 {
	p := lg.p
	return func(a int32) float64 {
		r := p.arcScore[a]
		if red != nil {
			r = red[a]
		}
		if len(start) == p.n && start[p.arcFam[a]] == int(p.arcPlace[a]) {
			r += 1e-9
		}
		return r
	}
}

package bnb

import (
	"math"
	"math/rand/v2"
	"testing"

	"solidarity/match/internal/solver"
)

// freshDuals returns the reduced costs of l's current basis computed from scratch
// (W⁻¹ rebuilt), leaving l as it was.
func freshDuals(l *lp) []float64 {
	var s lpState
	l.saveTo(&s)
	piF, piC := append([]float64(nil), l.piF...), append([]float64(nil), l.piC...)
	l.refactor()
	l.computeDuals()
	d := append([]float64(nil), l.d...)
	l.restore(&s)
	copy(l.piF, piF)
	copy(l.piC, piC)
	return d
}

// dualDrift is the largest difference between l's reduced costs and fresh ones over
// the nonbasic columns that are not fixed (the ones the pruning tests rely on).
func dualDrift(l *lp) float64 {
	fresh := freshDuals(l)
	worst := 0.0
	for j := range l.nCo {
		if l.stat[j] >= basicKey || l.lo[j] == l.up[j] {
			continue
		}
		worst = max(worst, math.Abs(l.d[j]-fresh[j]))
	}
	return worst
}

// TestLPDualsRefreshed: the dual simplex updates the reduced costs d incrementally
// and must compute them from scratch often enough that rounding errors cannot build
// up: a node is pruned on the dual objective (lpCutoff), which is a bound only while
// d is right. An error put into d must be gone after a dive of a few hundred
// iterations. Most pivots here change a family's key, which rebuilds W⁻¹; while
// only the updates of W⁻¹ led to a refresh, the error stayed for ever (and in a
// variant of the search, errors grown to 50 made two cbc cross-check models prove
// wrong optima).
func TestLPDualsRefreshed(t *testing.T) {
	r := rand.New(rand.NewPCG(38, 3))
	m := &solver.Model{Dims: 3}
	const nF, nP = 100, 12
	demand := make([]float64, 3)
	for range nF {
		f := solver.Family{Need: make([]int64, 3)}
		for d := range f.Need {
			f.Need[d] = int64(r.IntN(4))
			demand[d] += float64(f.Need[d])
		}
		f.Need[r.IntN(3)]++
		for pl := range nP {
			if r.Float64() < 0.35 {
				f.Arcs = append(f.Arcs, solver.Arc{Place: pl, Score: float64(r.IntN(501)) / 100})
			}
		}
		m.Families = append(m.Families, f)
	}
	for range nP {
		c := make([]int64, 3)
		for d := range c {
			c[d] = int64(math.Round(0.6 * demand[d] / nP * (0.5 + r.Float64())))
		}
		m.Places = append(m.Places, solver.Place{Cap: c})
	}
	p, err := solver.NewProb(m)
	if err != nil {
		t.Fatal(err)
	}
	l := newLP(p)
	if res := l.solve(math.Inf(1), 1<<30); res != lpOptimal {
		t.Fatalf("root LP: %v", res)
	}
	if dr := dualDrift(l); dr > 1e-9 {
		t.Fatalf("root LP: reduced costs off by %g", dr)
	}
	// An error in the reduced costs, of the right signs (the basis stays dual
	// feasible, as after rounding).
	for j := range l.nCo {
		if l.stat[j] < basicKey && l.lo[j] < l.up[j] {
			l.d[j] *= 1 + 1e-3
		}
	}
	// A dive as the search makes it: fix the most fractional arc to its nearer
	// bound, solve from the basis at hand; on infeasibility start again from the
	// root's bounds.
	start := l.iters
	var fixed []int
	for dive := 0; l.iters-start < 400 && dive < 1000; dive++ {
		best, bestF := -1, 0.0
		for j := range l.nA {
			if f := math.Min(l.x[j], 1-l.x[j]); f > 1e-6 && f > bestF {
				best, bestF = j, f
			}
		}
		if best >= 0 {
			v := math.Round(l.x[best])
			l.lo[best], l.up[best] = v, v
			fixed = append(fixed, best)
		}
		res := lpOptimal
		if best >= 0 {
			l.computePrimal()
			res = l.solve(math.Inf(1), 1<<30)
		}
		if res == lpInfeasible || best < 0 {
			for _, j := range fixed {
				l.lo[j], l.up[j] = 0, 1
				if l.stat[j] < basicKey {
					if l.d[j] < 0 {
						l.stat[j], l.x[j] = atUpper, 1
					} else {
						l.stat[j], l.x[j] = atLower, 0
					}
				}
			}
			fixed = fixed[:0]
			l.computePrimal()
			if res := l.solve(math.Inf(1), 1<<30); res != lpOptimal {
				t.Fatalf("root LP again: %v", res)
			}
		}
	}
	if l.iters-start < 200 {
		t.Fatalf("only %d iterations: the test needs a longer run", l.iters-start)
	}
	if dr := dualDrift(l); dr > 1e-9 {
		t.Errorf("after %d iterations the reduced costs are still off by %g", l.iters-start, dr)
	}
}

package lagrange

import (
	"cmp"
	"math"
	"slices"
	"sync/atomic"

	"solidarity/match/internal/knapsack"
	"solidarity/match/internal/solver"
)

// The knapsack bound: a tighter proven bound than L(λ), for models whose small
// places cannot be filled exactly by whole families (the generated EU problem:
// localities of a few persons).
//
// Price each family's "at most one arc" row by u_f (free when the family must be
// placed: the row is an equality) and every coupling row but the places' own
// capacities by λ, the prices of the last full pass. What is left splits into one
// 0/1 knapsack per place: items the families with an arc there, worth their
// reduced score there plus the price of the place's own rows they use, less u_f.
// Any upper bound UB_p of each knapsack gives the proven bound
//
//	Σ_f u_f + Σ_{other rows} λ·cap + Σ_p UB_p.
//
// For a large place UB_p is the knapsack's linear relaxation at the place's own
// prices, Σ_i max(0, worth_i − λ_p·need_i) + λ_p·cap_p; at u_f = f's best reduced
// score that is λ_p·cap_p and the sum is L(λ). A small place (at most boundStates
// capacity states) has its knapsack solved exactly by dynamic programming, which
// is lower where the relaxation fills the room with fractions of families. From
// there, projected subgradient steps on u lower the bound further: a family's
// subgradient is 1 less the number of places that take it (a large place takes
// it when its worth there exceeds u_f: the linear relaxation's choice).
//
// The places are split over the workers in fixed ranges and the sums are added in
// place order, so the bound does not depend on scheduling.
const boundStates = 1024 // capacity states of a place's dynamic program at most

type knapBound struct {
	u      *dual
	pStart []int32 // arcs by place (CSR)
	pArc   []int32
	small  []bool // per place: solved exactly
	nSmall int
	base   float64   // Σ λ·cap (− λ·min) over the rows, but the small places' own
	uf     []float64 // per family: u_f
	kp     []float64 // per place: its knapsack's value (small places)
	lin    []float64 // per place: its linear part (large places)
	wCnt   [][]int32 // per worker: places taking each family
	ws     []*dpScratch
	g      []float64
	pick   [][]takenArc // per place: the arcs its last solution took

	wWork []int // per worker: the last step's dynamic program cells
	theta float64
	fails int
	best  float64
	iters int
}

// takenArc is an arc a place's knapsack took, with its worth there.
type takenArc struct {
	arc int32
	v   float64
}

// dpScratch is a worker's scratch for the dynamic programs.
type dpScratch struct {
	dp     []float64
	take   []bool
	pr     []float64
	w      []int32 // items × rows
	fams   []int32
	arcs   []int32
	rows   []int32
	stride []int
	caps   []int
}

func newKnapBound(u *dual) *knapBound {
	p := u.p
	np := len(p.M.Places)
	kb := &knapBound{u: u, pStart: make([]int32, np+1), pArc: make([]int32, len(p.ArcPlace)),
		small: make([]bool, np), uf: make([]float64, p.N), kp: make([]float64, np), lin: make([]float64, np),
		wCnt: make([][]int32, u.workers), ws: make([]*dpScratch, u.workers), g: make([]float64, p.N), wWork: make([]int, u.workers),
		theta: knapTheta, best: math.Inf(1), pick: make([][]takenArc, np)}
	for _, pl := range p.ArcPlace {
		kb.pStart[pl+1]++
	}
	for i := 1; i <= np; i++ {
		kb.pStart[i] += kb.pStart[i-1]
	}
	pos := slices.Clone(kb.pStart[:np])
	for a, pl := range p.ArcPlace {
		kb.pArc[pos[pl]] = int32(a)
		pos[pl]++
	}
	for w := range kb.ws {
		kb.ws[w] = &dpScratch{}
		kb.wCnt[w] = make([]int32, p.N)
	}
	for f := range p.N {
		if b := u.best[f]; b >= 0 {
			kb.uf[f] = u.red[b]
		}
	}
	kb.base = u.rowTerm(u.lam, true)
	for pl := range np {
		states, lp, nd := 1, 0.0, 0
		ok := false
		for _, k := range p.PlaceRows[pl] {
			if p.RowKind[k] != solver.RowPlace {
				continue
			}
			if nd++; nd > 4 { // the dynamic program's loops take four dimensions
				ok = false
				break
			}
			c := int(math.Floor(p.RowHi[k] + solver.TolLoad))
			if states*(c+1) > boundStates {
				ok = false
				break
			}
			ok = true
			states *= c + 1
			lp += u.lam[k] * p.RowHi[k]
		}
		if ok && lp > 0 {
			kb.small[pl] = true
			kb.nSmall++
			kb.base -= lp
		}
	}
	return kb
}

// steps runs up to n subgradient steps towards target (a value some assignment
// reaches: the incumbent's), the first of them at the starting u; it returns the
// best bound so far. Steps are Polyak's, θ halved when two in a row do not improve.
func (kb *knapBound) steps(n int, target float64, stop func() bool) float64 {
	u, p := kb.u, kb.u.p
	for range n {
		if stop != nil && stop() {
			break
		}
		np := len(kb.pStart) - 1
		for w := range kb.wCnt {
			clear(kb.wCnt[w])
		}
		clear(kb.wWork)
		// A step the time limit cuts short is dropped (its sum would be no bound).
		var cut atomic.Bool
		u.parallelN(np, func(w, lo, hi int) {
			for pl := lo; pl < hi; pl++ {
				if pl%16 == 15 && stop != nil && stop() {
					cut.Store(true)
					return
				}
				kb.place(w, pl)
			}
		})
		if cut.Load() {
			break
		}
		bound := kb.base
		for f := range p.N {
			bound += kb.uf[f]
		}
		for pl := range np {
			bound += kb.kp[pl] + kb.lin[pl]
		}
		kb.iters++
		if bound < kb.best-1e-9 {
			kb.best, kb.fails = bound, 0
		} else if kb.fails++; kb.fails >= 2 {
			kb.theta, kb.fails = kb.theta/2, 0
		}
		trace("knapsack bound %d: %.4f (best %.4f, θ %.3g), %d cells", kb.iters, bound, kb.best, kb.theta, kb.work())
		norm := 0.0
		for f := range p.N {
			c := int32(0)
			for w := range kb.wCnt {
				c += kb.wCnt[w][f]
			}
			g := 1 - float64(c)
			if !p.Must[f] && kb.uf[f] <= 0 && g > 0 {
				g = 0
			}
			kb.g[f] = g
			norm += g * g
		}
		if norm == 0 || bound <= target {
			break
		}
		t := kb.theta * (bound - target) / norm
		for f := range p.N {
			kb.uf[f] -= t * kb.g[f]
			if !p.Must[f] && kb.uf[f] < 0 {
				kb.uf[f] = 0
			}
		}
	}
	// A little above the best, for the rounding of the sums.
	return kb.best + 1e-9*(1+math.Abs(kb.best))
}

// place evaluates place pl's part of the bound at u (kb.kp or kb.lin) and counts
// the families it takes in worker w's counts.
func (kb *knapBound) place(w, pl int) {
	u, p := kb.u, kb.u.p
	arcs := kb.pArc[kb.pStart[pl]:kb.pStart[pl+1]]
	cnt := kb.wCnt[w]
	pick := kb.pick[pl][:0]
	defer func() { kb.pick[pl] = pick }()
	if !kb.small[pl] {
		s := 0.0
		for _, a := range arcs {
			f := p.ArcFam[a]
			if v := u.red[a] - kb.uf[f]; v > 0 {
				s += v
				cnt[f]++
				pick = append(pick, takenArc{a, v})
			}
		}
		kb.lin[pl] = s
		return
	}
	ws := kb.ws[w]
	ws.rows, ws.stride = ws.rows[:0], ws.stride[:0]
	states := 1
	for _, k := range p.PlaceRows[pl] {
		if p.RowKind[k] == solver.RowPlace {
			ws.rows = append(ws.rows, k)
			ws.stride = append(ws.stride, states)
			states *= int(math.Floor(p.RowHi[k]+solver.TolLoad)) + 1
		}
	}
	nd := len(ws.rows)
	ws.pr, ws.w, ws.fams, ws.arcs = ws.pr[:0], ws.w[:0], ws.fams[:0], ws.arcs[:0]
	for _, a := range arcs {
		f := int(p.ArcFam[a])
		v := u.red[a] - kb.uf[f]
		n0 := len(ws.w)
		for _, k := range ws.rows {
			c := p.Coef(f, p.RowDim[k])
			v += u.lam[k] * c
			ws.w = append(ws.w, int32(c))
		}
		if v > 0 {
			ws.pr = append(ws.pr, v)
			ws.fams = append(ws.fams, int32(f))
			ws.arcs = append(ws.arcs, a)
		} else {
			ws.w = ws.w[:n0]
		}
	}
	// The knapsack ("at most" semantics), the choices kept.
	ws.dp = slices.Grow(ws.dp[:0], states)[:states]
	clear(ws.dp)
	ws.take = slices.Grow(ws.take[:0], len(ws.pr)*states)[:len(ws.pr)*states]
	clear(ws.take)
	kb.wWork[w] += len(ws.pr) * states
	sp := knapsack.Space{Caps: ws.caps[:0], Stride: ws.stride, States: states}
	for d := range nd {
		sp.Caps = append(sp.Caps, int(math.Floor(p.RowHi[ws.rows[d]]+solver.TolLoad)))
	}
	ws.caps = sp.Caps
	var wv [4]int
	for i, v := range ws.pr {
		wt := ws.w[i*nd : (i+1)*nd]
		for d := range nd {
			wv[d] = int(wt[d])
		}
		// Every state the item fits, the single row updated in place.
		sp.Step(wv[:nd], sp.Offset(wv[:nd]), v, 0, ws.dp, ws.dp, ws.take[i*states:(i+1)*states], sp.Caps)
	}
	kb.kp[pl] = ws.dp[states-1]
	off := func(i int) int {
		o := 0
		for d := range nd {
			o += int(ws.w[i*nd+d]) * ws.stride[d]
		}
		return o
	}
	sp.Trace(ws.take, len(ws.pr), states-1, off, func(i int) {
		cnt[ws.fams[i]]++
		pick = append(pick, takenArc{ws.arcs[i], ws.pr[i]})
	})
}

// primal builds an assignment in e from the places' last knapsack solutions: each
// family taken by some place goes, in order of its worth there, to the place where
// it is worth most, when it fits; the others are placed greedily by reduced score.
// The small places' exact packings are a rounding the greedy of the prices does
// not find.
func (kb *knapBound) primal(e *primal) {
	u, p := kb.u, kb.u.p
	at := make([]int32, p.N)
	worth := make([]float64, p.N)
	for f := range at {
		at[f], worth[f] = -1, math.Inf(-1)
	}
	for _, picks := range kb.pick {
		for _, x := range picks {
			f := p.ArcFam[x.arc]
			if x.v > worth[f] || (x.v == worth[f] && x.arc < at[f]) {
				at[f], worth[f] = x.arc, x.v
			}
		}
	}
	e.Reset()
	taken := make([]int32, 0, p.N)
	for f := range p.N {
		if at[f] >= 0 {
			taken = append(taken, int32(f))
		}
	}
	slices.SortStableFunc(taken, func(x, y int32) int { return cmp.Compare(worth[y], worth[x]) })
	for _, f := range taken {
		if e.Fits(int(f), at[f]) {
			e.Set(int(f), at[f])
		}
	}
	u.fillByRegret(e)
}

// work is the last step's size: the cells of its dynamic programs.
func (kb *knapBound) work() int {
	n := 0
	for _, x := range kb.wWork {
		n += x
	}
	return n
}

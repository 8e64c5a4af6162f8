package bnb

import (
	"math"
	"slices"
	"sync"

	"solidarity/match/internal/knapsack"
	"solidarity/match/internal/solver"
)

// Lagrangian relaxation of the assignment rows (Σ_p x[f,p] ≤ 1, multipliers u_f ≥ 0)
// for models whose only coupling rows are place capacities (no groups, minimums or
// families that must be placed, as HIAS): the relaxation splits into one 0/1
// knapsack per place (items: the families with an arc there, profit score − u_f,
// weight the need vector), each solved exactly by dynamic programming over the
// capacities. Its bound Σ_f u_f + Σ_p KP_p(u) is at least as strong as the LP bound
// (the knapsacks are integral). It is used at the root: as a proven bound, to remove
// the arcs whose forced use brings the bound below the incumbent, and to build
// assignments from the knapsack solutions.

// Limits of the dynamic programs: states per place and items × states per place.
const (
	maxStates = 200000
	maxWork   = 3000000
	maxTotal  = 20000000 // over all places: the work of one evaluation
	splitWork = 1000000  // from this work on, an evaluation runs on two goroutines
)

type knapPlace struct {
	knapsack.Space
	items []int32 // arcs at this place
	woff  []int   // per item: its weight as a state offset
	wsum  []int   // per item: its weight summed over the dimensions
	light []int32 // the items by wsum, lightest first (stable)
	w     [][]int // per item: its weight per dimension
}

type knapLag struct {
	forced    []bool    // arcs forced in (node bounds only)
	rootVal   []float64 // per place: the value that node bounds start from
	rootIn    []bool    // per arc: in the solution of its place that has value rootVal
	touched   []bool    // per place: scratch of nodeBound
	u0        []float64 // scratch of nodeBound
	stallStop int       // optimize stops after this many steps without progress (0: never)
	pre, suf  []float64 // scratch of fixArcs
	vals      []float64 // per place: its value in the last evaluation
	split     int       // evaluate solves places split.. on a second goroutine (0: not)
	dp2       []float64 // the second goroutine's scratch
	take2     []bool
	p         *solver.Prob
	places    []knapPlace
	u         []float64
	dead      []bool // arcs removed
	dp        []float64
	take      []bool
	sel       [][]int32 // per place: the arcs of the last solution
	nodeSel   []int32   // scratch of nodeBound: a solution it does not keep
	cnt       []float64 // per family: times chosen
}

// newKnapLag returns nil when the model does not have the required shape or the
// dynamic programs would be too large.
func newKnapLag(p *solver.Prob) *knapLag {
	m := p.M
	if len(m.Groups) > 0 || len(m.Mins) > 0 || p.D > 8 {
		return nil
	}
	for f := range p.N {
		if p.Must[f] {
			return nil
		}
	}
	k := &knapLag{p: p, places: make([]knapPlace, len(m.Places)), u: make([]float64, p.N),
		dead: make([]bool, len(p.ArcPlace)), sel: make([][]int32, len(m.Places)), cnt: make([]float64, p.N)}
	for a, pl := range p.ArcPlace {
		k.places[pl].items = append(k.places[pl].items, int32(a))
	}
	maxS := 0
	for pl := range k.places {
		kp := &k.places[pl]
		caps := make([]int, p.D)
		for d := range p.D {
			tot := 0
			for _, a := range kp.items {
				tot += int(p.Need[int(p.ArcFam[a])*p.D+d])
			}
			caps[d] = int(min(m.Places[pl].Cap[d], int64(tot)))
		}
		sp, ok := knapsack.NewSpace(caps, maxStates)
		if !ok {
			return nil
		}
		kp.Space = sp
		S := sp.States
		if S*(len(kp.items)+1) > maxWork {
			return nil
		}
		maxS = max(maxS, S*(len(kp.items)+1))
		for _, a := range kp.items {
			w := make([]int, p.D)
			off := 0
			for d := range p.D {
				w[d] = int(p.Need[int(p.ArcFam[a])*p.D+d])
				off += w[d] * kp.Stride[d]
			}
			kp.w = append(kp.w, w)
			kp.wsum = append(kp.wsum, sumInts(w))
			kp.woff = append(kp.woff, off)
		}
		kp.light = make([]int32, len(kp.items))
		for i := range kp.light {
			kp.light[i] = int32(i)
		}
		slices.SortStableFunc(kp.light, func(i, j int32) int { return kp.wsum[i] - kp.wsum[j] })
	}
	total := 0
	for pl := range k.places {
		total += k.places[pl].States * (len(k.places[pl].items) + 1)
	}
	if total > maxTotal {
		return nil
	}
	k.dp = make([]float64, maxS)
	k.take = make([]bool, maxS)
	k.vals = make([]float64, len(k.places))
	if total >= splitWork {
		// Places split in two ranges of about equal work, solved side by side.
		half := 0
		for pl := range k.places {
			if 2*half >= total {
				k.split = pl
				break
			}
			half += k.places[pl].States * (len(k.places[pl].items) + 1)
		}
		if k.split > 0 {
			k.dp2 = make([]float64, maxS)
			k.take2 = make([]bool, maxS)
		}
	}
	return k
}

func (k *knapLag) profit(a int32) float64 {
	return k.p.ArcScore[a] - k.u[k.p.ArcFam[a]]
}

// table fills rows 0..n of a DP table over the items in order (row i: the best
// profit with items before i, per capacity state, "at most" semantics), over every
// state and without forced items: fixArcs uses it at the root's multipliers, where
// nothing is forced. When keep is false only the last row is kept (in row 0).
func (k *knapLag) table(kp *knapPlace, order []int, tab []float64, keep bool) {
	S := kp.States
	clear(tab[:S])
	row := 0
	for _, i := range order {
		a := kp.items[i]
		pr := k.profit(a)
		var prev, cur []float64
		if keep {
			prev, cur = tab[row*S:(row+1)*S], tab[(row+1)*S:(row+2)*S]
			copy(cur, prev)
			row++
		} else {
			prev, cur = tab[:S], tab[:S]
		}
		if k.dead[a] || pr <= 0 {
			continue
		}
		kp.Step(kp.w[i], kp.woff[i], pr, 0, prev, cur, nil, kp.Caps)
	}
}

// solvePlace solves place pl's knapsack at the current multipliers, records its
// solution in k.sel[pl] and returns its value.
func (k *knapLag) solvePlace(pl int) float64 {
	return k.solvePlaceIn(pl, k.dp, k.take)
}

// solvePlaceIn is solvePlace with the given scratch tables; places solved at the
// same time need their own.
func (k *knapLag) solvePlaceIn(pl int, dp []float64, take []bool) float64 {
	return k.solveGrowing(&k.places[pl], &k.sel[pl], dp, take)
}

// solveGrowing solves a place's knapsack over its items of positive profit only,
// each item on the states up to the items' total weight so far (capped by the
// capacities), not on every state: with "at most" semantics a state beyond that
// total has the value of the state clipped to it, so the program's region grows
// with the items, and a state entering it takes the value of its clipped state
// once. On HIAS most items have a negative profit at the multipliers and the
// others' total is about the capacity, so most states of early items are skipped.
// Items forced in (node bounds) come first and are taken whatever their profit; a
// state they do not fit is worth −Inf (the clipping still holds: a state beyond the
// items' total fits whatever its clipped state fits). The solution goes to sel;
// take holds a row per item used. Models have at least one dimension.
func (k *knapLag) solveGrowing(kp *knapPlace, sel *[]int32, dp []float64, take []bool) float64 {
	D, S := len(kp.Caps), kp.States
	items := make([]int, 0, len(kp.items))
	nForced := 0
	if k.forced != nil {
		for i, a := range kp.items {
			if !k.dead[a] && k.forced[a] {
				items = append(items, i)
				nForced++
			}
		}
	}
	// Light items first: the region grows as slowly as it can.
	for _, i := range kp.light {
		if a := kp.items[i]; !k.dead[a] && (k.forced == nil || !k.forced[a]) && k.profit(a) > 0 {
			items = append(items, int(i))
		}
	}
	// his[j*D:(j+1)*D]: the region's corner after item j.
	his := make([]int, (len(items)+1)*D)
	hi, prev := his[:D], his[:D]
	dp[0] = 0 // the region: state 0
	for j, i := range items {
		hi = his[(j+1)*D : (j+2)*D]
		for d := range D {
			hi[d] = min(kp.Caps[d], prev[d]+kp.w[i][d])
		}
		kp.Grow(dp, prev, hi)
		tk := take[j*S : (j+1)*S]
		clear(tk)
		if j < nForced {
			kp.Force(kp.w[i], kp.woff[i], k.profit(kp.items[i]), dp, tk, hi)
		} else {
			kp.Step(kp.w[i], kp.woff[i], k.profit(kp.items[i]), 0, dp, dp, tk, hi)
		}
		prev = hi
	}
	var co [8]int
	s := 0
	for d := range D {
		co[d] = hi[d]
		s += co[d] * kp.Stride[d]
	}
	v := dp[s]
	*sel = (*sel)[:0]
	if math.IsInf(v, -1) {
		return v // the forced items do not fit: no solution to trace
	}
	for j := len(items) - 1; j >= 0; j-- {
		// The state clipped to the region after item j.
		hj := his[(j+1)*D : (j+2)*D]
		s = 0
		for d := range D {
			co[d] = min(co[d], hj[d])
			s += co[d] * kp.Stride[d]
		}
		if take[j*S+s] {
			i := items[j]
			*sel = append(*sel, kp.items[i])
			for d := range D {
				co[d] -= kp.w[i][d]
			}
		}
	}
	return v
}

// evaluate returns L(u) and fills k.cnt with the number of places choosing each
// family.
func (k *knapLag) evaluate() float64 {
	L := 0.0
	for _, u := range k.u {
		L += u
	}
	clear(k.cnt)
	if k.split > 0 {
		// Two fixed ranges of places at once; the sum is taken in place order
		// below, so the result does not depend on the schedule.
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			for pl := k.split; pl < len(k.places); pl++ {
				k.vals[pl] = k.solvePlaceIn(pl, k.dp2, k.take2)
			}
		}()
		for pl := range k.split {
			k.vals[pl] = k.solvePlace(pl)
		}
		wg.Wait()
	} else {
		for pl := range k.places {
			k.vals[pl] = k.solvePlace(pl)
		}
	}
	for pl := range k.places {
		L += k.vals[pl]
		for _, a := range k.sel[pl] {
			k.cnt[k.p.ArcFam[a]]++
		}
	}
	return L
}

// primal builds an assignment from the knapsack solutions: each family keeps its
// best chosen arc that fits, then the rest are placed greedily and improved.
func (k *knapLag) primal(s *solver.Assignment, order []int32) {
	p := k.p
	for f := range p.N {
		s.Set(f, -1)
	}
	var arcs []int32
	for pl := range k.places {
		arcs = append(arcs, k.sel[pl]...)
	}
	slices.SortStableFunc(arcs, func(x, y int32) int {
		if p.ArcScore[x] > p.ArcScore[y] {
			return -1
		} else if p.ArcScore[x] < p.ArcScore[y] {
			return 1
		}
		return 0
	})
	for _, a := range arcs {
		f := int(p.ArcFam[a])
		if s.Arc[f] < 0 && s.Fits(f, a) {
			s.Set(f, a)
		}
	}
	rank := make([]float64, len(p.ArcPlace))
	for a := range rank {
		rank[a] = k.profit(int32(a))
	}
	s.Fill(order, rank)
	s.Climb(5)
}

// optimize runs projected subgradient steps on u from its current value, with
// Polyak steps towards target (the incumbent's value) scaled by theta, halved after
// 15 steps without progress; it keeps the best u and returns the best bound and the
// last theta. offer receives primal assignments.
func (k *knapLag) optimize(iters int, theta float64, target func() float64, offer func(), stop func(L float64) bool) (float64, float64) {
	best := math.Inf(1)
	bestU := slices.Clone(k.u)
	stall := 0
	for it := range iters {
		L := k.evaluate()
		if L < best-1e-12 {
			best = L
			copy(bestU, k.u)
			stall = 0
		} else if stall++; k.stallStop > 0 && stall >= k.stallStop {
			break
		} else if stall >= 15 {
			theta /= 2
			stall = 0
		}
		if it%10 == 0 && offer != nil {
			offer()
		}
		if stop(best) || theta < 1e-5 {
			break
		}
		norm := 0.0
		for f := range k.u {
			g := 1 - k.cnt[f]
			if g < 0 || k.u[f] > 0 {
				norm += g * g
			}
		}
		if norm == 0 {
			break // the knapsack solutions form an assignment: optimal for this u
		}
		gap := L - target()
		if gap < 1e-6*math.Max(1, math.Abs(L)) {
			gap = 1e-6 * math.Max(1, math.Abs(L))
		}
		t := theta * gap / norm
		for f := range k.u {
			k.u[f] = max(0, k.u[f]-t*(1-k.cnt[f]))
		}
	}
	copy(k.u, bestU)
	return best, theta
}

// fixArcs removes the arcs whose use would bring the bound at the current u (value
// L) to at most lim. It returns the arcs removed.
func (k *knapLag) fixArcs(L, lim float64) []int32 {
	var out []int32
	for pl := range k.places {
		kp := &k.places[pl]
		n, S := len(kp.items), kp.States
		if n == 0 {
			continue
		}
		KP := k.solvePlace(pl)
		// The programs run over the items of positive profit only (the others are
		// never taken unless forced): pos[j] is the j-th of them, at[i] the
		// position of item i in pos (-1: not there).
		pos := make([]int, 0, n)
		at := make([]int, n)
		for i, a := range kp.items {
			at[i] = -1
			if !k.dead[a] && k.profit(a) > 0 {
				at[i] = len(pos)
				pos = append(pos, i)
			}
		}
		m := len(pos)
		fwd := pos
		bwd := make([]int, m)
		for j := range m {
			bwd[j] = pos[m-1-j]
		}
		// Reused between calls (table writes every row before reading it): fresh
		// tables cost more in allocation and clearing than in filling.
		k.pre = slices.Grow(k.pre[:0], (m+1)*S)[:(m+1)*S]
		k.suf = slices.Grow(k.suf[:0], (m+1)*S)[:(m+1)*S]
		pre, suf := k.pre, k.suf
		k.table(kp, fwd, pre, true) // pre row j: pos[:j]
		k.table(kp, bwd, suf, true) // suf row j: the last j of pos
		all := pre[m*S : (m+1)*S]
		co := make([]int, len(kp.Caps))
		rest := make([]int, len(kp.Caps))
		for i, a := range kp.items {
			if k.dead[a] {
				continue
			}
			w := kp.w[i]
			if !knapsack.Fits(kp.Caps, w) {
				continue
			}
			for d := range rest {
				rest[d] = kp.Caps[d] - w[d]
			}
			j := at[i]
			if j < 0 {
				// Not among pos: the best of the others in cap − w is all's.
				r := 0
				for d := range rest {
					r += rest[d] * kp.Stride[d]
				}
				if L-KP+all[r]+k.profit(a) <= lim {
					k.dead[a] = true
					out = append(out, a)
				}
				continue
			}
			// Best with item i forced in: pos before and after it share cap − w.
			P := pre[j*S : (j+1)*S]
			Q := suf[(m-1-j)*S : (m-j)*S]
			best := math.Inf(-1)
			// enumerate s1 ≤ rest componentwise
			for d := range co {
				co[d] = 0
			}
			for {
				s1, s2 := 0, 0
				for d := range co {
					s1 += co[d] * kp.Stride[d]
					s2 += (rest[d] - co[d]) * kp.Stride[d]
				}
				best = max(best, P[s1]+Q[s2])
				d := 0
				for ; d < len(co); d++ {
					if co[d] < rest[d] {
						co[d]++
						break
					}
					co[d] = 0
				}
				if d == len(co) {
					break
				}
			}
			forced := best + k.profit(a)
			if L-KP+forced <= lim {
				k.dead[a] = true
				out = append(out, a)
			}
		}
	}
	return out
}

// knapsackRoot runs the knapsack Lagrangian at the root when the model allows it:
// subgradient from the LP's duals of the assignment rows, assignments from the
// knapsack solutions, and removal of the arcs that cannot be in a better solution
// (the root LP is then solved again). It returns the bound (+Inf when not used).
func (b *bnb) knapsackRoot() float64 {
	p, l := b.p, b.l
	if b.inc == nil {
		return math.Inf(1)
	}
	k := newKnapLag(p)
	if k == nil {
		return math.Inf(1)
	}
	// Start from the LP duals of the assignment rows (whichever sign convention gives
	// the lower bound), else from zero.
	bestL := k.evaluate()
	bestU := slices.Clone(k.u)
	for _, sg := range []float64{1, -1} {
		for f := range p.N {
			k.u[f] = max(0, sg*l.piF[f])
		}
		if L := k.evaluate(); L < bestL {
			bestL = L
			copy(bestU, k.u)
		}
	}
	copy(k.u, bestU)
	order := b.orderByScore()
	offer := func() {
		k.primal(b.work, order)
		b.offer(b.work)
	}
	lim := func() float64 { return b.incVal + b.gapAbs() }
	stop := func(L float64) bool { return L <= lim() || b.ctx.Err() != nil }
	bound := math.Inf(1)
	theta := 1.0
	for round := 0; round < 4; round++ {
		// A round after arcs were removed starts near the previous round's step
		// size: the multipliers have converged and move only a little.
		var L float64
		L, theta = k.optimize(300, min(1, 4*theta), func() float64 { return b.incVal }, offer, stop)
		bound = min(bound, L)
		if bound <= lim() || b.ctx.Err() != nil {
			return bound
		}
		k.evaluate()
		offer()
		removed := k.fixArcs(L, lim())
		if len(removed) == 0 {
			break
		}
		for _, a := range removed {
			b.rootLo[a], b.rootUp[a] = 0, 0
			l.lo[a], l.up[a] = 0, 0
			if l.stat[a] == atUpper {
				l.stat[a] = atLower
			}
			if l.stat[a] == atLower {
				l.x[a] = 0
			}
		}
	}
	b.kl = k
	// Subgradient steps at the nodes, when one evaluation of the knapsacks is cheap.
	work := 0
	for pl := range k.places {
		work += k.places[pl].States * (len(k.places[pl].items) + 1)
	}
	if work <= nodeLagMaxWork {
		b.nodeSteps = nodeLagIters
	}
	b.order = order
	k.rootVal = make([]float64, len(k.places))
	k.rootIn = make([]bool, len(p.ArcPlace))
	for pl := range k.places {
		k.setRoot(pl)
	}
	b.klL = k.rootL()
	l.computePrimal()
	if r := l.solve(math.Inf(1), 1<<30); r == lpOptimal {
		b.rootZ = -l.objective()
		b.rootD = slices.Clone(l.d[:l.nA])
		b.rootStat = slices.Clone(l.stat[:l.nA])
		b.fixByRootCosts()
		b.round()
	}
	return bound
}

// fixByKnapsack removes, after the incumbent improved, the arcs that the knapsack
// Lagrangian shows cannot be in a better solution; apply puts them in the LP.
func (b *bnb) fixByKnapsack() {
	if b.kl == nil {
		return
	}
	k := b.kl
	redo := map[int32]bool{}
	for _, a := range k.fixArcs(b.klL, b.incVal+b.gapAbs()) {
		if b.rootLo[a] == 0 {
			b.rootUp[a] = 0
			b.rootDirty = append(b.rootDirty, a)
		}
		if k.rootIn[a] {
			redo[k.p.ArcPlace[a]] = true
		}
	}
	// A place whose stored solution lost an arc is solved again, so that the stored
	// solutions stay feasible (nodeBound relies on it); in place order, for
	// determinism.
	for pl := range k.places {
		if redo[int32(pl)] {
			k.setRoot(pl)
		}
	}
	b.klL = k.rootL()
}

// setRoot solves place pl at the current multipliers and dead arcs and stores the
// value and solution that node bounds start from.
func (k *knapLag) setRoot(pl int) {
	for _, a := range k.places[pl].items {
		k.rootIn[a] = false
	}
	k.rootVal[pl] = k.solvePlace(pl)
	for _, a := range k.sel[pl] {
		k.rootIn[a] = true
	}
}

// rootL is the bound Σ u + Σ KP at the stored place values.
func (k *knapLag) rootL() float64 {
	L := 0.0
	for _, u := range k.u {
		L += u
	}
	for _, v := range k.rootVal {
		L += v
	}
	return L
}

// nodeBound is the Lagrangian bound at the multipliers found at the root for a node
// with the given fixes: only the places the fixes touch are solved again, the others
// keep their root values (valid: arcs removed since only lower them).
func (b *bnb) nodeBound(fixes []fix, iters int, uStart []float64) (float64, []float64) {
	k, p := b.kl, b.p
	if k == nil || len(fixes) == 0 {
		return math.Inf(1), nil
	}
	if k.forced == nil {
		k.forced = make([]bool, len(p.ArcPlace))
	}
	var changed []int32
	if k.touched == nil {
		k.touched = make([]bool, len(k.places))
	}
	touched := k.touched
	clear(touched)
	// A place needs solving again only when the change meets its stored solution:
	// the node's knapsack is a restriction of the stored one, so when the stored
	// solution stays feasible their values are equal.
	kill := func(a int32) {
		if !k.dead[a] {
			k.dead[a] = true
			changed = append(changed, a)
			if k.rootIn[a] {
				touched[p.ArcPlace[a]] = true
			}
		}
	}
	var forced []int32
	defer func() {
		for _, a := range changed {
			k.dead[a] = false
		}
		for _, a := range forced {
			k.forced[a] = false
		}
	}()
	for _, fx := range fixes {
		a := fx.col
		if int(a) >= len(p.ArcPlace) {
			continue
		}
		if fx.val < 0.5 {
			kill(a)
			continue
		}
		if k.dead[a] {
			return math.Inf(-1), nil // an arc already removed is forced in: nothing better below
		}
		k.forced[a] = true
		forced = append(forced, a)
		if !k.rootIn[a] {
			touched[p.ArcPlace[a]] = true
		}
		f := p.ArcFam[a]
		for o := p.FamStart[f]; o < p.FamStart[f+1]; o++ {
			if o != a {
				kill(o)
			}
		}
	}
	// Places in order: the float sum must not depend on map order.
	L := b.klL
	for pl, t := range touched {
		if !t {
			continue
		}
		v := k.solveGrowing(&k.places[pl], &k.nodeSel, k.dp, k.take)
		L += v - k.rootVal[pl]
	}
	var uBest []float64
	if lim := b.incVal + b.gapAbs(); iters > 0 && L > lim {
		// The root's multipliers are not the node's best: a few subgradient steps
		// from the parent's (every value of L(u) is a bound), on the node's
		// knapsacks; the children start from where this node ends.
		u0 := append(k.u0[:0], k.u...)
		k.u0 = u0
		if uStart != nil {
			copy(k.u, uStart)
		}
		// The knapsack solutions at the node's multipliers also give assignments.
		// (Kept aside, not offered here: a new incumbent fixes arcs in the
		// knapsacks, which now hold the node's fixes.)
		offer := func() {
			k.primal(b.work, b.order)
			if b.work.Feasible() && b.work.Value > b.incVal+1e-12 &&
				(b.knapSol == nil || b.work.Value > b.knapSol.Value) {
				if b.knapSol == nil {
					b.knapSol = b.work.Clone()
				} else {
					b.knapSol.CopyFrom(b.work)
				}
			}
		}
		k.stallStop = nodeLagStall
		Ln, _ := k.optimize(iters, 1, func() float64 { return b.incVal }, offer,
			func(L float64) bool { return L <= b.incVal+b.gapAbs() })
		L = min(L, Ln)
		k.stallStop = 0
		uBest = slices.Clone(k.u)
		copy(k.u, u0)
	}
	return L, uBest
}

func sumInts(w []int) int {
	t := 0
	for _, x := range w {
		t += x
	}
	return t
}

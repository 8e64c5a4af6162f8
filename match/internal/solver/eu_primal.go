package solver

import (
	"cmp"
	"math"
	"slices"
	"sort"
)

// euPrimal is an assignment for the large models with what the local search needs
// to be fast: the coupling rows of each place (capacity checks merge two short
// sorted lists), the families at each place (whom to move out of the way).
type euPrimal struct {
	p      *prob
	plRows [][]int32 // per place: its coupling rows (< K0), ascending
	arc    []int32   // per family: its arc, or -1
	used   []float64 // per row
	value  float64
	at     [][]int32 // per place: the families there
	pos    []int32   // per family: index in at[its place]

	delta   []float64 // scratch per row
	touched []int32
	blk     []int32
	blkBy   []float64
	stop    func() bool // when it returns true, searches end early (a time limit)
	best    []float64   // per family: its best score (bestScore)
	ver     []uint32    // per place: changes of its families (repack skips places that did not change)
}

func newEUPrimal(p *prob) *euPrimal {
	m := p.m
	e := &euPrimal{p: p, plRows: make([][]int32, len(m.Places)), arc: make([]int32, p.n),
		used: make([]float64, p.K0), at: make([][]int32, len(m.Places)), pos: make([]int32, p.n),
		delta: make([]float64, p.K0), ver: make([]uint32, len(m.Places))}
	for k := range p.K0 {
		var pls []int
		switch p.rowKind[k] {
		case rowPlace:
			pls = []int{int(p.rowRef[k])}
		case rowGroup:
			pls = m.Groups[p.rowRef[k]].Places
		case rowMin:
			pls = m.Mins[p.rowRef[k]].Places
		}
		for _, pl := range pls {
			// A place listed twice in a row counts twice, as in the model.
			e.plRows[pl] = append(e.plRows[pl], int32(k))
		}
	}
	for f := range e.arc {
		e.arc[f] = -1
	}
	return e
}

func (e *euPrimal) stopped() bool { return e.stop != nil && e.stop() }

func (e *euPrimal) reset() {
	for f := range e.arc {
		e.arc[f] = -1
	}
	clear(e.used)
	e.value = 0
	for pl := range e.at {
		e.at[pl] = e.at[pl][:0]
		e.ver[pl]++
	}
}

func (e *euPrimal) clone() *euPrimal {
	c := *e
	c.arc = slices.Clone(e.arc)
	c.used = slices.Clone(e.used)
	c.pos = slices.Clone(e.pos)
	c.at = make([][]int32, len(e.at))
	for pl := range e.at {
		c.at[pl] = slices.Clone(e.at[pl])
	}
	c.delta = make([]float64, len(e.delta))
	c.ver = make([]uint32, len(e.ver))
	c.touched = nil
	return &c
}

func (e *euPrimal) copyFrom(o *euPrimal) {
	copy(e.arc, o.arc)
	copy(e.used, o.used)
	copy(e.pos, o.pos)
	e.value = o.value
	for pl := range e.at {
		e.at[pl] = append(e.at[pl][:0], o.at[pl]...)
		e.ver[pl]++
	}
}

func (e *euPrimal) rowsOf(a int32) []int32 {
	if a < 0 {
		return nil
	}
	return e.plRows[e.p.arcPlace[a]]
}

func (e *euPrimal) score(a int32) float64 {
	if a < 0 {
		return 0
	}
	return e.p.arcScore[a]
}

// fits says whether family f may move from its arc to arc b (-1: out) without
// breaking a capacity or taking a minimum further below its bound. Moves that fit
// keep every capacity, so an assignment is feasible as soon as the families that
// must be placed are and the minimums are met.
func (e *euPrimal) fits(f int, b int32) bool {
	a := e.arc[f]
	if a == b {
		return true
	}
	p := e.p
	ra, rb := e.rowsOf(a), e.rowsOf(b)
	leaving := func(k int32) bool {
		// A row the family has no coefficient in does not change.
		if p.rowKind[k] != rowMin {
			return true
		}
		c := p.coef(f, p.rowDim[k])
		return c == 0 || e.used[k]-c >= p.rowLo[k]-tolLoad
	}
	i := 0
	for _, k := range rb {
		for i < len(ra) && ra[i] < k {
			if !leaving(ra[i]) {
				return false
			}
			i++
		}
		if i < len(ra) && ra[i] == k {
			i++
			continue
		}
		if c := p.coef(f, p.rowDim[k]); c > 0 && e.used[k]+c > p.rowHi[k]+tolLoad {
			return false
		}
	}
	for ; i < len(ra); i++ {
		if !leaving(ra[i]) {
			return false
		}
	}
	return true
}

// set moves f to arc b without checks.
func (e *euPrimal) set(f int, b int32) {
	p := e.p
	a := e.arc[f]
	if a == b {
		return
	}
	if a >= 0 {
		for _, k := range e.rowsOf(a) {
			e.used[k] -= p.coef(f, p.rowDim[k])
		}
		e.value -= p.arcScore[a]
		pl := p.arcPlace[a]
		e.ver[pl]++
		list := e.at[pl]
		i := e.pos[f]
		last := list[len(list)-1]
		list[i] = last
		e.pos[last] = i
		e.at[pl] = list[:len(list)-1]
	}
	if b >= 0 {
		for _, k := range e.rowsOf(b) {
			e.used[k] += p.coef(f, p.rowDim[k])
		}
		e.value += p.arcScore[b]
		pl := p.arcPlace[b]
		e.ver[pl]++
		e.pos[f] = int32(len(e.at[pl]))
		e.at[pl] = append(e.at[pl], int32(f))
	}
	e.arc[f] = b
}

func (e *euPrimal) feasible() bool {
	p := e.p
	for f, a := range e.arc {
		if a < 0 && p.must[f] {
			return false
		}
	}
	for k, u := range e.used {
		if u > p.rowHi[k]+tolLoad || u < p.rowLo[k]-tolLoad {
			return false
		}
	}
	return true
}

// places is the assignment in model places.
func (e *euPrimal) places() []int {
	out := make([]int, len(e.arc))
	for f, a := range e.arc {
		out[f] = -1
		if a >= 0 {
			out[f] = int(e.p.arcPlace[a])
		}
	}
	return out
}

// arcAt is f's arc to place pl, or -1 (arcs are in increasing place order).
func (e *euPrimal) arcAt(f int, pl int32) int32 {
	p := e.p
	lo, hi := int(p.famStart[f]), int(p.famStart[f+1])
	i := lo + sort.Search(hi-lo, func(i int) bool { return p.arcPlace[lo+i] >= pl })
	if i < hi && p.arcPlace[i] == pl {
		return int32(i)
	}
	return -1
}

// greedy places the families that are out in the given order, each on its fitting
// arc that rank prefers (higher is better), when it must be placed or the arc's
// score is positive.
func (e *euPrimal) greedy(order []int32, rank []float64) {
	p := e.p
	for _, ff := range order {
		f := int(ff)
		if e.arc[f] >= 0 {
			continue
		}
		best, bestR := int32(-1), 0.0
		for a := p.famStart[f]; a < p.famStart[f+1]; a++ {
			if !p.must[f] && p.arcScore[a] <= 0 {
				continue
			}
			if r := rank[a]; (best < 0 || r > bestR) && e.fits(f, a) {
				best, bestR = a, r
			}
		}
		if best >= 0 {
			e.set(f, best)
		}
	}
}

// orderBy lists the families, those that must be placed first, then by key
// decreasing (ties by index).
func orderBy(p *prob, key []float64) []int32 {
	order := make([]int32, p.n)
	for f := range order {
		order[f] = int32(f)
	}
	slices.SortStableFunc(order, func(x, y int32) int {
		if p.must[x] != p.must[y] {
			if p.must[x] {
				return -1
			}
			return 1
		}
		return cmp.Compare(key[y], key[x])
	})
	return order
}

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

// chains is a local search by short chains of moves, judged on the true scores:
// a family f moves to a better arc (by reduced score) — directly when it fits, or
// displacing one family g to g's best fitting alternative — and then the room f
// left at its old place is filled by the family that gains most there, whose own
// old place is filled in turn, up to depth moves; the best prefix of the chain is
// kept when it gains. arcs(f) are f's candidate arcs, red the reduced scores,
// want[pl] the (family, arc) pairs of the candidates at place pl.
type chainSearch struct {
	e      *euPrimal
	red    []float64
	arcs   func(f int) []int32
	wStart []int32
	wArc   []int32 // candidate arcs by place
	log    []chainMove
	mark   []int32 // per family: chain stamp
	stamp  int32
	depth  int

	v0, best  float64
	bestSeq   []chainMove // the best chain found: each family's arc after it
	pullPl    int32
	pullBound float64
	anyArc    bool // roots may take any candidate arc, not only better reduced ones
	pulls     []pullCand
}

type chainMove struct {
	f    int32
	from int32
}

func newChainSearch(e *euPrimal, red []float64, cs, ca []int32, depth int) *chainSearch {
	p := e.p
	np := len(e.at)
	c := &chainSearch{e: e, red: red, depth: depth, mark: make([]int32, p.n),
		arcs: func(f int) []int32 { return ca[cs[f]:cs[f+1]] }}
	c.wStart, c.wArc = arcsByPlace(p, np, ca)
	return c
}

func (c *chainSearch) apply(f int, b int32) {
	c.log = append(c.log, chainMove{int32(f), c.e.arc[f]})
	c.mark[f] = c.stamp
	c.e.set(f, b)
}

func (c *chainSearch) rollback(to int) {
	for i := len(c.log) - 1; i >= to; i-- {
		c.e.set(int(c.log[i].f), c.log[i].from)
	}
	c.log = c.log[:to]
}

// pull fills the room at place pl, then at the place the filler left, and so on.
// It returns with the chain applied; the caller keeps the best prefix.
func (c *chainSearch) pull(pl int32, v0 float64, best *float64, bestLen *int) {
	e, p := c.e, c.e.p
	for d := 0; d < 2 && pl >= 0; d++ {
		bh, bx, bg := -1, int32(-1), math.Inf(-1)
		for _, x := range c.wArc[c.wStart[pl]:c.wStart[pl+1]] {
			h := int(p.arcFam[x])
			if c.mark[h] == c.stamp || e.arc[h] == x {
				continue
			}
			g := p.arcScore[x] - e.score(e.arc[h])
			if g > bg && e.fits(h, x) {
				bh, bx, bg = h, x, g
			}
		}
		if bh < 0 {
			return
		}
		old := e.arc[bh]
		c.apply(bh, bx)
		if v := e.value - v0; v > *best {
			*best, *bestLen = v, len(c.log)
		}
		pl = -1
		if old >= 0 {
			pl = p.arcPlace[old]
		}
	}
}

// run tries chains rooted at each family of fams; it returns the gain.
func (c *chainSearch) run(fams []int32) float64 {
	e, p := c.e, c.e.p
	total := 0.0
	for i, ff := range fams {
		if i%64 == 63 && e.stopped() {
			break
		}
		f := int(ff)
		a := e.arc[f]
		if a >= 0 && !e.fits(f, -1) {
			continue
		}
		ra := 0.0
		var aPl int32 = -1
		if a >= 0 {
			ra, aPl = c.red[a], p.arcPlace[a]
		}
		c.stamp++
		c.best, c.bestSeq = 1e-9, c.bestSeq[:0]
		c.v0 = e.value
		c.pullPl = aPl
		c.pullList(aPl)
		c.apply(f, -1)
		c.settle(f, c.depth, func(y int32) bool { return c.anyArc || c.red[y] > ra+1e-12 })
		c.rollback(0)
		if len(c.bestSeq) > 0 {
			for _, m := range c.bestSeq {
				e.set(int(m.f), m.from)
			}
			total += c.best
		}
	}
	return total
}

// settle places family x, which the chain has taken out, on one of its arcs that
// ok accepts: where it fits, or displacing one family there (which is settled in
// turn, depth permitting), or leaves it out if it need not be placed.
func (c *chainSearch) settle(x int, depth int, ok func(y int32) bool) {
	e, p := c.e, c.e.p
	if !p.must[x] {
		c.leaf()
	}
	if depth == 0 {
		return
	}
	bound := e.value - c.v0 + c.pullBound + e.bestScore(x)
	if bound <= c.best {
		return
	}
	for _, y := range c.arcs(x) {
		if !ok(y) || e.value-c.v0+c.pullBound+p.arcScore[y] <= c.best {
			continue
		}
		if e.fits(x, y) {
			m := len(c.log)
			c.apply(x, y)
			c.leaf()
			c.rollback(m)
			continue
		}
		if depth == 1 {
			continue
		}
		e.blocking(x, y)
		yPl := p.arcPlace[y]
		// The families at y's place that would make room, those losing least
		// first (their score less their best score), at most 3.
		var gs [3]int
		var gl [3]float64
		n := 0
		for _, gg := range e.at[yPl] {
			g := int(gg)
			if c.mark[g] == c.stamp {
				continue
			}
			covers := true
			for i, k := range e.blk {
				if p.coef(g, p.rowDim[k]) < e.blkBy[i]-tolLoad {
					covers = false
					break
				}
			}
			if !covers {
				continue
			}
			l := e.score(e.arc[g]) - e.bestScore(g)
			if n < len(gs) {
				gs[n], gl[n] = g, l
				n++
			} else if l < gl[n-1] {
				gs[n-1], gl[n-1] = g, l
			} else {
				continue
			}
			for i := n - 1; i > 0 && gl[i] < gl[i-1]; i-- {
				gs[i], gs[i-1], gl[i], gl[i-1] = gs[i-1], gs[i], gl[i-1], gl[i]
			}
		}
		for i := range n {
			g := gs[i]
			if !e.fits(g, -1) {
				continue
			}
			m := len(c.log)
			c.apply(g, -1)
			if e.fits(x, y) {
				c.apply(x, y)
				c.settle(g, depth-1, func(z int32) bool { return p.arcPlace[z] != yPl })
			}
			c.rollback(m)
		}
	}
}

// leaf scores the chain as it stands, then with the room left at the root's old
// place filled (pull), and records the best.
func (c *chainSearch) leaf() {
	e, p := c.e, c.e.p
	v := e.value - c.v0
	if v > c.best {
		c.record(v)
	}
	// Fill the root's old place: the first family of the list (by gain) that fits.
	for _, x := range c.pulls {
		h := int(p.arcFam[x.arc])
		if v+x.gain <= c.best {
			break
		}
		if c.mark[h] == c.stamp || e.arc[h] != x.from || !e.fits(h, x.arc) {
			continue
		}
		m := len(c.log)
		c.apply(h, x.arc)
		c.record(e.value - c.v0)
		c.rollback(m)
		break
	}
}

// pullList lists the families that could move into place pl with a gain, best
// gain first, at most 16.
func (c *chainSearch) pullList(pl int32) {
	c.pulls = c.pulls[:0]
	if pl < 0 {
		return
	}
	e, p := c.e, c.e.p
	for _, x := range c.wArc[c.wStart[pl]:c.wStart[pl+1]] {
		h := int(p.arcFam[x])
		cur := e.arc[h]
		if cur == x {
			continue
		}
		if g := p.arcScore[x] - e.score(cur); g > 0 {
			c.pulls = append(c.pulls, pullCand{arc: x, from: cur, gain: g})
		}
	}
	slices.SortFunc(c.pulls, func(a, b pullCand) int {
		if c := cmp.Compare(b.gain, a.gain); c != 0 {
			return c
		}
		return cmp.Compare(a.arc, b.arc)
	})
	if len(c.pulls) > 16 {
		c.pulls = c.pulls[:16]
	}
	c.pullBound = 0
	if len(c.pulls) > 0 {
		c.pullBound = c.pulls[0].gain
	}
}

type pullCand struct {
	arc, from int32
	gain      float64
}

// record keeps the chain as applied (its moves, to replay) as the best.
func (c *chainSearch) record(v float64) {
	c.best = v
	c.bestSeq = c.bestSeq[:0]
	for _, m := range c.log {
		c.bestSeq = append(c.bestSeq, chainMove{m.f, c.e.arc[m.f]})
	}
}

// classChains improves by augmenting paths among families of one need class
// (families with the same needs fit in each other's room): a family moves into a
// place with room, another of the class takes the room it left, and so on, the
// last leaving room behind or coming in from out. Along a chain only the first
// place gains a family and only the last loses one, so the whole chain holds when
// its first move fits (and no minimum is left short by the last). The best chain of
// each class is found by label-correcting over the places (at most maxLen moves),
// on the candidate arcs; chains are applied while they gain. It returns the gain.
func (e *euPrimal) classChains(arcs func(f int) []int32, maxLen int, budget int) float64 {
	p := e.p
	D := p.D
	// Classes: families with identical needs, largest classes first.
	type class struct {
		need []float64
		fams []int32
	}
	byKey := map[string]int{}
	var classes []class
	key := make([]byte, 0, 8*D)
	for f := range p.n {
		key = key[:0]
		for _, x := range p.need[f*D : (f+1)*D] {
			key = append(key, byte(int(x)), byte(int(x)>>8))
		}
		i, ok := byKey[string(key)]
		if !ok {
			i = len(classes)
			byKey[string(key)] = i
			classes = append(classes, class{need: p.need[f*D : (f+1)*D]})
		}
		classes[i].fams = append(classes[i].fams, int32(f))
	}
	slices.SortStableFunc(classes, func(a, b class) int { return len(b.fams) - len(a.fams) })
	np := len(e.at)
	label := make([]float64, np)
	plen := make([]int32, np)
	pred := make([]int32, np) // the arc whose family moved out of the place into the arc's place
	room := make([]bool, np)
	total := 0.0
	for _, c := range classes {
		if len(c.fams) < 2 {
			break
		}
		rep := int(c.fams[0])
		for budget > 0 {
			if e.stopped() {
				return total
			}
			// Places with room for one more of the class.
			for pl := range np {
				room[pl] = e.roomFor(rep, int32(pl))
				label[pl] = math.Inf(-1)
				pred[pl] = -1
				if room[pl] {
					label[pl] = 0
					plen[pl] = 0
				}
			}
			bestG, bestEnd, bestIn := 1e-9, int32(-1), int32(-1) // end place, or entering arc
			for range maxLen {
				changed := false
				for _, ff := range c.fams {
					h := int(ff)
					cur := e.arc[h]
					for _, x := range arcs(h) {
						budget--
						X := p.arcPlace[x]
						if x == cur || math.IsInf(label[X], -1) || int(plen[X]) >= maxLen {
							continue
						}
						g := label[X] + p.arcScore[x] - e.score(cur)
						if cur < 0 {
							if g > bestG {
								bestG, bestEnd, bestIn = g, -1, x
							}
							continue
						}
						Y := p.arcPlace[cur]
						if Y != X && g > label[Y]+1e-12 {
							label[Y], pred[Y], plen[Y] = g, x, plen[X]+1
							changed = true
						}
					}
				}
				if !changed {
					break
				}
			}
			for pl := range np {
				if label[pl] > bestG && pred[pl] >= 0 {
					bestG, bestEnd, bestIn = label[pl], int32(pl), -1
				}
			}
			if bestEnd < 0 && bestIn < 0 {
				break
			}
			// The chain, from its last move back to the first.
			var moves []int32 // arcs: each family moves to its arc
			at := bestEnd
			if bestIn >= 0 {
				moves = append(moves, bestIn)
				at = p.arcPlace[bestIn]
			}
			ok := true
			for steps := 0; at >= 0 && pred[at] >= 0; steps++ {
				if steps > maxLen+1 {
					ok = false
					break
				}
				x := pred[at]
				moves = append(moves, x)
				at = p.arcPlace[x]
			}
			if !ok || len(moves) == 0 {
				break
			}
			// Apply from the first move (into the place with room) on.
			v0 := e.value
			var undo []chainMove
			for i := len(moves) - 1; i >= 0; i-- {
				h := int(p.arcFam[moves[i]])
				if !e.fits(h, moves[i]) || slices.ContainsFunc(undo, func(m chainMove) bool { return int(m.f) == h }) {
					ok = false
					break
				}
				undo = append(undo, chainMove{int32(h), e.arc[h]})
				e.set(h, moves[i])
			}
			if !ok || e.value <= v0+1e-9 {
				for i := len(undo) - 1; i >= 0; i-- {
					e.set(int(undo[i].f), undo[i].from)
				}
				break
			}
			total += e.value - v0
		}
	}
	return total
}

// roomFor says whether place pl has room for one more family with f's needs.
func (e *euPrimal) roomFor(f int, pl int32) bool {
	p := e.p
	for _, k := range e.plRows[pl] {
		if c := p.coef(f, p.rowDim[k]); c > 0 && e.used[k]+c > p.rowHi[k]+tolLoad {
			return false
		}
	}
	return true
}

// covers says whether family g leaving its place frees at least the excess that
// blocking found in each blocked row.
func (e *euPrimal) covers(g int) bool {
	p := e.p
	for i, k := range e.blk {
		if p.coef(g, p.rowDim[k]) < e.blkBy[i]-tolLoad {
			return false
		}
	}
	return true
}

// arcsByPlace lists the arcs ca by place (CSR over np places: place pl's are
// arcs[start[pl]:start[pl+1]], in the order of ca).
func arcsByPlace(p *prob, np int, ca []int32) (start, arcs []int32) {
	start = make([]int32, np+1)
	for _, a := range ca {
		start[p.arcPlace[a]+1]++
	}
	for i := 1; i <= np; i++ {
		start[i] += start[i-1]
	}
	arcs = make([]int32, len(ca))
	pos := slices.Clone(start[:np])
	for _, a := range ca {
		pl := p.arcPlace[a]
		arcs[pos[pl]] = a
		pos[pl]++
	}
	return start, arcs
}

package lagrange

import (
	"cmp"
	"math"
	"slices"

	"solidarity/match/internal/solver"
)

// chains is a local search by short chains of moves, judged on the true scores:
// a family f moves to a better arc (by reduced score) — directly when it fits, or
// displacing one family g to g's best fitting alternative — and then the room f
// left at its old place is filled by the family that gains most there, whose own
// old place is filled in turn, up to depth moves; the best prefix of the chain is
// kept when it gains. arcs(f) are f's candidate arcs, red the reduced scores,
// want[pl] the (family, arc) pairs of the candidates at place pl.
type chainSearch struct {
	e      *primal
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

func newChainSearch(e *primal, red []float64, cs, ca []int32, depth int) *chainSearch {
	p := e.P
	np := len(e.At)
	c := &chainSearch{e: e, red: red, depth: depth, mark: make([]int32, p.N),
		arcs: func(f int) []int32 { return ca[cs[f]:cs[f+1]] }}
	c.wStart, c.wArc = arcsByPlace(p, np, ca)
	return c
}

func (c *chainSearch) apply(f int, b int32) {
	c.log = append(c.log, chainMove{int32(f), c.e.Arc[f]})
	c.mark[f] = c.stamp
	c.e.Set(f, b)
}

func (c *chainSearch) rollback(to int) {
	for i := len(c.log) - 1; i >= to; i-- {
		c.e.Set(int(c.log[i].f), c.log[i].from)
	}
	c.log = c.log[:to]
}

// run tries chains rooted at each family of fams; it returns the gain.
func (c *chainSearch) run(fams []int32) float64 {
	e, p := c.e, c.e.P
	total := 0.0
	for i, ff := range fams {
		if i%64 == 63 && e.Stopped() {
			break
		}
		f := int(ff)
		a := e.Arc[f]
		if a >= 0 && !e.Fits(f, -1) {
			continue
		}
		ra := 0.0
		var aPl int32 = -1
		if a >= 0 {
			ra, aPl = c.red[a], p.ArcPlace[a]
		}
		c.stamp++
		c.best, c.bestSeq = 1e-9, c.bestSeq[:0]
		c.v0 = e.Value
		c.pullPl = aPl
		c.pullList(aPl)
		c.apply(f, -1)
		c.settle(f, c.depth, func(y int32) bool { return c.anyArc || c.red[y] > ra+1e-12 })
		c.rollback(0)
		if len(c.bestSeq) > 0 {
			for _, m := range c.bestSeq {
				e.Set(int(m.f), m.from)
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
	e, p := c.e, c.e.P
	if !p.Must[x] {
		c.leaf()
	}
	if depth == 0 {
		return
	}
	bound := e.Value - c.v0 + c.pullBound + e.bestScore(x)
	if bound <= c.best {
		return
	}
	for _, y := range c.arcs(x) {
		if !ok(y) || e.Value-c.v0+c.pullBound+p.ArcScore[y] <= c.best {
			continue
		}
		if e.Fits(x, y) {
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
		yPl := p.ArcPlace[y]
		// The families at y's place that would make room, those losing least
		// first (their score less their best score), at most 3.
		var gs [3]int
		var gl [3]float64
		n := 0
		for _, gg := range e.At[yPl] {
			g := int(gg)
			if c.mark[g] == c.stamp {
				continue
			}
			covers := true
			for i, k := range e.Blk {
				if p.Coef(g, p.RowDim[k]) < e.BlkBy[i]-solver.TolLoad {
					covers = false
					break
				}
			}
			if !covers {
				continue
			}
			l := e.Score(e.Arc[g]) - e.bestScore(g)
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
			if !e.Fits(g, -1) {
				continue
			}
			m := len(c.log)
			c.apply(g, -1)
			if e.Fits(x, y) {
				c.apply(x, y)
				c.settle(g, depth-1, func(z int32) bool { return p.ArcPlace[z] != yPl })
			}
			c.rollback(m)
		}
	}
}

// leaf scores the chain as it stands, then with the room left at the root's old
// place filled (pull), and records the best.
func (c *chainSearch) leaf() {
	e, p := c.e, c.e.P
	v := e.Value - c.v0
	if v > c.best {
		c.record(v)
	}
	// Fill the root's old place: the first family of the list (by gain) that fits.
	for _, x := range c.pulls {
		h := int(p.ArcFam[x.arc])
		if v+x.gain <= c.best {
			break
		}
		if c.mark[h] == c.stamp || e.Arc[h] != x.from || !e.Fits(h, x.arc) {
			continue
		}
		m := len(c.log)
		c.apply(h, x.arc)
		c.record(e.Value - c.v0)
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
	e, p := c.e, c.e.P
	for _, x := range c.wArc[c.wStart[pl]:c.wStart[pl+1]] {
		h := int(p.ArcFam[x])
		cur := e.Arc[h]
		if cur == x {
			continue
		}
		if g := p.ArcScore[x] - e.Score(cur); g > 0 {
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
		c.bestSeq = append(c.bestSeq, chainMove{m.f, c.e.Arc[m.f]})
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
func (e *primal) classChains(arcs func(f int) []int32, maxLen int, budget int) float64 {
	p := e.P
	D := p.D
	// Classes: families with identical needs, largest classes first.
	type class struct {
		need []float64
		fams []int32
	}
	byKey := map[string]int{}
	var classes []class
	key := make([]byte, 0, 8*D)
	for f := range p.N {
		key = key[:0]
		for _, x := range p.Need[f*D : (f+1)*D] {
			key = append(key, byte(int(x)), byte(int(x)>>8))
		}
		i, ok := byKey[string(key)]
		if !ok {
			i = len(classes)
			byKey[string(key)] = i
			classes = append(classes, class{need: p.Need[f*D : (f+1)*D]})
		}
		classes[i].fams = append(classes[i].fams, int32(f))
	}
	slices.SortStableFunc(classes, func(a, b class) int { return len(b.fams) - len(a.fams) })
	np := len(e.At)
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
			if e.Stopped() {
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
					cur := e.Arc[h]
					for _, x := range arcs(h) {
						budget--
						X := p.ArcPlace[x]
						if x == cur || math.IsInf(label[X], -1) || int(plen[X]) >= maxLen {
							continue
						}
						g := label[X] + p.ArcScore[x] - e.Score(cur)
						if cur < 0 {
							if g > bestG {
								bestG, bestEnd, bestIn = g, -1, x
							}
							continue
						}
						Y := p.ArcPlace[cur]
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
				at = p.ArcPlace[bestIn]
			}
			ok := true
			for steps := 0; at >= 0 && pred[at] >= 0; steps++ {
				if steps > maxLen+1 {
					ok = false
					break
				}
				x := pred[at]
				moves = append(moves, x)
				at = p.ArcPlace[x]
			}
			if !ok || len(moves) == 0 {
				break
			}
			// Apply from the first move (into the place with room) on.
			v0 := e.Value
			var undo []chainMove
			for i := len(moves) - 1; i >= 0; i-- {
				h := int(p.ArcFam[moves[i]])
				if !e.Fits(h, moves[i]) || slices.ContainsFunc(undo, func(m chainMove) bool { return int(m.f) == h }) {
					ok = false
					break
				}
				undo = append(undo, chainMove{int32(h), e.Arc[h]})
				e.Set(h, moves[i])
			}
			if !ok || e.Value <= v0+1e-9 {
				for i := len(undo) - 1; i >= 0; i-- {
					e.Set(int(undo[i].f), undo[i].from)
				}
				break
			}
			total += e.Value - v0
		}
	}
	return total
}

// roomFor says whether place pl has room for one more family with f's needs.
func (e *primal) roomFor(f int, pl int32) bool {
	p := e.P
	for _, k := range e.PlRows[pl] {
		if c := p.Coef(f, p.RowDim[k]); c > 0 && e.Used[k]+c > p.RowHi[k]+solver.TolLoad {
			return false
		}
	}
	return true
}

// covers says whether family g leaving its place frees at least the excess that
// blocking found in each blocked row.
func (e *primal) covers(g int) bool {
	p := e.P
	for i, k := range e.Blk {
		if p.Coef(g, p.RowDim[k]) < e.BlkBy[i]-solver.TolLoad {
			return false
		}
	}
	return true
}

// arcsByPlace lists the arcs ca by place (CSR over np places: place pl's are
// arcs[start[pl]:start[pl+1]], in the order of ca).
func arcsByPlace(p *solver.Prob, np int, ca []int32) (start, arcs []int32) {
	start = make([]int32, np+1)
	for _, a := range ca {
		start[p.ArcPlace[a]+1]++
	}
	for i := 1; i <= np; i++ {
		start[i] += start[i-1]
	}
	arcs = make([]int32, len(ca))
	pos := slices.Clone(start[:np])
	for _, a := range ca {
		pl := p.ArcPlace[a]
		arcs[pos[pl]] = a
		pos[pl]++
	}
	return start, arcs
}

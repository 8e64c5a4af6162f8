package solver

import (
	"cmp"
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

package solver

import (
	"cmp"
	"slices"
	"sort"
)

// Assignment is an assignment of families to arcs, shared by the methods (the exact
// method's heuristics and the Lagrangian method's local search), with what the local
// search needs to be fast: the coupling rows of each place (capacity checks merge two short
// sorted lists), the families at each place (whom to move out of the way).
type Assignment struct {
	P      *Prob
	PlRows [][]int32 // per place: its coupling rows (< K0), ascending
	Arc    []int32   // per family: its arc, or -1
	Used   []float64 // per row
	Value  float64
	At     [][]int32 // per place: the families there
	Pos    []int32   // per family: index in at[its place]

	Delta   []float64 // scratch per row
	Touched []int32
	Blk     []int32
	BlkBy   []float64
	Stop    func() bool // when it returns true, searches end early (a time limit)
	Best    []float64   // per family: its best score (bestScore)
	Ver     []uint32    // per place: changes of its families (repack skips places that did not change)
}

func NewAssignment(p *Prob) *Assignment {
	m := p.M
	e := &Assignment{P: p, PlRows: make([][]int32, len(m.Places)), Arc: make([]int32, p.N),
		Used: make([]float64, p.K0), At: make([][]int32, len(m.Places)), Pos: make([]int32, p.N),
		Delta: make([]float64, p.K0), Ver: make([]uint32, len(m.Places))}
	for k := range p.K0 {
		var pls []int
		switch p.RowKind[k] {
		case RowPlace:
			pls = []int{int(p.RowRef[k])}
		case RowGroup:
			pls = m.Groups[p.RowRef[k]].Places
		case RowMin:
			pls = m.Mins[p.RowRef[k]].Places
		}
		for _, pl := range pls {
			// A place listed twice in a row counts twice, as in the model.
			e.PlRows[pl] = append(e.PlRows[pl], int32(k))
		}
	}
	for f := range e.Arc {
		e.Arc[f] = -1
	}
	return e
}

func (e *Assignment) Stopped() bool { return e.Stop != nil && e.Stop() }

func (e *Assignment) Reset() {
	for f := range e.Arc {
		e.Arc[f] = -1
	}
	clear(e.Used)
	e.Value = 0
	for pl := range e.At {
		e.At[pl] = e.At[pl][:0]
		e.Ver[pl]++
	}
}

func (e *Assignment) Clone() *Assignment {
	c := *e
	c.Arc = slices.Clone(e.Arc)
	c.Used = slices.Clone(e.Used)
	c.Pos = slices.Clone(e.Pos)
	c.At = make([][]int32, len(e.At))
	for pl := range e.At {
		c.At[pl] = slices.Clone(e.At[pl])
	}
	c.Delta = make([]float64, len(e.Delta))
	c.Ver = make([]uint32, len(e.Ver))
	c.Touched = nil
	return &c
}

func (e *Assignment) CopyFrom(o *Assignment) {
	copy(e.Arc, o.Arc)
	copy(e.Used, o.Used)
	copy(e.Pos, o.Pos)
	e.Value = o.Value
	for pl := range e.At {
		e.At[pl] = append(e.At[pl][:0], o.At[pl]...)
		e.Ver[pl]++
	}
}

func (e *Assignment) RowsOf(a int32) []int32 {
	if a < 0 {
		return nil
	}
	return e.PlRows[e.P.ArcPlace[a]]
}

func (e *Assignment) Score(a int32) float64 {
	if a < 0 {
		return 0
	}
	return e.P.ArcScore[a]
}

// Fits says whether family f may move from its arc to arc b (-1: out) without
// breaking a capacity or taking a minimum further below its bound. Moves that fit
// keep every capacity, so an assignment is feasible as soon as the families that
// must be placed are and the minimums are met.
func (e *Assignment) Fits(f int, b int32) bool {
	a := e.Arc[f]
	if a == b {
		return true
	}
	p := e.P
	ra, rb := e.RowsOf(a), e.RowsOf(b)
	leaving := func(k int32) bool {
		// A row the family has no coefficient in does not change.
		if p.RowKind[k] != RowMin {
			return true
		}
		c := p.Coef(f, p.RowDim[k])
		return c == 0 || e.Used[k]-c >= p.RowLo[k]-TolLoad
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
		if c := p.Coef(f, p.RowDim[k]); c > 0 && e.Used[k]+c > p.RowHi[k]+TolLoad {
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

// Set moves f to arc b without checks.
func (e *Assignment) Set(f int, b int32) {
	p := e.P
	a := e.Arc[f]
	if a == b {
		return
	}
	if a >= 0 {
		for _, k := range e.RowsOf(a) {
			e.Used[k] -= p.Coef(f, p.RowDim[k])
		}
		e.Value -= p.ArcScore[a]
		pl := p.ArcPlace[a]
		e.Ver[pl]++
		list := e.At[pl]
		i := e.Pos[f]
		last := list[len(list)-1]
		list[i] = last
		e.Pos[last] = i
		e.At[pl] = list[:len(list)-1]
	}
	if b >= 0 {
		for _, k := range e.RowsOf(b) {
			e.Used[k] += p.Coef(f, p.RowDim[k])
		}
		e.Value += p.ArcScore[b]
		pl := p.ArcPlace[b]
		e.Ver[pl]++
		e.Pos[f] = int32(len(e.At[pl]))
		e.At[pl] = append(e.At[pl], int32(f))
	}
	e.Arc[f] = b
}

func (e *Assignment) Feasible() bool {
	p := e.P
	for f, a := range e.Arc {
		if a < 0 && p.Must[f] {
			return false
		}
	}
	for k, u := range e.Used {
		if u > p.RowHi[k]+TolLoad || u < p.RowLo[k]-TolLoad {
			return false
		}
	}
	return true
}

// Places is the assignment in model places.
func (e *Assignment) Places() []int {
	out := make([]int, len(e.Arc))
	for f, a := range e.Arc {
		out[f] = -1
		if a >= 0 {
			out[f] = int(e.P.ArcPlace[a])
		}
	}
	return out
}

// ArcAt is f's arc to place pl, or -1 (arcs are in increasing place order).
func (e *Assignment) ArcAt(f int, pl int32) int32 {
	p := e.P
	lo, hi := int(p.FamStart[f]), int(p.FamStart[f+1])
	i := lo + sort.Search(hi-lo, func(i int) bool { return p.ArcPlace[lo+i] >= pl })
	if i < hi && p.ArcPlace[i] == pl {
		return int32(i)
	}
	return -1
}

// Greedy places the families that are out in the given order, each on its fitting
// arc that rank prefers (higher is better), when it must be placed or the arc's
// score is positive.
func (e *Assignment) Greedy(order []int32, rank []float64) {
	p := e.P
	for _, ff := range order {
		f := int(ff)
		if e.Arc[f] >= 0 {
			continue
		}
		best, bestR := int32(-1), 0.0
		for a := p.FamStart[f]; a < p.FamStart[f+1]; a++ {
			if !p.Must[f] && p.ArcScore[a] <= 0 {
				continue
			}
			if r := rank[a]; (best < 0 || r > bestR) && e.Fits(f, a) {
				best, bestR = a, r
			}
		}
		if best >= 0 {
			e.Set(f, best)
		}
	}
}

// OrderBy lists the families, those that must be placed first, then by key
// decreasing (ties by index).
func OrderBy(p *Prob, key []float64) []int32 {
	order := make([]int32, p.N)
	for f := range order {
		order[f] = int32(f)
	}
	slices.SortStableFunc(order, func(x, y int32) int {
		if p.Must[x] != p.Must[y] {
			if p.Must[x] {
				return -1
			}
			return 1
		}
		return cmp.Compare(key[y], key[x])
	})
	return order
}

// FromPlaces loads an assignment by model place (a previous solution): placements
// that are no longer arcs are dropped, then, in each overfull row, the families
// that need not be placed and score least leave first, until every capacity holds
// It reports whether the result is feasible as it stands.
func (e *Assignment) FromPlaces(place []int) bool {
	p := e.P
	e.Reset()
	for f := range min(len(place), p.N) {
		if place[f] < 0 {
			continue
		}
		if a := e.ArcAt(f, int32(place[f])); a >= 0 {
			e.Set(f, a)
		}
	}
	var in []int
	for k := range p.K0 {
		if e.Used[k] <= p.RowHi[k]+TolLoad {
			continue
		}
		in = in[:0]
		for f, a := range e.Arc {
			if a >= 0 && p.Coef(f, p.RowDim[k]) != 0 && slices.Contains(e.RowsOf(a), int32(k)) {
				in = append(in, f)
			}
		}
		slices.SortStableFunc(in, func(x, y int) int {
			if p.Must[x] != p.Must[y] {
				if p.Must[x] {
					return 1
				}
				return -1
			}
			return cmp.Compare(p.ArcScore[e.Arc[x]], p.ArcScore[e.Arc[y]])
		})
		for _, f := range in {
			if e.Used[k] <= p.RowHi[k]+TolLoad {
				break
			}
			e.Set(f, -1)
		}
	}
	return e.Feasible()
}

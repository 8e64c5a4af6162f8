package lagrange

import (
	"cmp"
	"math"
	"slices"

	"solidarity/match/internal/knapsack"
	"solidarity/match/internal/solver"
)

// repack re-chooses, place by place, which families a small place takes, exactly:
// a 0/1 knapsack over the place's capacities whose items are the families there
// (worth their score there less their best fitting alternative elsewhere, or out)
// and the families that could come in (worth their score there less their current
// one). Most of what the relaxation and the integer assignments differ by sits in
// small places, whose room a few large families fill badly and the single moves,
// ejections and chains change one family at a time; the knapsack tries every
// subset. Places whose dynamic program would exceed repackStates capacity states
// are left to the other moves. A place's new choice is kept only when the whole
// change, made move by move with every row checked, gains.
const (
	repackStates  = 1024 // capacity states of a place's dynamic program at most
	repackEnter   = 24   // families that could come in, at most (best gains)
	repackMaxItem = 64
)

type repacker struct {
	e      *primal
	arcs   func(f int) []int32 // each family's candidate arcs
	wStart []int32             // candidate arcs by place (CSR)
	wArc   []int32

	rows   []int32 // the place's capacity rows
	stride []int
	capv   []int
	wv     []int    // an item's weight, as the dynamic program takes it
	seen   []uint32 // per place: its version when last repacked, +1 (0: never)
	items  []repackItem
	tab    []float64
	take   []bool
	undo   []chainMove
}

type repackItem struct {
	f      int32
	arc    int32 // the family's arc at the place
	member bool  // there now
	alt    int32 // members: best fitting alternative (-1 out)
	profit float64
	w      []int32
}

func newRepacker(e *primal, cs, ca []int32) *repacker {
	p := e.P
	r := &repacker{e: e, arcs: func(f int) []int32 { return ca[cs[f]:cs[f+1]] }}
	r.wStart, r.wArc = arcsByPlace(p, len(e.At), ca)
	return r
}

// run repacks every small place once, in place order, but those whose families did
// not change since they were last repacked; it returns the gain.
func (r *repacker) run() float64 {
	e := r.e
	if r.seen == nil {
		r.seen = make([]uint32, len(e.At))
	}
	total := 0.0
	for pl := range e.At {
		if pl%64 == 63 && e.Stopped() {
			break
		}
		if r.seen[pl] == e.Ver[pl]+1 {
			continue
		}
		total += r.place(int32(pl))
		r.seen[pl] = e.Ver[pl] + 1
	}
	return total
}

// altOf is family g's best fitting arc among its candidates away from place pl, or
// out (-1) when it need not be placed; ok false when there is none.
func (r *repacker) altOf(g int, pl int32) (alt int32, s float64, ok bool) {
	e, p := r.e, r.e.P
	alt, s = -1, math.Inf(-1)
	if !p.Must[g] && e.Fits(g, -1) {
		s, ok = 0, true
	}
	for _, a := range r.arcs(g) {
		if p.ArcPlace[a] != pl && p.ArcScore[a] > s && e.Fits(g, a) {
			alt, s, ok = a, p.ArcScore[a], true
		}
	}
	return alt, s, ok
}

func (r *repacker) place(pl int32) float64 {
	e, p := r.e, r.e.P
	// The place's capacity rows and the dynamic program's states.
	r.rows, r.stride, r.capv = r.rows[:0], r.stride[:0], r.capv[:0]
	states := 1
	for _, k := range e.PlRows[pl] {
		if p.RowKind[k] != solver.RowPlace {
			continue
		}
		c := int(math.Floor(p.RowHi[k] + solver.TolLoad))
		if states*(c+1) > repackStates {
			return 0
		}
		r.rows = append(r.rows, k)
		r.stride = append(r.stride, states)
		r.capv = append(r.capv, c)
		states *= c + 1
	}
	if len(r.rows) == 0 {
		return 0
	}
	weight := func(f int) []int32 {
		w := make([]int32, len(r.rows))
		for i, k := range r.rows {
			w[i] = int32(p.Coef(f, p.RowDim[k]))
		}
		return w
	}
	// Items: the families there, then the best of those that could come in.
	r.items = r.items[:0]
	for _, gg := range e.At[pl] {
		g := int(gg)
		alt, s, ok := r.altOf(g, pl)
		if !ok {
			s = -1e9 // must stay
		}
		r.items = append(r.items, repackItem{f: gg, arc: e.Arc[g], member: true, alt: alt, profit: p.ArcScore[e.Arc[g]] - s, w: weight(g)})
	}
	nm := len(r.items)
	for _, x := range r.wArc[r.wStart[pl]:r.wStart[pl+1]] {
		h := int(p.ArcFam[x])
		cur := e.Arc[h]
		if cur == x {
			continue
		}
		if g := p.ArcScore[x] - e.Score(cur); g > 1e-12 && (cur < 0 || e.Fits(h, -1)) {
			r.items = append(r.items, repackItem{f: int32(h), arc: x, alt: -1, profit: g})
		}
	}
	if len(r.items) == nm {
		return 0
	}
	ent := r.items[nm:]
	slices.SortFunc(ent, func(a, b repackItem) int {
		if c := cmp.Compare(b.profit, a.profit); c != 0 {
			return c
		}
		return cmp.Compare(a.f, b.f)
	})
	r.items = r.items[:nm+min(len(ent), repackEnter, repackMaxItem-nm)]
	if nm >= repackMaxItem {
		return 0
	}
	for i := nm; i < len(r.items); i++ {
		r.items[i].w = weight(int(r.items[i].f))
	}
	// The knapsack, every row kept for the choice ("at most" semantics).
	nd := len(r.rows)
	n := len(r.items)
	r.tab = slices.Grow(r.tab[:0], (n+1)*states)[:(n+1)*states]
	r.take = slices.Grow(r.take[:0], n*states)[:n*states]
	clear(r.tab[:states])
	sp := knapsack.Space{Caps: r.capv, Stride: r.stride, States: states}
	r.wv = slices.Grow(r.wv[:0], nd)[:nd]
	for i, it := range r.items {
		prev, cur := r.tab[i*states:(i+1)*states], r.tab[(i+1)*states:(i+2)*states]
		tk := r.take[i*states : (i+1)*states]
		copy(cur, prev)
		clear(tk)
		if it.profit <= 0 {
			continue
		}
		for d, w := range it.w {
			r.wv[d] = int(w)
		}
		// Taken only when it gains more than rounding.
		sp.Step(r.wv, sp.Offset(r.wv), it.profit, 1e-12, prev, cur, tk, r.capv)
	}
	// The current choice's worth: the members' profits (they fit as they are).
	now := 0.0
	for _, it := range r.items[:nm] {
		now += it.profit
	}
	if r.tab[n*states+states-1] <= now+1e-9 {
		return 0
	}
	// The new choice, from the last item back.
	chosen := make([]bool, n)
	off := func(i int) int {
		o := 0
		for d, w := range r.items[i].w {
			o += int(w) * r.stride[d]
		}
		return o
	}
	sp.Trace(r.take, n, states-1, off, func(i int) { chosen[i] = true })
	// Apply: leavers out, entrants in, leavers to their best fitting place.
	v0 := e.Value
	r.undo = r.undo[:0]
	set := func(f int, a int32) {
		r.undo = append(r.undo, chainMove{int32(f), e.Arc[f]})
		e.Set(f, a)
	}
	ok := true
	for i, it := range r.items[:nm] {
		if !chosen[i] {
			if !e.Fits(int(it.f), -1) {
				ok = false
				break
			}
			set(int(it.f), -1)
		}
	}
	for i := nm; ok && i < n; i++ {
		if chosen[i] {
			h := int(r.items[i].f)
			if !e.Fits(h, r.items[i].arc) {
				ok = false
				break
			}
			set(h, r.items[i].arc)
		}
	}
	for i := 0; ok && i < nm; i++ {
		if !chosen[i] {
			g := int(r.items[i].f)
			alt, _, fits := r.altOf(g, pl)
			if !fits {
				ok = false
				break
			}
			set(g, alt)
		}
	}
	if !ok || e.Value <= v0+1e-9 {
		for i := len(r.undo) - 1; i >= 0; i-- {
			e.Set(int(r.undo[i].f), r.undo[i].from)
		}
		return 0
	}
	return e.Value - v0
}

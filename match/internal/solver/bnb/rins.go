package bnb

import (
	"math"

	"solidarity/match/internal/solver"
)

// Relaxation-induced neighbourhood search (RINS): the families on which the
// incumbent and an LP solution agree keep their place, and the others are placed
// again by a branch-and-bound of their own over the capacity left, limited in
// nodes (not time, so that the answer stays deterministic). On HIAS model A the
// plain search dives for minutes without finding the optimum that this
// neighbourhood holds; once it is known, the proof takes seconds.
//
// Only for models whose rows are place capacities (no groups, no minimums): the
// sub-model is then the same kind of model with smaller capacities.

const (
	rinsRootNodes = 3000 // nodes of the sub-search at the root
	rinsNodes     = 500  // and of the ones during the search
	rinsMaxGap    = 32   // most search nodes between two of those
	rinsMinFree   = 5    // fewer free families: nothing to gain
	rinsMaxShare  = 0.6  // more than this share of families free: too big a sub-search
)

// rinsTree runs RINS during the search: at first at every node, and after each
// search that found nothing the wait until the next doubles (up to rinsMaxGap);
// a better assignment brings it back to every node. A neighbourhood already
// searched around the same incumbent is skipped. On HIAS model A the searches are
// cheap (about 5 ms each) and find the improvements that the tree would find only
// thousands of nodes later (rinsEvery 1000: 8986 nodes, every node: 1152).
func (b *bnb) rinsTree(x []float64) {
	if b.nodes < b.rinsNext {
		return
	}
	v := b.incVal
	if !b.rins(x, rinsNodes) {
		b.rinsNext = b.nodes + 1
		return
	}
	if b.incVal > v {
		b.rinsWait = 1
	} else {
		b.rinsWait = min(2*max(b.rinsWait, 1), rinsMaxGap)
	}
	b.rinsNext = b.nodes + b.rinsWait
}

// rins runs one neighbourhood search around the incumbent and the LP solution x
// (by column: arcs first), offering what it finds. It reports whether it searched.
func (b *bnb) rins(x []float64, nodes int) bool {
	p := b.p
	m := p.M
	if b.inc == nil || b.method.NodeLimit > 0 || b.method.Methods == nil || len(m.Groups) > 0 || len(m.Mins) > 0 || b.ctx.Err() != nil {
		return false // sub-searches do not nest
	}
	caps := make([][]int64, len(m.Places))
	for pl := range caps {
		caps[pl] = append([]int64(nil), m.Places[pl].Cap...)
	}
	var free []int
	for f := range p.N {
		a := b.inc.Arc[f]
		agree := a >= 0 && x[a] > 1-fracTol
		if a < 0 {
			agree = true
			for o := p.FamStart[f]; o < p.FamStart[f+1]; o++ {
				agree = agree && x[o] < fracTol
			}
		}
		if !agree {
			free = append(free, f)
			continue
		}
		if a >= 0 {
			pl := p.ArcPlace[a]
			for d := range p.D {
				caps[pl][d] -= int64(p.Need[f*p.D+d])
			}
		}
	}
	if len(free) < rinsMinFree || float64(len(free)) > rinsMaxShare*float64(p.N) {
		return false
	}
	// The neighbourhood is fixed by the incumbent and the free families (the arcs
	// fixed out change only with the incumbent): skip one already searched.
	h := uint64(14695981039346656037)
	for _, f := range free {
		h = (h ^ uint64(f)) * 1099511628211
	}
	if b.rinsSeen == nil {
		b.rinsSeen = map[uint64]bool{}
	}
	if b.rinsSeen[h] {
		return false
	}
	b.rinsSeen[h] = true
	sub := &solver.Model{Dims: m.Dims}
	for _, c := range caps {
		sub.Places = append(sub.Places, solver.Place{Cap: c})
	}
	start := make([]int, len(free))
	arcOf := make([][]int32, len(free)) // sub arc i of free family → arc
	old := 0.0
	for i, f := range free {
		fam := solver.Family{Need: m.Families[f].Need, Must: p.Must[f]}
		start[i] = -1
		for a := p.FamStart[f]; a < p.FamStart[f+1]; a++ {
			if b.rootUp[a] == 0 && b.inc.Arc[f] != a {
				continue // fixed out for the whole search
			}
			fam.Arcs = append(fam.Arcs, solver.Arc{Place: int(p.ArcPlace[a]), Score: p.ArcScore[a]})
			arcOf[i] = append(arcOf[i], a)
			if b.inc.Arc[f] == a {
				start[i] = int(p.ArcPlace[a])
				old += p.ArcScore[a]
			}
		}
		sub.Families = append(sub.Families, fam)
	}
	gap := b.opts.Gap
	ms := *b.method.Methods
	ms.Exact = Method{Methods: b.method.Methods, NodeLimit: nodes}
	s, err := ms.Dispatch(b.ctx, sub, solver.Options{Gap: gap, Start: start})
	if err != nil || s.Status == solver.Infeasible || s.Value <= old+1e-9*math.Max(1, math.Abs(old)) {
		return true
	}
	w := b.work
	w.CopyFrom(b.inc)
	for i, f := range free {
		na := int32(-1)
		if s.Place[i] >= 0 {
			for _, a := range arcOf[i] {
				if int(p.ArcPlace[a]) == s.Place[i] {
					na = a
				}
			}
		}
		w.Set(f, na)
	}
	b.offer(w)
	return true
}

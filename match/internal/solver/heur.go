package solver

import (
	"cmp"
	"slices"
)

// packing is an assignment being built or improved by the heuristics: the arc of
// each family and the load of each coupling row. Moves keep every capacity and never
// take a minimum further below its bound, so a packing is feasible as soon as the
// families that must be placed are and the minimums are met.
type packing struct {
	p     *prob
	arc   []int32   // per family: its arc, or -1
	used  []float64 // per coupling row
	value float64

	delta   []float64 // scratch, per row
	touched []int32
}

const tolLoad = 1e-9

func newPacking(p *prob) *packing {
	s := &packing{p: p, arc: make([]int32, p.n), used: make([]float64, p.K0), delta: make([]float64, p.K0)}
	for f := range s.arc {
		s.arc[f] = -1
	}
	return s
}

func (s *packing) copyFrom(o *packing) {
	copy(s.arc, o.arc)
	copy(s.used, o.used)
	s.value = o.value
}

func (s *packing) clone() *packing {
	c := newPacking(s.p)
	c.copyFrom(s)
	return c
}

func (s *packing) score(a int32) float64 {
	if a < 0 {
		return 0
	}
	return s.p.arcScore[a]
}

// fits says whether family f may move from its arc to arc a (-1: out) without
// breaking a capacity or taking a minimum further below its bound.
func (s *packing) fits(f int, a int32) bool {
	p := s.p
	old := s.arc[f]
	if old == a {
		return true
	}
	s.touched = s.touched[:0]
	add := func(arc int32, sign float64) {
		for e := p.cStart[arc]; e < p.cStart[arc+1]; e++ {
			k := p.cRow[e]
			if int(k) >= p.K0 {
				break // cuts come last and are not the heuristics' business
			}
			if s.delta[k] == 0 {
				s.touched = append(s.touched, k)
			}
			s.delta[k] += sign * p.cVal[e]
		}
	}
	if old >= 0 {
		add(old, -1)
	}
	if a >= 0 {
		add(a, 1)
	}
	ok := true
	for _, k := range s.touched {
		dk := s.delta[k]
		s.delta[k] = 0
		if !ok {
			continue
		}
		nu := s.used[k] + dk
		if dk > 0 && nu > p.rowHi[k]+tolLoad {
			ok = false
		}
		if dk < 0 && nu < p.rowLo[k]-tolLoad {
			ok = false
		}
	}
	return ok
}

// set moves family f to arc a (-1: out), without checks.
func (s *packing) set(f int, a int32) {
	p := s.p
	if old := s.arc[f]; old >= 0 {
		for e := p.cStart[old]; e < p.cStart[old+1] && int(p.cRow[e]) < p.K0; e++ {
			s.used[p.cRow[e]] -= p.cVal[e]
		}
		s.value -= p.arcScore[old]
	}
	if a >= 0 {
		for e := p.cStart[a]; e < p.cStart[a+1] && int(p.cRow[e]) < p.K0; e++ {
			s.used[p.cRow[e]] += p.cVal[e]
		}
		s.value += p.arcScore[a]
	}
	s.arc[f] = a
}

// feasible says whether every family that must be placed is and every row holds.
func (s *packing) feasible() bool {
	for f, a := range s.arc {
		if a < 0 && s.p.must[f] {
			return false
		}
	}
	for k, u := range s.used {
		if u > s.p.rowHi[k]+tolLoad || u < s.p.rowLo[k]-tolLoad {
			return false
		}
	}
	return true
}

// places is the assignment in model places.
func (s *packing) places() []int {
	out := make([]int, len(s.arc))
	for f, a := range s.arc {
		out[f] = -1
		if a >= 0 {
			out[f] = int(s.p.arcPlace[a])
		}
	}
	return out
}

// fromPlaces loads an assignment by model place (a previous solution): placements
// that are no longer arcs are dropped, then families are taken out of overfull rows
// (those that lose least first) until every capacity holds. It reports whether the
// result is feasible as it stands.
func (s *packing) fromPlaces(place []int) bool {
	p := s.p
	for f := range s.arc {
		s.set(f, -1)
	}
	for f := range min(len(place), p.n) {
		if place[f] < 0 {
			continue
		}
		for a := p.famStart[f]; a < p.famStart[f+1]; a++ {
			if int(p.arcPlace[a]) == place[f] {
				s.set(f, a)
				break
			}
		}
	}
	// Overfull rows: take out, from the families in them, those that do not have to
	// be there (not Must) with the lowest score first, then Must ones.
	for k := range p.K0 {
		if s.used[k] <= p.rowHi[k]+tolLoad {
			continue
		}
		var in []int
		for f, a := range s.arc {
			if a < 0 {
				continue
			}
			for e := p.cStart[a]; e < p.cStart[a+1]; e++ {
				if int(p.cRow[e]) == k {
					in = append(in, f)
					break
				}
			}
		}
		slices.SortStableFunc(in, func(x, y int) int {
			if p.must[x] != p.must[y] {
				if p.must[x] {
					return 1
				}
				return -1
			}
			return cmp.Compare(p.arcScore[s.arc[x]], p.arcScore[s.arc[y]])
		})
		for _, f := range in {
			if s.used[k] <= p.rowHi[k]+tolLoad {
				break
			}
			s.set(f, -1)
		}
	}
	return s.feasible()
}

// greedy places the unplaced families in order, each on the fitting arc that rank
// (higher is better) prefers, when the family must be placed or the arc's score is
// positive. Then it tries to meet unmet minimums and to place Must families that
// found no room by moving one other family out of the way.
func (s *packing) greedy(order []int32, rank func(a int32) float64) {
	p := s.p
	for _, ff := range order {
		f := int(ff)
		if s.arc[f] >= 0 {
			continue
		}
		best, bestR := int32(-1), 0.0
		for a := p.famStart[f]; a < p.famStart[f+1]; a++ {
			if !p.must[f] && p.arcScore[a] <= 0 {
				continue
			}
			r := rank(a)
			if (best < 0 || r > bestR) && s.fits(f, a) {
				best, bestR = a, r
			}
		}
		if best >= 0 {
			s.set(f, best)
		}
	}
	s.placeMust()
	s.meetMins()
}

// placeMust places each Must family still out by moving one family out of its way:
// for each arc of f, a family at that arc's place is moved to another fitting arc
// (or out, if it need not be placed) when that makes room. Cheapest loss first.
func (s *packing) placeMust() {
	p := s.p
	for f := range p.n {
		if !p.must[f] || s.arc[f] >= 0 {
			continue
		}
		bestLoss, bf, bg, bga := 0.0, int32(-1), -1, int32(-1)
		for a := p.famStart[f]; a < p.famStart[f+1]; a++ {
			pl := p.arcPlace[a]
			for g := range p.n {
				ga := s.arc[g]
				if ga < 0 || p.arcPlace[ga] != pl {
					continue
				}
				// Where could g go instead?
				alts := []int32{-1}
				if p.must[g] {
					alts = alts[:0]
				}
				for b := p.famStart[g]; b < p.famStart[g+1]; b++ {
					if b != ga {
						alts = append(alts, b)
					}
				}
				for _, b := range alts {
					if !s.fits(g, b) {
						continue
					}
					s.set(g, b)
					ok := s.fits(f, a)
					loss := p.arcScore[ga] - s.score(b) - p.arcScore[a]
					s.set(g, ga)
					if ok && (bf < 0 || loss < bestLoss) {
						bestLoss, bf, bg, bga = loss, a, g, b
					}
				}
			}
		}
		if bf >= 0 {
			s.set(bg, bga)
			s.set(f, bf)
		}
	}
}

// meetMins moves families into minimum rows that are not met, least loss first.
func (s *packing) meetMins() {
	p := s.p
	for k := range p.K0 {
		for s.used[k] < p.rowLo[k]-tolLoad {
			bf, ba, bestLoss := -1, int32(-1), 0.0
			for f := range p.n {
				cur := s.arc[f]
				if cur >= 0 && s.inRow(cur, k) {
					continue
				}
				for a := p.famStart[f]; a < p.famStart[f+1]; a++ {
					if !s.inRow(a, k) || !s.fits(f, a) {
						continue
					}
					loss := s.score(cur) - p.arcScore[a]
					if bf < 0 || loss < bestLoss {
						bf, ba, bestLoss = f, a, loss
					}
				}
			}
			if bf < 0 {
				break
			}
			s.set(bf, ba)
		}
	}
}

func (s *packing) inRow(a int32, k int) bool {
	p := s.p
	for e := p.cStart[a]; e < p.cStart[a+1]; e++ {
		if int(p.cRow[e]) == k {
			return true
		}
	}
	return false
}

// improve is a local search on the true scores: a family moves to a better arc that
// fits, or leaves when its score is negative and it need not stay; then pairs at
// full places trade (family f takes g's place, g moves elsewhere or out). Only strict
// gains move a family, so a solution loaded from a previous one stays put where
// nothing is gained. It stops after passes rounds or when nothing improves.
func (s *packing) improve(passes int) {
	p := s.p
	for range passes {
		moved := false
		for f := range p.n {
			cur := s.arc[f]
			curS := s.score(cur)
			best, bestS := cur, curS
			if cur >= 0 && curS < 0 && !p.must[f] && s.fits(f, -1) {
				best, bestS = -1, 0
			}
			for a := p.famStart[f]; a < p.famStart[f+1]; a++ {
				if sc := p.arcScore[a]; sc > bestS+1e-12 && s.fits(f, a) {
					best, bestS = a, sc
				}
			}
			if best != cur {
				s.set(f, best)
				moved = true
			}
		}
		if !moved {
			return
		}
	}
}

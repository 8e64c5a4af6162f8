package solver

import "slices"

// The repairs and the local search that the exact method's heuristics use (the
// Lagrangian method's own are in eu_primal.go), on the one assignment type.

// tolLoad is the slack a row's use may exceed its bounds by (rounding).
const tolLoad = 1e-9

// fill places the unplaced families in order, each on the fitting arc that rank
// (per arc, higher is better) prefers, when the family must be placed or the arc's
// score is positive (greedy). Then it tries to meet unmet minimums and to place
// Must families that found no room by moving one other family out of the way.
func (s *euPrimal) fill(order []int32, rank []float64) {
	s.greedy(order, rank)
	s.placeMusts()
	s.meetMins()
}

// placeMusts places each Must family still out by moving one family out of its way:
// for each arc of f, a family at that arc's place is moved to another fitting arc
// (or out, if it need not be placed) when that makes room. Cheapest loss first.
func (s *euPrimal) placeMusts() {
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
func (s *euPrimal) meetMins() {
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

// inRow says whether arc a has a coefficient in row k: its place is in the row and
// its family's need there is not zero.
func (s *euPrimal) inRow(a int32, k int) bool {
	p := s.p
	return p.coef(int(p.arcFam[a]), p.rowDim[k]) != 0 && slices.Contains(s.rowsOf(a), int32(k))
}

// climb is a local search on the true scores over every arc: a family moves to a better arc that
// fits, or leaves when its score is negative and it need not stay; then pairs at
// full places trade (family f takes g's place, g moves elsewhere or out). Only strict
// gains move a family, so a solution loaded from a previous one stays put where
// nothing is gained. It stops after passes rounds or when nothing improves.
func (s *euPrimal) climb(passes int) {
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

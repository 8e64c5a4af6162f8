package solver

import "slices"

// The repairs and the local search that the exact method's heuristics use (the
// Lagrangian method's own are in lagrange/moves.go, chains.go and repack.go), on
// the one assignment type.

// TolLoad is the slack a row's use may exceed its bounds by (rounding).
const TolLoad = 1e-9

// Fill places the unplaced families in order, each on the fitting arc that rank
// (per arc, higher is better) prefers, when the family must be placed or the arc's
// score is positive (greedy). Then it tries to meet unmet minimums and to place
// Must families that found no room by moving one other family out of the way.
func (s *Assignment) Fill(order []int32, rank []float64) {
	s.Greedy(order, rank)
	s.PlaceMusts()
	s.MeetMins()
}

// PlaceMusts places each Must family still out by moving one family out of its way:
// for each arc of f, a family at that arc's place is moved to another fitting arc
// (or out, if it need not be placed) when that makes room. Cheapest loss first.
func (s *Assignment) PlaceMusts() {
	p := s.P
	for f := range p.N {
		if !p.Must[f] || s.Arc[f] >= 0 {
			continue
		}
		bestLoss, bf, bg, bga := 0.0, int32(-1), -1, int32(-1)
		for a := p.FamStart[f]; a < p.FamStart[f+1]; a++ {
			pl := p.ArcPlace[a]
			for g := range p.N {
				ga := s.Arc[g]
				if ga < 0 || p.ArcPlace[ga] != pl {
					continue
				}
				// Where could g go instead?
				alts := []int32{-1}
				if p.Must[g] {
					alts = alts[:0]
				}
				for b := p.FamStart[g]; b < p.FamStart[g+1]; b++ {
					if b != ga {
						alts = append(alts, b)
					}
				}
				for _, b := range alts {
					if !s.Fits(g, b) {
						continue
					}
					s.Set(g, b)
					ok := s.Fits(f, a)
					loss := p.ArcScore[ga] - s.Score(b) - p.ArcScore[a]
					s.Set(g, ga)
					if ok && (bf < 0 || loss < bestLoss) {
						bestLoss, bf, bg, bga = loss, a, g, b
					}
				}
			}
		}
		if bf >= 0 {
			s.Set(bg, bga)
			s.Set(f, bf)
		}
	}
}

// MeetMins moves families into minimum rows that are not met, least loss first.
func (s *Assignment) MeetMins() {
	p := s.P
	for k := range p.K0 {
		for s.Used[k] < p.RowLo[k]-TolLoad {
			bf, ba, bestLoss := -1, int32(-1), 0.0
			for f := range p.N {
				cur := s.Arc[f]
				if cur >= 0 && s.inRow(cur, k) {
					continue
				}
				for a := p.FamStart[f]; a < p.FamStart[f+1]; a++ {
					if !s.inRow(a, k) || !s.Fits(f, a) {
						continue
					}
					loss := s.Score(cur) - p.ArcScore[a]
					if bf < 0 || loss < bestLoss {
						bf, ba, bestLoss = f, a, loss
					}
				}
			}
			if bf < 0 {
				break
			}
			s.Set(bf, ba)
		}
	}
}

// inRow says whether arc a has a coefficient in row k: its place is in the row and
// its family's need there is not zero.
func (s *Assignment) inRow(a int32, k int) bool {
	p := s.P
	return p.Coef(int(p.ArcFam[a]), p.RowDim[k]) != 0 && slices.Contains(s.RowsOf(a), int32(k))
}

// Climb is a local search on the true scores over every arc: a family moves to a better arc that
// fits, or leaves when its score is negative and it need not stay; then pairs at
// full places trade (family f takes g's place, g moves elsewhere or out). Only strict
// gains move a family, so a solution loaded from a previous one stays put where
// nothing is gained. It stops after passes rounds or when nothing improves.
func (s *Assignment) Climb(passes int) {
	p := s.P
	for range passes {
		moved := false
		for f := range p.N {
			cur := s.Arc[f]
			curS := s.Score(cur)
			best, bestS := cur, curS
			if cur >= 0 && curS < 0 && !p.Must[f] && s.Fits(f, -1) {
				best, bestS = -1, 0
			}
			for a := p.FamStart[f]; a < p.FamStart[f+1]; a++ {
				if sc := p.ArcScore[a]; sc > bestS+1e-12 && s.Fits(f, a) {
					best, bestS = a, sc
				}
			}
			if best != cur {
				s.Set(f, best)
				moved = true
			}
		}
		if !moved {
			return
		}
	}
}

// Package prefs holds the preference-based placement mechanisms of Delacrétaz,
// Kominers & Teytelboym, "Matching Mechanisms for Refugee Resettlement" (AER 2023;
// first circulated as "Refugee Resettlement", 2016; DKT below) on the engine's
// multidimensional model: families state strict rankings of places, places state
// strict priorities over families, and a set of families fits a place when its
// needs summed stay within the place's capacity in every dimension.
//
//	MTTC  multidimensional top trading cycles (DKT §4.1, Algorithm 1, Proposition 1):
//	      strategy-proof and Pareto-efficient for families
//	TMDA  threshold multidimensional deferred acceptance (DKT §5.5, Algorithms 4
//	      and 5, Theorem 6): strategy-proof and weakly envy-free
//
// Measure reports what a placement gives (ranks, envy of each kind, capacity left,
// score) so that a mechanism can be set beside the score-optimal placement
// (match.Solve); Draw generates preferences as DKT's simulations do (§7, their
// genFamPref) and Run averages both over seeded draws. docs/match-preferences.md
// says what holds for which mechanism.
//
// Files: prefs.go (the input and its checks), mttc.go, tmda.go, metrics.go,
// draw.go (preference draws), run.go (means over draws).
package prefs

import (
	"fmt"

	"solidarity/match"
)

// Prefs are the two sides' orders on a model's families and places.
type Prefs struct {
	// Family[i] is family i's ranking of places, best first: places it has an arc
	// to, none twice. A place left out is worse for the family than staying unplaced.
	Family [][]int `json:"family"`
	// Place[j] is place j's priority order over families, highest first: families
	// with an arc to j, none twice. A family left out is never placed at j.
	Place [][]int `json:"place"`
}

// Validate checks that p fits m: one ranking per family and per place, entries in
// range, on arcs, none twice.
func (p *Prefs) Validate(m *match.Model) error {
	if len(p.Family) != len(m.Families) {
		return fmt.Errorf("prefs: %d family rankings for %d families", len(p.Family), len(m.Families))
	}
	if len(p.Place) != len(m.Places) {
		return fmt.Errorf("prefs: %d place priorities for %d places", len(p.Place), len(m.Places))
	}
	arc := arcSets(m)
	for i, r := range p.Family {
		seen := map[int]bool{}
		for _, j := range r {
			if j < 0 || j >= len(m.Places) || !arc[i][j] {
				return fmt.Errorf("prefs: family %d ranks place %d, which it has no arc to", i, j)
			}
			if seen[j] {
				return fmt.Errorf("prefs: family %d ranks place %d twice", i, j)
			}
			seen[j] = true
		}
	}
	for j, r := range p.Place {
		seen := map[int]bool{}
		for _, i := range r {
			if i < 0 || i >= len(m.Families) || !arc[i][j] {
				return fmt.Errorf("prefs: place %d lists family %d, which has no arc to it", j, i)
			}
			if seen[i] {
				return fmt.Errorf("prefs: place %d lists family %d twice", j, i)
			}
			seen[i] = true
		}
	}
	return nil
}

func arcSets(m *match.Model) []map[int]bool {
	arc := make([]map[int]bool, len(m.Families))
	for i, f := range m.Families {
		arc[i] = make(map[int]bool, len(f.Arcs))
		for _, a := range f.Arcs {
			arc[i][a.Place] = true
		}
	}
	return arc
}

// market is a validated instance in the form the mechanisms read: ranks as
// numbers (lower is better), and each place's priority list cut to the families
// that fit it alone. DKT's code drops such pairs before any mechanism runs
// (initGlobalVariablesforData: a pair the place cannot weakly accommodate alone is
// made incompatible); it depends on no one's report, so no property is lost.
type market struct {
	m       *match.Model
	dims    int
	need    [][]int64 // per family, per dimension
	cap     [][]int64 // per place
	famRank [][]int   // [family][place]: rank (0 best), or unranked
	pri     [][]int   // per place: acceptable families, highest priority first
	priRank [][]int   // [place][family]: position in pri, or unranked
}

const unranked = -1

func newMarket(m *match.Model, p *Prefs) (*market, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	if err := p.Validate(m); err != nil {
		return nil, err
	}
	mk := &market{m: m, dims: m.Dims, need: make([][]int64, len(m.Families)), cap: make([][]int64, len(m.Places)),
		famRank: make([][]int, len(m.Families)), pri: make([][]int, len(m.Places)), priRank: make([][]int, len(m.Places))}
	for i, f := range m.Families {
		mk.need[i] = f.Need
		mk.famRank[i] = filled(len(m.Places), unranked)
		for r, j := range p.Family[i] {
			mk.famRank[i][j] = r
		}
	}
	for j, pl := range m.Places {
		mk.cap[j] = pl.Cap
		mk.priRank[j] = filled(len(m.Families), unranked)
		for _, i := range p.Place[j] {
			if fitsAlone(mk.need[i], pl.Cap) {
				mk.priRank[j][i] = len(mk.pri[j])
				mk.pri[j] = append(mk.pri[j], i)
			}
		}
	}
	return mk, nil
}

func filled(n, v int) []int {
	s := make([]int, n)
	for k := range s {
		s[k] = v
	}
	return s
}

func fitsAlone(need, cap []int64) bool {
	for d := range need {
		if need[d] > cap[d] {
			return false
		}
	}
	return true
}

// rank is family i's rank of place j (0 best), or unranked; -1 (no place) is
// ranked below every ranked place by the callers.
func (mk *market) rank(i, j int) int {
	if j < 0 {
		return unranked
	}
	return mk.famRank[i][j]
}

// prefers says whether family i strictly prefers place a to place b (either -1:
// unplaced). An unranked place is no better than being unplaced.
func (mk *market) prefers(i, a, b int) bool {
	ra, rb := mk.rank(i, a), mk.rank(i, b)
	if ra == unranked {
		return false
	}
	return rb == unranked || ra < rb
}

// higher says whether family a has a higher priority than family b at place j
// (a must be listed; an unlisted b is below everyone).
func (mk *market) higher(j, a, b int) bool {
	ra, rb := mk.priRank[j][a], mk.priRank[j][b]
	if ra == unranked {
		return false
	}
	return rb == unranked || ra < rb
}

// acceptable says whether i may be placed at j: i ranks j and j lists i.
func (mk *market) acceptable(i, j int) bool {
	return mk.priRank[j][i] != unranked && mk.famRank[i][j] != unranked
}

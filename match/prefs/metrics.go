package prefs

import (
	"fmt"
	"slices"

	"solidarity/match"
)

// Metrics is what a placement gives the families and the places, under the
// preferences it is measured against.
type Metrics struct {
	Families int `json:"families"`
	Placed   int `json:"placed"`
	Unplaced int `json:"unplaced"`
	// AverageRank is the mean rank of their place among families placed at a place
	// they ranked (1: first choice); DKT's averagePreferenceRank.
	AverageRank float64 `json:"average_rank"`
	// Ranks[r-1] counts the families placed at their r-th choice; Unranked those
	// placed at a place they did not rank (only a placement made without the
	// rankings, such as the score-optimal one, has them).
	Ranks    []int `json:"ranks"`
	Unranked int   `json:"unranked"`
	// JustifiedEnvy counts families f with a place p that f prefers to its own, that
	// lists f, and that holds a family of lower priority at p whose removal alone
	// would let p accommodate f (in every dimension) beside the rest.
	JustifiedEnvy int `json:"justified_envy"`
	// Blocking counts families in a blocking pair (DKT Definition 4, stability): a
	// place p they prefer, that lists them, and that can accommodate them beside the
	// families at p of higher priority than theirs. Free room counts: a non-wasteful
	// placement of families who envy no one has none.
	Blocking int `json:"blocking"`
	// Envy counts families that envy another (DKT Definition 6): they prefer the
	// other's place and have a higher priority there.
	Envy int `json:"envy"`
	// StrongEnvy counts the pairs (f, f') where f strongly envies f' (DKT Definition
	// 9): f envies f' and f''s place p cannot weakly accommodate f' beside the
	// families of higher priority than f' at p that weakly prefer p to their own
	// place. DKT's simulations count pairs (countStrongEnvies); weakly envy-free is 0.
	StrongEnvy int `json:"strong_envy_pairs"`
	// Unfilled is the capacity left per dimension, summed over the places;
	// UnfilledFraction the mean over places and dimensions of capacity left over
	// capacity (0 where the capacity is 0), DKT's averageUnfilledQuota.
	Unfilled         []int64 `json:"unfilled"`
	UnfilledFraction float64 `json:"unfilled_fraction"`
	// Score is the placement's total arc score (the engine's objective).
	Score float64 `json:"score"`
}

// Measure computes the metrics of assign (per family, a place or -1) under p. The
// placement must use arcs and keep every capacity.
func Measure(m *match.Model, p *Prefs, assign []int) (*Metrics, error) {
	mk, err := newMarket(m, p)
	if err != nil {
		return nil, err
	}
	return mk.measure(assign)
}

func (mk *market) measure(assign []int) (*Metrics, error) {
	nF, nP := len(mk.need), len(mk.cap)
	if len(assign) != nF {
		return nil, fmt.Errorf("prefs: %d places for %d families", len(assign), nF)
	}
	used, at, err := mk.load(assign)
	if err != nil {
		return nil, err
	}
	mt := &Metrics{Families: nF, Unfilled: make([]int64, mk.dims)}
	maxRank := 0
	for i := range nF {
		for _, r := range mk.famRank[i] {
			maxRank = max(maxRank, r+1)
		}
	}
	mt.Ranks = make([]int, maxRank)
	ranked := 0
	for i, j := range assign {
		if j < 0 {
			mt.Unplaced++
			continue
		}
		mt.Placed++
		mt.Score += arcScore(mk.m.Families[i], j)
		if r := mk.rank(i, j); r == unranked {
			mt.Unranked++
		} else {
			mt.Ranks[r]++
			ranked++
			mt.AverageRank += float64(r + 1)
		}
	}
	if ranked > 0 {
		mt.AverageRank /= float64(ranked)
	}
	cells := 0
	for j := range nP {
		for d := range mk.dims {
			left := mk.cap[j][d] - used[j][d]
			mt.Unfilled[d] += left
			if mk.cap[j][d] > 0 {
				mt.UnfilledFraction += float64(left) / float64(mk.cap[j][d])
			}
			cells++
		}
	}
	if cells > 0 {
		mt.UnfilledFraction /= float64(cells)
	}
	for i := range nF {
		je, bl := mk.envyAt(i, assign, used, at)
		if je {
			mt.JustifiedEnvy++
		}
		if bl {
			mt.Blocking++
		}
	}
	mt.Envy = mk.envious(assign)
	mt.StrongEnvy = mk.strongEnvyPairs(assign)
	return mt, nil
}

// load sums the needs at each place and lists its families, checking arcs and
// capacities.
func (mk *market) load(assign []int) ([][]int64, [][]int, error) {
	nP := len(mk.cap)
	used := make([][]int64, nP)
	at := make([][]int, nP)
	for j := range used {
		used[j] = make([]int64, mk.dims)
	}
	for i, j := range assign {
		if j < 0 {
			continue
		}
		if j >= nP || !hasArc(mk.m.Families[i], j) {
			return nil, nil, fmt.Errorf("prefs: family %d placed at %d, which it has no arc to", i, j)
		}
		for d := range mk.dims {
			used[j][d] += mk.need[i][d]
		}
		at[j] = append(at[j], i)
	}
	for j := range nP {
		for d := range mk.dims {
			if used[j][d] > mk.cap[j][d] {
				return nil, nil, fmt.Errorf("prefs: place %d over capacity in dimension %d (%d > %d)", j, d, used[j][d], mk.cap[j][d])
			}
		}
	}
	return used, at, nil
}

// envyAt says whether family i has justified envy, and whether it is in a
// blocking pair (see Metrics).
func (mk *market) envyAt(i int, assign []int, used [][]int64, at [][]int) (justified, blocking bool) {
	own := assign[i]
	room := make([]int64, mk.dims)
	for p := range mk.famRank[i] {
		if !mk.acceptable(i, p) || !mk.prefers(i, p, own) {
			continue
		}
		// Blocking: the families of higher priority than i at p, and i, fit.
		clear(room)
		for _, g := range at[p] {
			if mk.higher(p, g, i) {
				for d := range room {
					room[d] += mk.need[g][d]
				}
			}
		}
		if fitsAlongside(mk.need[i], room, mk.cap[p]) {
			blocking = true
		}
		for _, g := range at[p] {
			if !mk.higher(p, i, g) {
				continue
			}
			for d := range room {
				room[d] = used[p][d] - mk.need[g][d]
			}
			if fitsAlongside(mk.need[i], room, mk.cap[p]) {
				justified = true
				break
			}
		}
	}
	return justified, blocking
}

// envious counts the families that envy another (Definition 6).
func (mk *market) envious(assign []int) int {
	n := 0
	for i := range assign {
		for g, p := range assign {
			if p >= 0 && g != i && mk.prefers(i, p, assign[i]) && mk.higher(p, i, g) {
				n++
				break
			}
		}
	}
	return n
}

// strongEnvyPairs counts the pairs of Definition 9.
func (mk *market) strongEnvyPairs(assign []int) int {
	n := 0
	sum := make([]int64, mk.dims)
	for f2, p := range assign {
		if p < 0 {
			continue
		}
		// (iii): p cannot weakly accommodate f2 beside the families above f2 at p
		// that weakly prefer p to their own place.
		clear(sum)
		for g := range assign {
			if g != f2 && mk.higher(p, g, f2) && (assign[g] == p || mk.prefers(g, p, assign[g])) {
				for d := range sum {
					sum[d] += mk.need[g][d]
				}
			}
		}
		if weaklyFits(mk.need[f2], sum, mk.cap[p]) {
			continue
		}
		for f1 := range assign {
			if f1 != f2 && mk.prefers(f1, p, assign[f1]) && mk.higher(p, f1, f2) {
				n++
			}
		}
	}
	return n
}

// weaklyFits is weak accommodation (DKT Definition 8): the family fits beside sum
// in every dimension it needs.
func weaklyFits(need, sum, cap []int64) bool {
	for d := range need {
		if need[d] != 0 && need[d]+sum[d] > cap[d] {
			return false
		}
	}
	return true
}

func hasArc(f match.Family, j int) bool {
	_, ok := slices.BinarySearchFunc(f.Arcs, j, func(a match.Arc, j int) int { return a.Place - j })
	return ok
}

func arcScore(f match.Family, j int) float64 {
	k, _ := slices.BinarySearchFunc(f.Arcs, j, func(a match.Arc, j int) int { return a.Place - j })
	return f.Arcs[k].Score
}

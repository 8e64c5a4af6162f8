package prefs

import "solidarity/match"

// MTTC places families by multidimensional top trading cycles (DKT §4.1,
// Algorithm 1). Each round, every place permanently rejects the families it cannot
// accommodate alongside those already permanently matched to it (from the start:
// families it does not list, or that do not fit it alone); every family not yet
// matched points at its most preferred place that has not rejected it, or at the
// null place when none is left; every place points at its highest-priority family
// that is neither matched nor rejected by it. Each node has one outgoing edge at
// most, so the cycles are disjoint: every family on one is permanently matched to
// the place it points at (a family pointing at the null place is its own cycle and
// stays unplaced). A place gains at most one family a round, which fits beside the
// earlier ones, so capacities hold throughout.
//
// DKT, Proposition 1: MTTC is strategy-proof (for families) and Pareto-efficient
// (no feasible placement is weakly better for every family and strictly better
// for one). Priorities only choose the order in which places point.
//
// The result is, per family, its place or -1.
func MTTC(m *match.Model, p *Prefs) ([]int, error) {
	mk, err := newMarket(m, p)
	if err != nil {
		return nil, err
	}
	return mk.mttc(), nil
}

func (mk *market) mttc() []int {
	nF, nP := len(mk.need), len(mk.cap)
	assign := make([]int, nF)
	done := make([]bool, nF)
	for i := range assign {
		assign[i] = -1
	}
	used := make([][]int64, nP)
	for j := range used {
		used[j] = make([]int64, mk.dims)
	}
	// rejected[j][i]: place j has permanently rejected family i. Unlisted families are
	// rejected from the start; rejection is permanent because the matched set grows.
	rejected := make([][]bool, nP)
	for j := range rejected {
		rejected[j] = make([]bool, nF)
		for i := range nF {
			rejected[j][i] = mk.priRank[j][i] == unranked
		}
	}
	famPoint := make([]int, nF)   // place, or -1: the null place
	placePoint := make([]int, nP) // family, or -1: does not point
	left := nF
	for left > 0 {
		for j := range nP {
			for _, i := range mk.pri[j] {
				if !done[i] && !rejected[j][i] && !fitsAlongside(mk.need[i], used[j], mk.cap[j]) {
					rejected[j][i] = true
				}
			}
		}
		for i := range nF {
			famPoint[i] = -1
			if done[i] {
				continue
			}
			best := unranked
			for j, r := range mk.famRank[i] {
				if r != unranked && !rejected[j][i] && (best == unranked || r < best) {
					best, famPoint[i] = r, j
				}
			}
		}
		for j := range nP {
			placePoint[j] = -1
			for _, i := range mk.pri[j] {
				if !done[i] && !rejected[j][i] {
					placePoint[j] = i
					break
				}
			}
		}
		matched := mk.clearCycles(famPoint, placePoint, done, assign, used)
		if matched == 0 {
			panic("prefs: MTTC round without a cycle") // every node points, so one exists
		}
		left -= matched
	}
	return assign
}

// clearCycles finds the cycles of the pointing graph (families → places →
// families; a family pointing at the null place is a cycle alone) and matches every
// family on one. It returns how many families it matched.
func (mk *market) clearCycles(famPoint, placePoint []int, done []bool, assign []int, used [][]int64) int {
	nF := len(famPoint)
	// Walk from each unvisited family; state 1: on the current path, 2: finished.
	state := make([]uint8, nF)
	matched := 0
	var path []int
	for start := range nF {
		if done[start] || state[start] != 0 {
			continue
		}
		path = path[:0]
		i := start
		for {
			if state[i] != 0 {
				break
			}
			state[i] = 1
			path = append(path, i)
			j := famPoint[i]
			if j < 0 { // the null place points back at every family: a cycle of one
				assign[i], done[i] = -1, true
				matched++
				i = -1
				break
			}
			next := placePoint[j]
			if next < 0 || done[next] {
				i = -1
				break
			}
			i = next
		}
		if i >= 0 && state[i] == 1 { // the path closed on itself at i
			k := len(path) - 1
			for path[k] != i {
				k--
			}
			for _, f := range path[k:] {
				j := famPoint[f]
				assign[f], done[f] = j, true
				for d := range used[j] {
					used[j][d] += mk.need[f][d]
				}
				matched++
			}
		}
		for _, f := range path {
			state[f] = 2
		}
	}
	return matched
}

// fitsAlongside says whether a family with need fits where used is taken of cap.
func fitsAlongside(need, used, cap []int64) bool {
	for d := range need {
		if used[d]+need[d] > cap[d] {
			return false
		}
	}
	return true
}

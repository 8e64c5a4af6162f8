package prefs

import (
	"cmp"
	"math"
	"slices"

	"solidarity/match"
)

// TMDA places families by threshold multidimensional deferred acceptance (DKT
// §5.5, Algorithm 4). Each round, every family proposes to its favourite place that
// has not permanently rejected it; every place gives every family it lists a
// threshold from the current proposals (Algorithm 5, thresholds below) and
// permanently rejects each proposer whose rank among its proposers (1 for the
// highest priority) is above its threshold. A round without a rejection ends it:
// every family is matched where it proposes.
//
// DKT, Theorem 6: TMDA is strategy-proof (for families) and weakly envy-free (no
// family strongly envies another, Definition 9; see Metrics.StrongEnvy). It is
// neither envy-free nor non-wasteful in general: the thresholds keep places'
// choices cardinally monotone, at the price of capacity left unused.
//
// DKT's MATLAB code (tmda.m, thresholdCalculator.m) counts the family itself in the
// temporary threshold and orders the non-proposing families by index, not need;
// this follows the paper (Algorithm 5 and its footnote 26; Table 3 has a threshold
// of 1 where the code would give 2).
func TMDA(m *match.Model, p *Prefs) ([]int, error) {
	mk, err := newMarket(m, p)
	if err != nil {
		return nil, err
	}
	return mk.tmda(), nil
}

// infinite is the threshold of a family the place takes whoever else proposes.
const infinite = math.MaxInt

func (mk *market) tmda() []int {
	nF, nP := len(mk.need), len(mk.cap)
	// Each family's acceptable places, best first: it proposes down this list.
	lists := make([][]int, nF)
	for i := range nF {
		for j := range mk.famRank[i] {
			if mk.acceptable(i, j) {
				lists[i] = append(lists[i], j)
			}
		}
		slices.SortFunc(lists[i], func(a, b int) int { return cmp.Compare(mk.famRank[i][a], mk.famRank[i][b]) })
	}
	next := make([]int, nF) // index in lists of the place i proposes to
	proposing := make([][]bool, nP)
	for j := range proposing {
		proposing[j] = make([]bool, nF)
	}
	for i := range nF {
		if len(lists[i]) > 0 {
			proposing[lists[i][0]][i] = true
		}
	}
	changed := make([]bool, nP) // a place whose proposers changed since its last check
	for j := range changed {
		changed[j] = true
	}
	th := newThresholds(mk)
	// Rounds as in the paper: every place rejects against the proposals the round
	// started with, then the rejected families propose again.
	var reject [][2]int
	for {
		reject = reject[:0]
		for j := range nP {
			if !changed[j] {
				continue // same proposers, same thresholds: none rejected last time
			}
			changed[j] = false
			theta := th.at(j, proposing[j])
			rank := 0
			for k, i := range mk.pri[j] {
				if !proposing[j][i] {
					continue
				}
				rank++
				if rank > theta[k] {
					reject = append(reject, [2]int{j, i})
				}
			}
		}
		if len(reject) == 0 {
			break
		}
		for _, r := range reject {
			j, i := r[0], r[1]
			proposing[j][i] = false
			changed[j] = true
			next[i]++
			if next[i] < len(lists[i]) {
				l := lists[i][next[i]]
				proposing[l][i] = true
				changed[l] = true
			}
		}
	}
	assign := make([]int, nF)
	for i := range nF {
		assign[i] = -1
		if next[i] < len(lists[i]) {
			assign[i] = lists[i][next[i]]
		}
	}
	return assign
}

// thresholds computes Algorithm 5 for one place at a time, reusing its buffers.
type thresholds struct {
	mk    *market
	theta []int
	// Per dimension, the non-proposing higher-priority families' needs so far as
	// counts by distinct value (values descending): the greedy of footnote 26.
	values [][]int64
	count  [][]int
}

func newThresholds(mk *market) *thresholds {
	return &thresholds{mk: mk}
}

// at returns, for place j and its current proposers, the threshold θ of every
// family in j's priority list (by position in that list):
//
//	θ̃(f) = ∞ when j can weakly accommodate f alongside every higher-priority family;
//	       0 when it cannot weakly accommodate f alongside the higher-priority
//	       proposers P;
//	       else the least n such that some set of n higher-priority families
//	       containing P leaves f not weakly accommodated (all sets of n−1 do);
//	θ(f) = ∞ when θ̃(f) = ∞, else the least θ̃ of f and the families above it.
//
// Weak accommodation (DKT Definition 8) looks only at the dimensions f needs. The
// least n is |P| plus, in the tightest dimension, the fewest non-proposing
// higher-priority families, largest need first, that push the total over the
// capacity: a greedy, checked against the definition by enumeration in the tests.
func (t *thresholds) at(j int, proposing []bool) []int {
	mk := t.mk
	d := mk.dims
	pri := mk.pri[j]
	cap := mk.cap[j]
	t.theta = slices.Grow(t.theta[:0], len(pri))[:len(pri)]
	all := make([]int64, d)  // needs of every family above, summed
	prop := make([]int64, d) // needs of the proposers above, summed
	nProp := 0
	t.reset(j)
	minSoFar := infinite // least θ̃ among the families above and f
	for k, f := range pri {
		nf := mk.need[f]
		tt := t.temporary(nf, all, prop, nProp, cap)
		minSoFar = min(minSoFar, tt)
		if tt == infinite {
			t.theta[k] = infinite
		} else {
			t.theta[k] = minSoFar
		}
		for s := range d {
			all[s] += nf[s]
		}
		if proposing[f] {
			nProp++
			for s := range d {
				prop[s] += nf[s]
			}
		} else {
			t.add(nf)
		}
	}
	return t.theta
}

func (t *thresholds) temporary(nf, all, prop []int64, nProp int, cap []int64) int {
	weakly := func(sum []int64) bool {
		for s := range nf {
			if nf[s] != 0 && nf[s]+sum[s] > cap[s] {
				return false
			}
		}
		return true
	}
	if weakly(all) {
		return infinite
	}
	if !weakly(prop) {
		return 0
	}
	best := infinite
	for s := range nf {
		if nf[s] == 0 {
			continue
		}
		// Fewest extra families whose needs in s sum to more than room.
		room := cap[s] - nf[s] - prop[s]
		if k, ok := t.fewest(s, room); ok {
			best = min(best, nProp+k)
		}
	}
	return best
}

func (t *thresholds) reset(j int) {
	d := t.mk.dims
	if len(t.values) != d {
		t.values, t.count = make([][]int64, d), make([][]int, d)
	}
	for s := range d {
		t.values[s], t.count[s] = t.values[s][:0], t.count[s][:0]
	}
}

// add counts a non-proposing higher-priority family's needs.
func (t *thresholds) add(need []int64) {
	for s, v := range need {
		if v == 0 {
			continue
		}
		vs := t.values[s]
		k, found := slices.BinarySearchFunc(vs, v, func(a, b int64) int { return cmp.Compare(b, a) })
		if found {
			t.count[s][k]++
			continue
		}
		t.values[s] = slices.Insert(vs, k, v)
		t.count[s] = slices.Insert(t.count[s], k, 1)
	}
}

// fewest is the least number of counted families whose needs in s sum to more
// than room (≥ 0), and false when all of them do not.
func (t *thresholds) fewest(s int, room int64) (int, bool) {
	want := room + 1 // the sum must reach this
	k := 0
	for x, v := range t.values[s] {
		c := int64(t.count[s][x])
		if c*v < want {
			want -= c * v
			k += int(c)
			continue
		}
		return k + int((want+v-1)/v), true
	}
	return 0, false
}

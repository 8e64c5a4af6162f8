// Package knapsack is the dynamic program of the multi-dimensional 0/1 knapsack
// that the solvers share (internal/solver: the knapsack Lagrangian of the exact
// method, the knapsack bound and the exact repacking of the Lagrangian method).
//
// The program runs over the capacity states 0 ≤ c ≤ Caps of a Space, one value per
// state with "at most" semantics: the value of state c is the best profit of the
// items so far whose weights add up to at most c in every dimension. States are
// stored with dimension 0 contiguous (stride 1), so that every step works on runs
// along it, and each item's step walks its states in decreasing index order, so
// that a program may keep a single row and update it in place.
package knapsack

import "math"

// MaxDims is the number of dimensions a Space may have.
const MaxDims = 8

// Space is the state space of one knapsack: capacity Caps[d] in dimension d, state
// c stored at Σ_d c[d]·Stride[d].
type Space struct {
	Caps   []int
	Stride []int
	States int
}

// NewSpace is the space of capacities caps (at most MaxDims of them), or ok false
// when it would have more than maxStates states.
func NewSpace(caps []int, maxStates int) (sp Space, ok bool) {
	sp = Space{Caps: caps, Stride: make([]int, len(caps)), States: 1}
	for d, c := range caps {
		sp.Stride[d] = sp.States
		sp.States *= c + 1
		if sp.States > maxStates {
			return Space{}, false
		}
	}
	return sp, true
}

// Offset is the index distance of weight w: state c − w is at index(c) − Offset(w).
func (sp Space) Offset(w []int) int {
	off := 0
	for d, x := range w {
		off += x * sp.Stride[d]
	}
	return off
}

// Fits says whether weight w fits in the state with coordinates co.
func Fits(co, w []int) bool {
	for d, c := range co {
		if c < w[d] {
			return false
		}
	}
	return true
}

// Step is one item's step (weight w, off = Offset(w), profit pr) over the states up
// to the corner hi (hi ≤ Caps; all of them: hi = Caps): for every state s the item
// fits, cur[s] = max(cur[s], prev[s−off]+pr), taking the item only when it gains
// more than tol, and marking tk[s] then (tk may be nil). The states are walked in
// decreasing index order, so prev and cur may be the same row.
func (sp Space) Step(w []int, off int, pr, tol float64, prev, cur []float64, tk []bool, hi []int) {
	stride := sp.Stride
	if len(hi) == 1 {
		if w[0] > hi[0] {
			return
		}
		n := hi[0] - w[0] + 1
		run(cur[w[0]:w[0]+n], prev[:n], tk, w[0], pr, tol)
		return
	}
	for d := range hi {
		if w[d] > hi[d] {
			return
		}
	}
	var co [MaxDims]int
	D := len(hi)
	s := 0
	for d := range D {
		co[d] = hi[d]
		s += hi[d] * stride[d]
	}
	n := hi[0] - w[0] + 1
	for {
		// The run along dimension 0 is contiguous: states s−n+1..s.
		base := s - n + 1
		run(cur[base:base+n], prev[base-off:][:n], tk, base, pr, tol)
		d := 1
		for ; d < D; d++ {
			if co[d] > w[d] {
				co[d]--
				s -= stride[d]
				break
			}
			s += (hi[d] - w[d]) * stride[d]
			co[d] = hi[d]
		}
		if d == D {
			return
		}
	}
}

// run is Step along one run: cs the states, ps the states an item's weight below
// them, tk from index base on the marks (nil: none). Slices of exactly the run's
// length let the compiler drop the bounds checks; the run is walked downwards, as
// ps and cs may overlap.
func run(cs, ps []float64, tk []bool, base int, pr, tol float64) {
	ps = ps[:len(cs)]
	switch {
	case tk == nil && tol == 0:
		for i := len(cs) - 1; i >= 0; i-- {
			if v := ps[i] + pr; v > cs[i] {
				cs[i] = v
			}
		}
	case tol == 0:
		ts := tk[base:][:len(cs)]
		for i := len(cs) - 1; i >= 0; i-- {
			if v := ps[i] + pr; v > cs[i] {
				cs[i] = v
				ts[i] = true
			}
		}
	default:
		var ts []bool
		if tk != nil {
			ts = tk[base:][:len(cs)]
		}
		for i := len(cs) - 1; i >= 0; i-- {
			if v := ps[i] + pr; v > cs[i]+tol {
				cs[i] = v
				if ts != nil {
					ts[i] = true
				}
			}
		}
	}
}

// Force is the step of an item that must be taken, over the states up to corner
// hi: a state the item fits is worth the state without it plus pr (marked taken),
// any other −Inf. States are walked in decreasing index order, so that dp[s−off] is
// still the value without the item.
func (sp Space) Force(w []int, off int, pr float64, dp []float64, tk []bool, hi []int) {
	var co [MaxDims]int
	D := len(hi)
	s := 0
	for d := range D {
		co[d] = hi[d]
		s += hi[d] * sp.Stride[d]
	}
	for {
		if Fits(co[:D], w) {
			dp[s], tk[s] = dp[s-off]+pr, true
		} else {
			dp[s] = math.Inf(-1)
		}
		// The previous state of the region, odometer-wise.
		d := 0
		for ; d < D; d++ {
			if co[d] > 0 {
				co[d]--
				s -= sp.Stride[d]
				break
			}
			co[d] = hi[d]
			s += hi[d] * sp.Stride[d]
		}
		if d == D {
			return
		}
	}
}

// Grow extends a program's region from the states up to corner lo to those up to
// corner hi (lo ≤ hi): each new state takes the value of the state clipped to lo,
// which "at most" semantics make its value. Runs along dimension 0 are filled at
// once; the other coordinates are walked as an odometer.
func (sp Space) Grow(dp []float64, lo, hi []int) {
	D, stride := len(hi), sp.Stride
	var co [MaxDims]int
	for {
		base, src, inside := 0, 0, true
		for d := 1; d < D; d++ {
			base += co[d] * stride[d]
			src += min(co[d], lo[d]) * stride[d]
			inside = inside && co[d] <= lo[d]
		}
		if inside {
			if hi[0] > lo[0] {
				// The row was in the region up to lo[0]: extend its end.
				v := dp[base+lo[0]]
				for c := lo[0] + 1; c <= hi[0]; c++ {
					dp[base+c] = v
				}
			} else if D > 1 && co[1] < lo[1] {
				// Nothing new in this row, nor in the next ones along dimension 1
				// up to lo[1]: skip to the last of them.
				co[1] = lo[1]
			}
		} else {
			for c := 0; c <= hi[0]; c++ {
				dp[base+c] = dp[src+min(c, lo[0])]
			}
		}
		d := 1
		for ; d < D; d++ {
			if co[d] < hi[d] {
				co[d]++
				break
			}
			co[d] = 0
		}
		if d >= D {
			return
		}
	}
}

// Trace is the choice of a program that kept a row of marks per item (take: n rows
// of States, row i marking the states where item i was taken), from state s back:
// chosen[i] for the items taken, in their order; off(i) is item i's Offset.
func (sp Space) Trace(take []bool, n, s int, off func(i int) int, chosen func(i int)) {
	for i := n - 1; i >= 0; i-- {
		if take[i*sp.States+s] {
			chosen(i)
			s -= off(i)
		}
	}
}
